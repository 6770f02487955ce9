/**
 * The mining machine pages' view model: a buy's and a rent's preview is the server's
 * own exact rule (price × quantity, rent × days × quantity, floor(quantity × hashPower ×
 * dailyOutput) a day and days × that over the term), refuses what the server refuses, and says
 * when the cash or tickets known fall short; the summary over holdings is exact; mining records
 * name the machine that earned them; a settled command reads as done, refused, expired or
 * cancelled.
 */
import { describe, expect, test } from 'vitest';
import type { IncomeRecord } from '../../contract/api/income.js';
import type { MachineRecord, OwnedMachineRecord } from '../../contract/api/machine.js';
import {
  acquirePreview,
  acquisitionOf,
  commandOutcome,
  holdingsSummary,
  miningLines,
  nameIn,
  parseWhole,
  termPercent,
  ticketCounts,
  totalOf,
} from '../../src/features/machine/machine-view.js';
import { SEEDED_STARTER_MINER, TWO_STARTER_MINERS_BOUGHT } from '../helpers/seeded-catalogue.js';

const starter: MachineRecord = {
  id: '1',
  names: { en: 'Starter miner', 'zh-Hans': '入门矿机' },
  ...SEEDED_STARTER_MINER,
  updatedAt: '2026-01-05T02:00:00.000Z',
};
const pro: MachineRecord = {
  ...starter,
  id: '3',
  names: { en: 'Pro miner' },
  hashPower: '120.5',
  price: '1500',
  ticketPrice: 0,
  days: 180,
  dailyOutput: '0.0755',
  rentPrice: null,
};

function holding(overrides: Partial<OwnedMachineRecord> = {}): OwnedMachineRecord {
  return {
    id: '11',
    accountId: '7',
    machineId: '1',
    names: starter.names,
    ...TWO_STARTER_MINERS_BOUGHT,
    paidDays: 3,
    daysLeft: 27,
    price: '200',
    tickets: 0,
    status: 'active',
    startAt: '2026-01-05T02:00:00.000Z',
    earnFrom: '2026-01-05T16:00:00.000Z',
    endAt: '2026-02-04T16:00:00.000Z',
    earned: '21.6',
    createdAt: '2026-01-05T02:00:00.000Z',
    updatedAt: '2026-01-08T16:01:00.000Z',
    ...overrides,
  };
}

const have = { cash: '250', ticketsAvailable: 4 };

describe('the buy and rent preview', () => {
  test('a buy with USDT costs price × quantity and earns floor(quantity × hashPower × dailyOutput) a day over the whole term', () => {
    expect(
      acquirePreview(starter, 'buy', { quantityText: '2', daysText: '', payWith: 'usdt' }, have),
    ).toEqual({
      kind: 'ok',
      quantity: 2,
      days: 30,
      cost: '200',
      tickets: 0,
      daily: '7.2',
      total: '216',
      short: false,
    });
    // 120.5 T × 0.0755 = 9.09775 a day, exactly; 180 days = 1637.595.
    expect(
      acquirePreview(pro, 'buy', { quantityText: '1', daysText: '', payWith: 'usdt' }, have),
    ).toMatchObject({
      cost: '1500',
      daily: '9.09775',
      total: '1637.595',
      short: true,
    });
  });

  test('a buy with tickets takes ticketPrice × quantity of them, is short when fewer are known, and is refused for a machine not sold for tickets', () => {
    expect(
      acquirePreview(starter, 'buy', { quantityText: '5', daysText: '', payWith: 'ticket' }, have),
    ).toMatchObject({ kind: 'ok', cost: '0', tickets: 5, short: true });
    expect(
      acquirePreview(starter, 'buy', { quantityText: '4', daysText: '', payWith: 'ticket' }, have),
    ).toMatchObject({ tickets: 4, short: false });
    expect(acquirePreview(pro, 'buy', { quantityText: '1', daysText: '', payWith: 'ticket' }, have)).toEqual({
      kind: 'not_for_tickets',
    });
  });

  test('a rent costs rentPrice × days × quantity and earns for the days rented; days beyond the term and a machine not for rent are refused', () => {
    expect(
      acquirePreview(starter, 'rent', { quantityText: '2', daysText: '4', payWith: 'usdt' }, have),
    ).toEqual({
      kind: 'ok',
      quantity: 2,
      days: 4,
      cost: '28',
      tickets: 0,
      daily: '7.2',
      total: '28.8',
      short: false,
    });
    expect(
      acquirePreview(starter, 'rent', { quantityText: '1', daysText: '31', payWith: 'usdt' }, have),
    ).toEqual({
      kind: 'invalid',
      field: 'days',
      max: 30,
    });
    expect(acquirePreview(pro, 'rent', { quantityText: '1', daysText: '1', payWith: 'usdt' }, have)).toEqual({
      kind: 'not_for_rent',
    });
  });

  test('a quantity outside 1 to 100, or not a whole number, is refused as the server refuses it', () => {
    for (const quantityText of ['0', '101', '1.5', '-1', '', 'two', '1e2'])
      expect(
        acquirePreview(starter, 'buy', { quantityText, daysText: '', payWith: 'usdt' }, have),
        quantityText,
      ).toEqual({ kind: 'invalid', field: 'quantity', max: 100 });
    expect(parseWhole(' 7 ', 1, 100)).toBe(7);
  });

  test('unknown cash or tickets are never called short', () => {
    expect(
      acquirePreview(
        pro,
        'buy',
        { quantityText: '1', daysText: '', payWith: 'usdt' },
        { cash: null, ticketsAvailable: null },
      ),
    ).toMatchObject({ short: false });
  });
});

