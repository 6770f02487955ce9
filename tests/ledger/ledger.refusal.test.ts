/**
 * What a refused transfer leaves in the caller's transaction: nothing. The command runner rolls
 * back on a 470, but a caller that catches it and commits must not keep half an event either:
 * an event (one transfer or several) writes nothing before each of its debits is known to fit
 * where it comes (the `ledger_event` function locks every row, checks, then writes; one transfer
 * whose credit's row sorts first, credited first, takes the credit back when its debit is refused).
 * (An earlier ledger credited first when the credit's row sorted first: money from nothing.)
 */
import { describe, expect, test } from 'vitest';
import { parseMoney } from '../../contract/money.js';
import { BusinessError } from '../../server/core/errors.js';
import type { OpenDatabase } from '../../server/db/database.js';
import { openTestDatabase } from '../helpers/database.js';
import { customerBook, platformBook } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { accountBalances, transfer, type TransferInput } from '../../server/ledger/ledger.js';

const now = new Date('2026-11-23T08:00:00Z');
const ref = { table: 'test', id: '1' };

/** What posting `transfers` as one event threw to a caller that catches it and goes on (undefined when nothing). */
async function caughtByCaller(database: OpenDatabase, transfers: TransferInput[]): Promise<unknown> {
  return database.db.transaction(async (tx) => {
    try {
      await transfer(tx, transfers, now);
      return undefined;
    } catch (error) {
      return error;
    }
  });
}

describe('a refused transfer inside a caller that goes on (PGlite)', () => {
  test('a 470 caught by the caller leaves no half transfer behind when the transaction commits', async () => {
    const database = await openTestDatabase('pglite');
    try {
      await database.db.transaction((tx) =>
        transfer(
          tx,
          [
            {
              key: 'fund-5',
              kind: 'data_adjustment',
              asset: 'USDT',
              from: platformBook('adjustments'),
              to: customerBook(5, 'cash'),
              amount: parseMoney('1'),
              ref,
            },
          ],
          now,
        ),
      );
      const caught = await caughtByCaller(database, [
        {
          key: 'short',
          kind: 'account_transfer',
          asset: 'USDT',
          from: customerBook(5, 'cash'),
          to: customerBook(3, 'cash'), // sorts before account 5: credited first
          amount: parseMoney('2'),
          ref,
        },
      ]);
      expect(caught).toBeInstanceOf(BusinessError);
      const balances = await accountBalances(database.db, [3, 5]);
      expect([balances.get(3)?.USDT.cash, balances.get(5)?.USDT.cash]).toEqual([0n, parseMoney('1')]);
      expect((await checkLedger(database.db, now)).violations).toEqual([]);
    } finally {
      await database.close();
    }
  });

  test('a 470 in the last transfer of an event caught by the caller leaves none of the event behind', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const caught = await caughtByCaller(database, [
        {
          key: 'event:fund',
          kind: 'data_adjustment',
          asset: 'USDT',
          from: platformBook('adjustments'),
          to: customerBook(7, 'cash'),
          amount: parseMoney('1'),
          ref,
        },
        {
          key: 'event:spend',
          kind: 'fee',
          asset: 'USDT',
          from: customerBook(7, 'cash'),
          to: platformBook('fee_revenue'),
          amount: parseMoney('2'),
          ref,
        },
      ]);
      expect(caught).toBeInstanceOf(BusinessError);
      expect((await accountBalances(database.db, [7])).get(7)?.USDT.cash).toBe(0n);
      expect((await checkLedger(database.db, now)).violations).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
