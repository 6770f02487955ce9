/**
 * What the real-name page shows and checks, apart from React (docs/protocol.md §30): which
 * images a document type asks for, the words of a status and of a rejection's reason, and the
 * form's own checks before anything is queued. Pure.
 */
import type {
  DocumentType,
  IdentityRecord,
  IdentityStatus,
  RejectReason,
} from '../../../contract/api/identity.js';

/** The document types, in the order offered (the contract's DOCUMENT_TYPES; zod stays off this page). */
export const DOCUMENT_TYPE_CHOICES = [
  'id_card',
  'passport',
  'driving_licence',
] as const satisfies readonly DocumentType[];

/** The images of a submission, in the order they are sent. */
export const IMAGE_SLOTS = ['front', 'back', 'holding'] as const;
export type ImageSlot = (typeof IMAGE_SLOTS)[number];

/** An ID card and a driving licence have a back; a passport's photo page is its front. */
export function slotsFor(type: DocumentType): readonly ImageSlot[] {
  return type === 'passport' ? ['front', 'holding'] : IMAGE_SLOTS;
}

/** The chosen images the type asks for, in the order sent; null while one of them is missing. */
export function imagesInOrder<T>(type: DocumentType, chosen: Partial<Record<ImageSlot, T>>): T[] | null {
  const images: T[] = [];
  for (const slot of slotsFor(type)) {
    const image = chosen[slot];
    if (image === undefined) return null;
    images.push(image);
  }
  return images;
}

/** The status the page shows: no record yet (nothing synced or nothing submitted) is not verified. */
export function statusOf(record: IdentityRecord | null | undefined): IdentityStatus {
  return record?.status ?? 'not_verified';
}

/** While not verified or rejected, the customer may submit (again). */
export function maySubmit(status: IdentityStatus): boolean {
  return status === 'not_verified' || status === 'rejected';
}

/** The locale key of a rejection's reason. */
export function reasonKey(reason: RejectReason): `identity.reason_${RejectReason}` {
  return `identity.reason_${reason}`;
}

/** The locale key of a status. */
export function statusKey(status: IdentityStatus): `identity.status_${IdentityStatus}` {
  return `identity.status_${status}`;
}

/** The contract's rule for a number (as identityStoreParamsSchema reads it): letters and digits, with spaces or hyphens between, 4 to 32. */
const DOCUMENT_NUMBER = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{2,30})[A-Za-z0-9]$/;
export const DOCUMENT_NUMBER_MAX_LENGTH = 32;
export const REAL_NAME_MAX_LENGTH = 64;

export interface IdentityFormValues {
  documentType: DocumentType;
  documentNumber: string;
  realName: string;
  images: Partial<Record<ImageSlot, unknown>>;
}

/** What is wrong with the form, by field (`documentNumber`, `realName`, or an image slot). */
export type IdentityFormProblem =
  | { field: 'documentNumber'; problem: 'required' | 'invalid' }
  | { field: 'realName'; problem: 'required' | 'too_long' }
  | { field: ImageSlot; problem: 'required' };

export function formProblems(values: IdentityFormValues): IdentityFormProblem[] {
  const problems: IdentityFormProblem[] = [];
  const number = values.documentNumber.trim();
  if (number === '') problems.push({ field: 'documentNumber', problem: 'required' });
  else if (!DOCUMENT_NUMBER.test(number)) problems.push({ field: 'documentNumber', problem: 'invalid' });
  const name = values.realName.trim();
  if (name === '') problems.push({ field: 'realName', problem: 'required' });
  else if (name.length > REAL_NAME_MAX_LENGTH) problems.push({ field: 'realName', problem: 'too_long' });
  for (const slot of slotsFor(values.documentType)) {
    if (values.images[slot] === undefined) problems.push({ field: slot, problem: 'required' });
  }
  return problems;
}