describe('holdings, records and tickets', () => {
  test('the summary adds the active hash power and output exactly, and what every holding earned', () => {
    const summary = holdingsSummary([
      holding(),
      holding({ id: '12', hashPower: '120.5', quantity: 1, dailyOutput: '0.0755', earned: '9.09775' }),
      holding({ id: '13', status: 'expired', earned: '216', hashPower: '0.1', quantity: 3 }),
    ]);
    expect(summary).toEqual({ active: 2, hashPower: '140.5', dailyOutput: '16.29775', earned: '246.69775' });
    expect(holdingsSummary([])).toEqual({ active: 0, hashPower: '0', dailyOutput: '0', earned: '0' });
  });

  test('the term’s progress and how a holding was acquired', () => {
    expect(termPercent(holding())).toBe(10);
    expect(termPercent(holding({ paidDays: 30 }))).toBe(100);
    expect(acquisitionOf(holding())).toBe('bought_usdt');
    expect(acquisitionOf(holding({ payWith: 'ticket' }))).toBe('bought_tickets');
    expect(acquisitionOf(holding({ acquisition: 'rent' }))).toBe('rented');
  });

  test('mining records keep only mining_machine lines, each named after its machine in the language shown (else Simplified Chinese)', () => {
    const line = (id: string, type: IncomeRecord['type'], holdingId: string) => ({
      id,
      accountId: '7',
      type,
      amount: '7.2',
      earningsDate: '2026-01-06',
      arrivalDate: '2026-01-07',
      status: 'arrived' as const,
      arrivedAt: '2026-01-06T16:01:00.000Z',
      ref: { table: type === 'mining_machine' ? 'owned_machines' : 'hosting_orders', id: holdingId },
      memo: null,
      createdAt: '2026-01-06T16:01:00.000Z',
      updatedAt: '2026-01-06T16:01:00.000Z',
    });
    const lines = miningLines(
      [line('3', 'mining_machine', '11'), line('2', 'static', '11'), line('1', 'mining_machine', '99')],
      [holding()],
      'ja',
    );
    expect(lines.map((item) => [item.id, item.name, item.holdingId])).toEqual([
      ['3', '入门矿机', '11'],
      ['1', null, '99'],
    ]);
    expect(totalOf(lines)).toBe('14.4');
    expect(nameIn(starter.names, 'en')).toBe('Starter miner');
  });

  test('tickets are counted by status', () => {
    expect(ticketCounts([{ status: 'available' }, { status: 'used' }, { status: 'available' }])).toEqual({
      available: 2,
      used: 1,
    });
  });

  test('a settled command reads as done, refused with the server’s words, expired or cancelled; pending as nothing yet', () => {
    expect(commandOutcome({ state: 'confirmed', answer: { code: 200, message: 'OK' } })).toEqual({
      kind: 'done',
    });
    expect(
      commandOutcome({ state: 'rejected', answer: { code: 470, message: 'Insufficient available balance' } }),
    ).toEqual({ kind: 'refused', code: 470, message: 'Insufficient available balance' });
    expect(commandOutcome({ state: 'expired', answer: null })).toEqual({ kind: 'expired' });
    expect(commandOutcome({ state: 'cancelled', answer: null })).toEqual({ kind: 'cancelled' });
    expect(commandOutcome({ state: 'sending', answer: null })).toBeNull();
  });
});
