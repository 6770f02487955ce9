/**
 * The PostgreSQL database's transactions (server/db/plain-transactions.ts: `BEGIN`, `COMMIT` and
 * `ROLLBACK` sent as plain client queries, the statements inside through Drizzle): what commits,
 * what a throw rolls back, savepoints inside, options handed to Drizzle's own, a failed statement
 * and a refused commit, and the connection back in the pool after each.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../server/db/database.js';
import { createPostgresDatabase, postgresOrSkipNote, rowsOf } from '../helpers/database.js';

const reachable = await postgresOrSkipNote('plain transactions', 'these transactions need one');

describe.skipIf(!reachable)('transactions on PostgreSQL', () => {
  let database: OpenDatabase;
  let drop: () => Promise<void>;
  const count = async () =>
    Number(
      (rowsOf(await database.db.execute(sql`select count(*) as n from tx_probe`))[0] as { n: string }).n,
    );

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    database = await openDatabase({ databaseUrl: created.url });
    await database.db.execute(sql`create table tx_probe (id int primary key)`);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  test('what the callback writes is committed, and its answer returned', async () => {
    const answer = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (1)`);
      const inside = rowsOf(await tx.execute(sql`select txid_current_if_assigned() as id`))[0] as {
        id: string | null;
      };
      return inside.id;
    });
    expect(answer).not.toBeNull(); // the insert ran inside one transaction
    expect(await count()).toBe(1);
  });

  test('a throw rolls back everything the callback wrote, and the error comes out', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (2)`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await count()).toBe(1);
  });

  test('a failing statement rolls the transaction back; the next transaction works', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (3)`);
        await tx.execute(sql`insert into tx_probe values (1)`); // duplicate key
      }),
    ).rejects.toThrow();
    expect(await count()).toBe(1);
    await database.db.transaction((tx) => tx.execute(sql`insert into tx_probe values (3)`));
    expect(await count()).toBe(2);
  });

  test('a savepoint inside rolls back alone', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (4)`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into tx_probe values (5)`);
          throw new Error('inner refused');
        }),
      ).rejects.toThrow('inner refused');
    });
    const ids = rowsOf(await database.db.execute(sql`select id from tx_probe order by id`)).map(
      (row) => (row as { id: number }).id,
    );
    expect(ids).toEqual([1, 3, 4]);
  });

  test('options go to a transaction of their own kind (read only refuses a write)', async () => {
    await expect(
      database.db.transaction((tx) => tx.execute(sql`insert into tx_probe values (6)`), {
        accessMode: 'read only',
      }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/read-only/) as unknown } });
    const level = await database.db.transaction(
      async (tx) => rowsOf(await tx.execute(sql`show transaction_isolation`))[0],
      { isolationLevel: 'serializable' },
    );
    expect(level).toEqual({ transaction_isolation: 'serializable' });
  });

  test('a commit refused by a deferred constraint rolls back and throws', async () => {
    await database.db.execute(
      sql`create table tx_parent (id int primary key); create table tx_child (parent int references tx_parent deferrable initially deferred)`,
    );
    await expect(
      database.db.transaction((tx) => tx.execute(sql`insert into tx_child values (99)`)),
    ).rejects.toThrow(/foreign key/);
    expect(rowsOf(await database.db.execute(sql`select count(*)::int as n from tx_child`))).toEqual([
      { n: 0 },
    ]);
  });

  test('many at once: every connection goes back to the pool', async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        database.db
          .transaction(async (tx) => {
            await tx.execute(sql`insert into tx_probe values (${100 + i})`);
            if (i % 3 === 0) throw new Error('refused');
          })
          .catch(() => undefined),
      ),
    );
    expect(await count()).toBe(3 + 40 - 14);
    expect(await database.ping()).toBe(true);
  });
});
