/**
 * The ledger's cost in round trips, counted by Drizzle's query logger (deterministic, unlike a
 * timing): an event of any number of transfers is ONE statement (the `ledger_event` function),
 * so a transfer with its fee costs the round trips of one transfer (issue 26: it used to cost 7
 * statements against 1). And what the single statement must still do where several did before:
 * an event's later transfer may spend what an earlier one brought, never what a later one will.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { parseMoney } from '../../contract/money.js';
import { BodyCode } from '../../contract/codes.js';
import { BusinessError } from '../../server/core/errors.js';
import { openDatabase, type Database } from '../../server/db/database.js';
import { projectPath } from '../../server/paths.js';
import { customerBook, platformBook } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import { accountBalances, transfer, type TransferInput } from '../../server/ledger/ledger.js';
import { availableTiers, createPostgresDatabase, type Tier } from '../helpers/database.js';

const now = new Date('2026-11-23T08:00:00Z');
const ref = { table: 'test', id: '1' };

const move = (key: string, from: number, to: number, amount: string): TransferInput => ({
  key,
  kind: from === 0 ? 'data_adjustment' : 'account_transfer',
  asset: 'USDT',
  from: from === 0 ? platformBook('adjustments') : customerBook(from, 'cash'),
  to: customerBook(to, 'cash'),
  amount: parseMoney(amount),
  ref,
});
const fee = (key: string, from: number, amount: string): TransferInput => ({
  key,
  kind: 'fee',
  asset: 'USDT',
  from: customerBook(from, 'cash'),
  to: platformBook('fee_revenue'),
  amount: parseMoney(amount),
  ref,
});

/** A migrated database of the tier whose every statement Drizzle sends is counted. */
async function countedDatabase(tier: Tier) {
  const counter = { statements: 0, last: '' };
  const logger = {
    logQuery: (query: string) => {
      counter.statements += 1;
      counter.last = query;
    },
  };
  if (tier === 'pglite') {
    const client = new PGlite();
    const db = drizzlePglite(client, { logger });
    await migrate(db, { migrationsFolder: projectPath('server', 'db', 'migrations') });
    return { db: db as unknown as Database, counter, close: () => client.close() };
  }
  const created = await createPostgresDatabase();
  const migrated = await openDatabase({ databaseUrl: created.url });
  await migrated.close();
  const pool = new pg.Pool({ connectionString: created.url, max: 2 });
  return {
    db: drizzlePostgres(pool, { logger }) as unknown as Database,
    counter,
    close: async () => {
      await pool.end();
      await created.drop();
    },
  };
}

for (const tier of await availableTiers('ledger round trips')) {
  describe(`ledger round trips on ${tier}`, () => {
    let database: Awaited<ReturnType<typeof countedDatabase>>;
    beforeAll(async () => {
      database = await countedDatabase(tier);
    });
    afterAll(async () => database.close());

    /** The statements `transfer` sends inside its caller's transaction, and what it answers. */
    async function counted(inputs: TransferInput[]) {
      return database.db.transaction(async (tx) => {
        database.counter.statements = 0;
        const outcomes = await transfer(tx, inputs, now);
        return { statements: database.counter.statements, sent: database.counter.last, outcomes };
      });
    }

    test('an event is one statement round trip: a transfer, a transfer with its fee, a first use of a book, a repeated key, a refusal', async () => {
      expect((await counted([move('rt:fund', 0, 1, '100')])).statements).toBe(1); // account 1's rows do not exist yet
      const one = await counted([move('rt:one', 1, 2, '10')]);
      expect(one.statements).toBe(1);
      expect(one.sent).toContain(' ledger_event(');
      const withFee = await counted([move('rt:pay', 1, 2, '10'), fee('rt:pay:fee', 1, '0.5')]);
      expect(withFee.statements).toBe(1);
      expect(withFee.sent).toContain(' ledger_event_pair('); // an event of two: migration 0032
      expect(withFee.outcomes.map((outcome) => outcome.applied)).toEqual([true, true]);
      const repeated = await counted([move('rt:pay', 1, 2, '10'), fee('rt:pay:fee', 1, '0.5')]);
      expect(repeated.statements).toBe(1);
      expect(repeated.outcomes.map((outcome) => outcome.applied)).toEqual([false, false]);
      expect(repeated.outcomes.map((outcome) => outcome.transfer.id)).toEqual(
        withFee.outcomes.map((outcome) => outcome.transfer.id),
      );
      await database.db.transaction(async (tx) => {
        database.counter.statements = 0;
        await expect(
          transfer(tx, [move('rt:short', 2, 1, '21'), fee('rt:short:fee', 2, '1')], now),
        ).rejects.toThrow(BusinessError);
        expect(database.counter.statements).toBe(1);
      });
      expect((await checkLedger(database.db, now)).violations).toEqual([]);
    });

    test('one statement applies an event in order: a later transfer spends what an earlier one brought, each with its balance after, ids in order', async () => {
      const [credit, spend, paid] = (
        await counted([move('order:in', 0, 7, '5'), move('order:out', 7, 8, '3'), fee('order:fee', 7, '2')])
      ).outcomes;
      expect(credit?.transfer.creditBalanceAfter).toBe(parseMoney('5'));
      expect(spend?.transfer.debitBalanceAfter).toBe(parseMoney('2'));
      expect(spend?.transfer.creditBalanceAfter).toBe(parseMoney('3'));
      expect(paid?.transfer.debitBalanceAfter).toBe(parseMoney('0'));
      expect(paid?.transfer.creditBalanceAfter).toBeNull(); // the platform's side
      expect((credit?.transfer.id ?? 0) < (spend?.transfer.id ?? 0)).toBe(true);
      expect((spend?.transfer.id ?? 0) < (paid?.transfer.id ?? 0)).toBe(true);
      expect((await accountBalances(database.db, [7])).get(7)?.USDT.cash).toBe(parseMoney('0'));
    });

    test('one statement refuses an event whose transfer spends what a later one would bring, and writes none of it', async () => {
      const refused = await database.db
        .transaction((tx) => transfer(tx, [move('later:out', 9, 10, '3'), move('later:in', 0, 9, '5')], now))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(BusinessError);
      expect((refused as BusinessError).code).toBe(BodyCode.insufficientBalance);
      const balances = await accountBalances(database.db, [9, 10]);
      expect(balances.get(9)?.USDT.cash).toBe(parseMoney('0'));
      expect(balances.get(10)?.USDT.cash).toBe(parseMoney('0'));
      expect((await checkLedger(database.db, now)).violations).toEqual([]);
    });
  });
}
