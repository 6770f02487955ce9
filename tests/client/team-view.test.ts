/**
 * The Team tab's and share poster's view-model (src/features/team/team-view.ts): rates shown as
 * exact percents, the progress to the next level at exact thresholds, the team income lines with
 * the member and generation they were paid on, and the register link with the invite code filled
 * in as the register page reads it.
 */
import { describe, expect, test } from 'vitest';
import type { IncomeRecord } from '../../contract/api/income.js';
import type { MyLevelData, TeamLevel } from '../../contract/api/team.js';
import {
  posterFileName,
  progressOf,
  registerLinkOf,
  teamIncomeOf,
  totalOf,
} from '../../src/features/team/team-view.js';

const level = (overrides: Partial<TeamLevel>): TeamLevel => ({
  level: 2,
  name: 'V2',
  ownHosting: '1000',
  directValidMembers: 3,
  smallAreaPerformance: '10000',
  promotionRate1: '0.12',
  promotionRate2: '0.06',
  managementRate: '0.05',
  ...overrides,
});

const myLevel = (figures: MyLevelData['figures'], next: TeamLevel | null): MyLevelData => ({
  level: 1,
  levelName: 'V1',
  figures,
  current: level({ level: 1, name: 'V1' }),
  next,
  shortfall: null,
  lastDay: null,
  asOf: '2026-01-06T00:00:00.000Z',
});

const line = (overrides: Partial<IncomeRecord>): IncomeRecord => ({
  id: '1',
  accountId: '3',
  type: 'promotion',
  amount: '0.6',
  earningsDate: '2026-01-06',
  arrivalDate: '2026-01-07',
  status: 'arrived',
  arrivedAt: '2026-01-06T16:05:00.000Z',
  ref: { table: 'users', id: '8' },
  memo: null,
  source: { memberId: '8', nickname: 'al***', generation: 1, base: '6', rate: '0.1', level: 1 },
  createdAt: '2026-01-06T16:05:00.000Z',
  updatedAt: '2026-01-06T16:05:00.000Z',
  ...overrides,
});

describe('progress to the next level', () => {
  test('each requirement says what is had and needed, and is met at exactly the threshold (999.99 is not 1000)', () => {
    const rows = progressOf(
      myLevel({ ownPerformance: '999.99', directValidMembers: 3, smallAreaPerformance: '2500' }, level({})),
    );
    expect(rows).toEqual([
      { key: 'own', have: '999.99', need: '1000', met: false, percent: 99 },
      { key: 'direct', have: '3', need: '3', met: true, percent: 100 },
      { key: 'small', have: '2500', need: '10000', met: false, percent: 25 },
    ]);
    const reached = progressOf(
      myLevel({ ownPerformance: '1000', directValidMembers: 3, smallAreaPerformance: '10000' }, level({})),
    );
    expect(reached?.every((row) => row.met)).toBe(true);
  });
  test('at the top level there is no next one to progress to', () => {
    expect(
      progressOf(myLevel({ ownPerformance: '0', directValidMembers: 0, smallAreaPerformance: '0' }, null)),
    ).toBeNull();
    expect(progressOf(null)).toBeNull();
  });
});

describe('team income lines', () => {
  test('only promotion and management lines, newest first, each with its member, generation, base and percent', () => {
    const views = teamIncomeOf([
      line({ id: '1', createdAt: '2026-01-06T16:05:00.000Z' }),
      line({ id: '2', type: 'static', source: null }),
      line({
        id: '3',
        type: 'management',
        amount: '0.029999',
        createdAt: '2026-01-07T16:05:00.000Z',
        source: { memberId: '9', nickname: 'E', generation: 1, base: '1.49997', rate: '0.02', level: 1 },
      }),
    ]);
    expect(views).toEqual([
      {
        id: '3',
        type: 'management',
        amount: '0.029999',
        earningsDate: '2026-01-06',
        source: { nickname: 'E', generation: 1, base: '1.49997', percent: '2' },
      },
      {
        id: '1',
        type: 'promotion',
        amount: '0.6',
        earningsDate: '2026-01-06',
        source: { nickname: 'al***', generation: 1, base: '6', percent: '10' },
      },
    ]);
    expect(totalOf(views)).toBe('0.629999');
  });
});

describe('the share poster', () => {
  test('the register link opens the register page with the invite code in its query', () => {
    expect(registerLinkOf('https://coffer.example/', '/pages/register/register', 'AB12 CD')).toBe(
      'https://coffer.example/#/pages/register/register?invite=AB12%20CD',
    );
    const link = new URL(registerLinkOf('https://coffer.example/', '/pages/register/register', '7KRYUL3G'));
    expect(new URLSearchParams(link.hash.split('?')[1]).get('invite')).toBe('7KRYUL3G');
  });
  test('the saved image is named after the invite code', () => {
    expect(posterFileName('7KRYUL3G')).toBe('coffer-invite-7KRYUL3G.png');
  });
});
