/**
 * The ledger's rules (ARCHITECTURE.md "A double-entry ledger owns every balance"), on PGlite and
 * on PostgreSQL: transfers, idempotent keys, the never-negative rule, holds, the invariants, and
 * the database's own refusals when code is bypassed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { parseMoney } from '../../contract/money.js';
import { BodyCode } from '../../contract/codes.js';
import { BusinessError } from '../../server/core/errors.js';
import type { OpenDatabase } from '../../server/db/database.js';
import { customerBook, platformBook } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import {
  accountBalances,
  hold,
  postHold,
  transfer,
  voidHold,
  type TransferInput,
} from '../../server/ledger/ledger.js';
import { availableTiers, openTestDatabase } from '../helpers/database.js';

const now = new Date('2026-11-23T08:00:00Z');
const usdt = (text: string) => parseMoney(text);
const ref = { table: 'test', id: '1' };

const deposit = (accountId: number, amount: string, key: string): TransferInput => ({
  key,
  kind: 'data_adjustment',
  asset: 'USDT',
  from: platformBook('adjustments'),
  to: customerBook(accountId, 'cash'),
  amount: usdt(amount),
  ref,
});

/** The database's own message behind Drizzle's "Failed query" wrapper. */
async function refusal(statement: Promise<unknown>): Promise<string> {
  const error: unknown = await statement.then(
    () => new Error('the database accepted it'),
    (thrown: unknown) => thrown,
  );
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

async function cashOf(database: OpenDatabase, accountId: number) {
  return (await accountBalances(database.db, [accountId])).get(accountId)?.USDT;
}

for (const tier of await availableTiers('ledger')) {
  describe(`ledger on ${tier}`, () => {
    let database: OpenDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(tier);
    });
    afterAll(async () => database.close());

    test('a transfer moves money between two books and the invariants hold', async () => {
      await database.db.transaction((tx) => transfer(tx, [deposit(101, '100', 't1')], now));
      expect((await cashOf(database, 101))?.cash).toBe(usdt('100'));
      expect((await checkLedger(database.db, now)).ok).toBe(true);
    });

    test('a repeated key moves nothing the second time', async () => {
      const [first] = await database.db.transaction((tx) => transfer(tx, [deposit(102, '5', 't2')], now));
      const [again] = await database.db.transaction((tx) => transfer(tx, [deposit(102, '5', 't2')], now));
      expect(first?.applied).toBe(true);
      expect(again?.applied).toBe(false);
      expect(again?.transfer.id).toBe(first?.transfer.id);
      expect((await cashOf(database, 102))?.cash).toBe(usdt('5'));
    });

    test('a debit above the available balance is refused with 470 and moves nothing', async () => {
      await database.db.transaction((tx) => transfer(tx, [deposit(103, '10', 't3')], now));
      const spend = {
        key: 't3-spend',
        kind: 'account_transfer' as const,
        asset: 'USDT' as const,
        from: customerBook(103, 'cash'),
        to: customerBook(104, 'cash'),
        amount: usdt('10.01'),
        ref,
      };
      const refused = await database.db
        .transaction((tx) => transfer(tx, [spend], now))
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BusinessError);
      expect((refused as BusinessError).code).toBe(BodyCode.insufficientBalance);
      expect((await cashOf(database, 103))?.cash).toBe(usdt('10'));
      expect((await checkLedger(database.db, now)).ok).toBe(true);
    });

    test('a hold moves cash to held; a partial post and a void release the rest exactly once', async () => {
      await database.db.transaction((tx) => transfer(tx, [deposit(105, '50', 't5')], now));
      const held = await database.db.transaction((tx) =>
        hold(
          tx,
          { key: 'h5', accountId: 105, asset: 'USDT', kind: 'withdrawal', amount: usdt('30'), ref },
          now,
        ),
      );
      let balances = await cashOf(database, 105);
      expect([balances?.cash, balances?.held]).toEqual([usdt('20'), usdt('30')]);
      await database.db.transaction((tx) =>
        postHold(
          tx,
          {
            holdId: held.id,
            key: 'h5:post1',
            to: platformBook('hot_wallet'),
            kind: 'withdrawal',
            amount: usdt('10'),
            ref,
          },
          now,
        ),
      );
      const released = await database.db.transaction((tx) =>
        voidHold(tx, { holdId: held.id, key: 'h5:void', kind: 'withdrawal_reversal', ref }, now),
      );
      expect(released?.transfer.amount).toBe(usdt('20'));
      const again = await database.db.transaction((tx) =>
        voidHold(tx, { holdId: held.id, key: 'h5:void2', kind: 'withdrawal_reversal', ref }, now),
      );
      expect(again).toBeNull();
      balances = await cashOf(database, 105);
      expect([balances?.cash, balances?.held]).toEqual([usdt('40'), usdt('0')]);
      expect((await checkLedger(database.db, now)).ok).toBe(true);
    });

    test('the database refuses UPDATE, DELETE and TRUNCATE on transfers', async () => {
      for (const statement of [
        sql`update ledger_transfers set amount = amount + 1`,
        sql`delete from ledger_transfers`,
        sql`truncate ledger_transfers`,
      ]) {
        expect(await refusal(database.db.execute(statement))).toMatch(/ledger_transfers is append-only/);
      }
    });

    test('the database refuses a negative customer balance even from raw SQL', async () => {
      const statement = sql`update ledger_balances set balance = -1 where owner = 101 and book = 'cash'`;
      expect(await refusal(database.db.execute(statement))).toMatch(
        /ledger_balances_customer_never_negative/,
      );
    });
  });
}
