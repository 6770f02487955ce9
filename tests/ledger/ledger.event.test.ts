/**
 * An event of several transfers (migration 0031's `ledger_event_many`): each balance row moved
 * once by the event's net on it, in the global order, with each customer debit checked where it
 * comes in the event; the balances after each transfer replayed in the event's order; one sync
 * change of an account's balances per event; a refusal or a repeat handed to 0027's function
 * (`ledger_event_general`), which answers as before. On PGlite, and on PostgreSQL when reachable.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMoney } from '../../contract/money.js';
import { BusinessError } from '../../server/core/errors.js';
import type { OpenDatabase } from '../../server/db/database.js';
import { customerBook, platformBook, type BookRef } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { accountBalances, transfer, type TransferInput } from '../../server/ledger/ledger.js';
import { availableTiers, openTestDatabase, rowsOf } from '../helpers/database.js';

const now = new Date('2026-11-28T08:00:00Z');
const ref = { table: 'test', id: '1' };
const usdt = (text: string) => parseMoney(text);

const move = (key: string, from: BookRef, to: BookRef, amount: string): TransferInput => ({
  key,
  kind: 'account_transfer',
  asset: 'USDT',
  from,
  to,
  amount: usdt(amount),
  ref,
});
const cash = (account: number) => customerBook(account, 'cash');
const fund = (key: string, account: number, amount: string) =>
  move(key, platformBook('adjustments'), cash(account), amount);

const tiers = await availableTiers('ledger event');

describe.each(tiers)('an event of several transfers on %s', (tier) => {
  let database: OpenDatabase;
  const post = (transfers: TransferInput[]) => database.db.transaction((tx) => transfer(tx, transfers, now));
  const cashOf = async (...accounts: number[]) => {
    const balances = await accountBalances(database.db, accounts);
    return accounts.map((account) => balances.get(account)?.USDT.cash);
  };
  const lastSeq = async () =>
    Number(
      rowsOf(await database.db.execute(sql`select coalesce(max(seq), 0) as seq from sync_changes`))[0]?.[
        'seq'
      ],
    );
  const changesAfter = async (seq: number) =>
    rowsOf(
      await database.db.execute(
        sql`select collection, scope_id::int as scope, record_id from sync_changes where seq > ${seq} order by seq`,
      ),
    );

  beforeAll(async () => {
    database = await openTestDatabase(tier);
  });
  afterAll(async () => {
    expect((await checkLedger(database.db, now)).violations).toEqual([]);
    await database.close();
  });

  test("moves each row once by its net and answers each transfer's balances after, in the event's order", async () => {
    await post([fund('fund-11', 11, '10')]);
    const before = await lastSeq();
    const outcomes = await post([
      move('e1:pay', cash(11), cash(12), '4'),
      move('e1:fee', cash(11), platformBook('fee_revenue'), '1'),
      move('e1:back', cash(12), cash(11), '2'),
    ]);
    expect(
      outcomes.map(({ applied, transfer: t }) => [applied, t.debitBalanceAfter, t.creditBalanceAfter]),
    ).toEqual([
      [true, usdt('6'), usdt('4')],
      [true, usdt('5'), null],
      [true, usdt('2'), usdt('7')],
    ]);
    const ids = outcomes.map(({ transfer: t }) => t.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(await cashOf(11, 12)).toEqual([usdt('7'), usdt('2')]);
    // Each customer side as a wallet record; each account's balances once for the whole event.
    const [pay, fee, back] = ids;
    expect(await changesAfter(before)).toEqual([
      { collection: 'records', scope: 11, record_id: `${pay}-d` },
      { collection: 'records', scope: 12, record_id: `${pay}-c` },
      { collection: 'balances', scope: 11, record_id: '11' },
      { collection: 'balances', scope: 12, record_id: '12' },
      { collection: 'records', scope: 11, record_id: `${fee}-d` },
      { collection: 'records', scope: 12, record_id: `${back}-d` },
      { collection: 'records', scope: 11, record_id: `${back}-c` },
    ]);
  });

  test('a customer paid first in an event may pay it on; paying first what only comes later is refused', async () => {
    await post([fund('fund-21', 21, '5')]);
    await post([move('e2:in', cash(21), cash(22), '5'), move('e2:on', cash(22), cash(23), '5')]);
    expect(await cashOf(21, 22, 23)).toEqual([0n, 0n, usdt('5')]);
    await expect(
      post([move('e3:out', cash(23), cash(24), '6'), move('e3:in', cash(21), cash(23), '0.5')]),
    ).rejects.toBeInstanceOf(BusinessError);
    await post([fund('fund-21b', 21, '1')]);
    await expect(
      post([move('e4:out', cash(23), cash(24), '6'), move('e4:in', cash(21), cash(23), '1')]),
    ).rejects.toBeInstanceOf(BusinessError);
    expect(await cashOf(21, 23, 24)).toEqual([usdt('1'), usdt('5'), 0n]);
  });

  test('two debits that each fit but not together refuse the event, and nothing of it stays', async () => {
    await post([fund('fund-31', 31, '10')]);
    const before = await lastSeq();
    await expect(
      post([
        move('e5:pay', cash(31), cash(32), '6'),
        move('e5:fee', cash(31), platformBook('fee_revenue'), '6'),
      ]),
    ).rejects.toBeInstanceOf(BusinessError);
    expect(await cashOf(31, 32)).toEqual([usdt('10'), 0n]);
    expect(await changesAfter(before)).toEqual([]);
    const stored = rowsOf(
      await database.db.execute(sql`select key from ledger_transfers where key like 'e5:%'`),
    );
    expect(stored).toEqual([]);
  });

  test('a repeated event moves nothing again, and one that repeats part of an event moves only the rest', async () => {
    await post([fund('fund-41', 41, '10')]);
    const event = [
      move('e6:pay', cash(41), cash(42), '3'),
      move('e6:fee', cash(41), platformBook('fee_revenue'), '1'),
    ];
    const first = await post(event);
    const again = await post(event);
    expect(again.map(({ applied }) => applied)).toEqual([false, false]);
    expect(again.map(({ transfer: t }) => t.id)).toEqual(first.map(({ transfer: t }) => t.id));
    const partly = await post([event[0] as TransferInput, move('e6:more', cash(41), cash(42), '2')]);
    expect(partly.map(({ applied }) => applied)).toEqual([false, true]);
    expect(await cashOf(41, 42)).toEqual([usdt('4'), usdt('5')]);
  });
});
