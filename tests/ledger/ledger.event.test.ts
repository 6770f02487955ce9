/**
 * An event of several transfers (migration 0031's `ledger_event_many`): each balance row moved
 * once by the event's net on it, in the global order, with each customer debit checked where it
 * comes in the event; the balances after each transfer replayed in the event's order; one sync
 * change of an account's balances per event; a refusal or a repeat handed to 0027's function
 * (`ledger_event_general`), which answers as before. On PGlite, and on PostgreSQL when reachable.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseMoney } from '../../contract/money.js';
import { BusinessError } from '../../server/core/errors.js';
import type { OpenDatabase } from '../../server/db/database.js';
import { customerBook, platformBook, type BookRef } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { accountBalances, transfer, type TransferInput } from '../../server/ledger/ledger.js';
import { availableTiers, openTestDatabase, rowsOf, type Tier } from '../helpers/database.js';

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

/**
 * A describe block's database on `tier`, opened before its tests and its ledger checked after
 * them, with what the tests post and read.
 */
function ledgerOn(tier: Tier) {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(tier);
  });
  afterAll(async () => {
    expect((await checkLedger(database.db, now)).violations).toEqual([]);
    await database.close();
  });
  const execute = (query: SQL) => database.db.execute(query);
  return {
    execute,
    post: (transfers: TransferInput[]) => database.db.transaction((tx) => transfer(tx, transfers, now)),
    cashOf: async (...accounts: number[]) => {
      const balances = await accountBalances(database.db, accounts);
      return accounts.map((account) => balances.get(account)?.USDT.cash);
    },
    booksOf: async (account: number) => (await accountBalances(database.db, [account])).get(account)?.USDT,
    lastSeq: async () =>
      Number(rowsOf(await execute(sql`select coalesce(max(seq), 0) as seq from sync_changes`))[0]?.['seq']),
    changesAfter: async (seq: number) =>
      rowsOf(
        await execute(
          sql`select collection, scope_id::int as scope, record_id from sync_changes where seq > ${seq} order by seq`,
        ),
      ),
  };
}

