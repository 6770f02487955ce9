/** The real-name page's pure helpers (src/features/identity/identity-view.ts) and the 601 redirect. */
import { describe, expect, test } from 'vitest';
import {
  DOCUMENT_TYPES,
  IDENTITY_IMAGES_MAX,
  identityStoreParamsSchema,
  IDENTITY_STATUSES,
  REJECT_REASONS,
} from '../../contract/api/identity.js';
import { BodyCode } from '../../contract/codes.js';
import en from '../../locales/en.json';
import zhHans from '../../locales/zh-Hans.json';
import { redirectFor } from '../../src/app/outcome.js';
import { ROUTES } from '../../src/app/paths.js';
import {
  DOCUMENT_TYPE_CHOICES,
  formProblems,
  imagesInOrder,
  maySubmit,
  reasonKey,
  slotsFor,
  statusKey,
  statusOf,
} from '../../src/features/identity/identity-view.js';

describe('identity view', () => {
  test('an ID card and a driving licence ask for the front, the back and a photo holding it; a passport has no back', () => {
    expect(slotsFor('id_card')).toEqual(['front', 'back', 'holding']);
    expect(slotsFor('driving_licence')).toEqual(['front', 'back', 'holding']);
    expect(slotsFor('passport')).toEqual(['front', 'holding']);
  });

  test('the page offers exactly the document types of the contract, and never more images than the server takes', () => {
    expect([...DOCUMENT_TYPE_CHOICES].sort()).toEqual([...DOCUMENT_TYPES].sort());
    for (const type of DOCUMENT_TYPES) expect(slotsFor(type).length).toBeLessThanOrEqual(IDENTITY_IMAGES_MAX);
  });

  test('the form reads a document number as the contract does', () => {
    for (const number of [
      'AB12',
      'D12-345 678',
      'AB!',
      'A',
      '-AB12',
      'AB12-',
      'x'.repeat(32),
      'x'.repeat(33),
    ]) {
      const server = identityStoreParamsSchema.safeParse({
        documentType: 'passport',
        documentNumber: number,
        realName: 'Ana',
        images: ['/api/v1/common/img/abcdefghij12'],
      }).success;
      const client = formProblems({
        documentType: 'passport',
        documentNumber: number,
        realName: 'Ana',
        images: { front: 1, holding: 1 },
      });
      expect([number, client.length === 0]).toEqual([number, server]);
    }
  });

  test('the images go in the order front, back, holding, only those the type asks for, and none while one is missing', () => {
    const chosen = { holding: 'H', front: 'F', back: 'B' };
    expect(imagesInOrder('id_card', chosen)).toEqual(['F', 'B', 'H']);
    expect(imagesInOrder('passport', chosen)).toEqual(['F', 'H']);
    expect(imagesInOrder('driving_licence', { front: 'F', holding: 'H' })).toBeNull();
    expect(imagesInOrder('passport', { front: 'F', holding: 'H' })).toEqual(['F', 'H']);
  });

  test('no synced record is not verified; the form is offered while not verified or rejected only', () => {
    expect(statusOf(null)).toBe('not_verified');
    expect(statusOf(undefined)).toBe('not_verified');
    expect(IDENTITY_STATUSES.filter(maySubmit)).toEqual(['not_verified', 'rejected']);
  });

  test('every status and every rejection reason has words in English and Chinese', () => {
    for (const catalogue of [en, zhHans]) {
      const words = catalogue.identity as Record<string, string>;
      for (const reason of REJECT_REASONS) expect(words[reasonKey(reason).split('.')[1] ?? '']).toBeTruthy();
      for (const status of IDENTITY_STATUSES) {
        expect(words[statusKey(status).split('.')[1] ?? '']).toBeTruthy();
        expect(words[`explain_${status}`]).toBeTruthy();
      }
    }
  });

  test('the form names what is missing or wrong: the number as the contract reads it, the name, each image the type needs', () => {
    const empty = formProblems({ documentType: 'passport', documentNumber: ' ', realName: '', images: {} });
    expect(empty).toEqual([
      { field: 'documentNumber', problem: 'required' },
      { field: 'realName', problem: 'required' },
      { field: 'front', problem: 'required' },
      { field: 'holding', problem: 'required' },
    ]);
    const wrong = formProblems({
      documentType: 'id_card',
      documentNumber: 'AB!',
      realName: 'x'.repeat(65),
      images: { front: 1, back: 1, holding: 1 },
    });
    expect(wrong).toEqual([
      { field: 'documentNumber', problem: 'invalid' },
      { field: 'realName', problem: 'too_long' },
    ]);
    expect(
      formProblems({
        documentType: 'driving_licence',
        documentNumber: 'D12-345 678',
        realName: 'Ana Lima',
        images: { front: 1, back: 1, holding: 1 },
      }),
    ).toEqual([]);
  });
});

describe('body codes that move the user', () => {
  test('601 (real-name verification required) goes to the real-name page, as 4900 goes to the authenticator', () => {
    expect(redirectFor(BodyCode.realNameRequired)).toBe(ROUTES.identity);
    expect(redirectFor(BodyCode.authenticatorNotBound)).toBe(ROUTES.updatePassword3);
    expect(redirectFor(BodyCode.tradePasswordNotSet)).toBe(ROUTES.updatePassword2);
    expect(redirectFor(500)).toBeUndefined();
  });
});