describe.each(tiers)('an event of several transfers on %s', (tier) => {
  const { execute, post, cashOf, lastSeq, changesAfter } = ledgerOn(tier);

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
    const stored = rowsOf(await execute(sql`select key from ledger_transfers where key like 'e5:%'`));
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

/**
 * An event of two transfers from one book (migration 0032's `ledger_event_pair`, where the
 * application sends every event of two): the debit row moved once by both amounts where it
 * covers their sum, the three rows in the global order whatever their owners and books, a
 * refusal that takes back the credits made before it, and any other shape of two handed to
 * `ledger_event_many`.
 */
describe.each(tiers)('an event of two transfers from one book on %s', (tier) => {
  const { execute, post, booksOf, lastSeq, changesAfter } = ledgerOn(tier);
  const feeRevenue = async () =>
    BigInt(
      String(
        rowsOf(
          await execute(
            sql`select coalesce(sum(balance), 0)::text as total from ledger_balances where owner = 0 and book = 'fee_revenue' and asset = 'USDT'`,
          ),
        )[0]?.['total'],
      ),
    );
  const answered = (outcomes: Awaited<ReturnType<typeof post>>) =>
    outcomes.map(({ applied, transfer: t }) => [applied, t.debitBalanceAfter, t.creditBalanceAfter]);

  test("a payment and its fee: the debit row once by both, each transfer's balances after, one balances change per account", async () => {
    await post([fund('p1:fund', 111, '10')]);
    const feeBefore = await feeRevenue();
    const before = await lastSeq();
    const outcomes = await post([
      move('p1:pay', cash(111), cash(112), '4'),
      move('p1:fee', cash(111), platformBook('fee_revenue'), '0.5'),
    ]);
    expect(answered(outcomes)).toEqual([
      [true, usdt('6'), usdt('4')],
      [true, usdt('5.5'), null],
    ]);
    const [pay, fee] = outcomes.map(({ transfer: t }) => t.id);
    expect(fee).toBeGreaterThan(pay ?? Infinity);
    expect((await booksOf(111))?.cash).toBe(usdt('5.5'));
    expect((await booksOf(112))?.cash).toBe(usdt('4'));
    expect((await feeRevenue()) - feeBefore).toBe(usdt('0.5'));
    expect(await changesAfter(before)).toEqual([
      { collection: 'records', scope: 111, record_id: `${pay}-d` },
      { collection: 'records', scope: 112, record_id: `${pay}-c` },
      { collection: 'balances', scope: 111, record_id: '111' },
      { collection: 'balances', scope: 112, record_id: '112' },
      { collection: 'records', scope: 111, record_id: `${fee}-d` },
    ]);
  });

  test('the rows in every order: a platform debit on its first use, credits to a lower owner and to a book not used before', async () => {
    // A platform book's two debits share a row only when both draw its slot, so this one is sent
    // to the function as the application would send it then: the debit (owner 0, not used
    // before) first in the global order, then the second credit (121), then the first (122).
    const fromPlatform = (key: string, to: number, amount: string) => ({
      key,
      kind: 'data_adjustment',
      asset: 'USDT',
      debit_owner: 0,
      debit_book: 'incentive_expense',
      debit_slot: 3,
      credit_owner: to,
      credit_book: 'cash',
      credit_slot: 0,
      amount: usdt(amount).toString(),
      ref_table: 'test',
      ref_id: '1',
    });
    const paid = rowsOf(
      await execute(
        sql`select n, status, debit_balance_after::text as debit, credit_balance_after::text as credit from ledger_event_pair(${JSON.stringify([fromPlatform('p2:a', 122, '3'), fromPlatform('p2:b', 121, '2')])}::jsonb, ${now.toISOString()}::timestamptz)`,
      ),
    );
    expect(paid).toEqual([
      { n: 1, status: 'applied', debit: null, credit: usdt('3').toString() },
      { n: 2, status: 'applied', debit: null, credit: usdt('2').toString() },
    ]);
    expect((await booksOf(121))?.cash).toBe(usdt('2'));
    expect((await booksOf(122))?.cash).toBe(usdt('3'));
    // Fee revenue (owner 0) first, then the debit (123's cash), then the first credit (123's
    // hosting book, not used before: "cash" < "hosting").
    await post([fund('p2:fund', 123, '10')]);
    const moved = await post([
      move('p2:c', cash(123), customerBook(123, 'hosting'), '7'),
      move('p2:d', cash(123), platformBook('fee_revenue'), '1'),
    ]);
    expect(answered(moved)).toEqual([
      [true, usdt('3'), usdt('7')],
      [true, usdt('2'), null],
    ]);
    expect(await booksOf(123)).toMatchObject({ cash: usdt('2'), hosting: usdt('7') });
  });

  test('a debit that covers the payment but not its fee refuses the event: the credits made before it are taken back', async () => {
    // In the global order both credits (fee revenue, owner 0; then 131) come before the debit (132).
    await post([fund('p3:fund', 132, '10')]);
    const feeBefore = await feeRevenue();
    const before = await lastSeq();
    await expect(
      post([
        move('p3:pay', cash(132), cash(131), '6'),
        move('p3:fee', cash(132), platformBook('fee_revenue'), '4.01'),
      ]),
    ).rejects.toBeInstanceOf(BusinessError);
    expect((await booksOf(132))?.cash).toBe(usdt('10'));
    expect((await booksOf(131))?.cash ?? 0n).toBe(0n);
    expect(await feeRevenue()).toBe(feeBefore);
    expect(await changesAfter(before)).toEqual([]);
    // Exactly enough goes through.
    const paid = await post([
      move('p3:pay', cash(132), cash(131), '6'),
      move('p3:fee', cash(132), platformBook('fee_revenue'), '4'),
    ]);
    expect(answered(paid)).toEqual([
      [true, usdt('4'), usdt('6')],
      [true, 0n, null],
    ]);
  });

  test('two of another shape (both to one book) are ledger_event_many’s, with the same answers', async () => {
    await post([fund('p4:fund', 141, '10')]);
    const outcomes = await post([
      move('p4:a', cash(141), cash(142), '3'),
      move('p4:b', cash(141), cash(142), '1'),
    ]);
    expect(answered(outcomes)).toEqual([
      [true, usdt('7'), usdt('3')],
      [true, usdt('6'), usdt('4')],
    ]);
    const again = await post([
      move('p4:a', cash(141), cash(142), '3'),
      move('p4:b', cash(141), cash(142), '1'),
    ]);
    expect(again.map(({ applied }) => applied)).toEqual([false, false]);
    expect((await booksOf(142))?.cash).toBe(usdt('4'));
  });
});
