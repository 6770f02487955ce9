/**
 * The ledger under real concurrency, on PostgreSQL (PGlite runs one transaction at a time, so
 * races need a server): transactions on a pool of their own connections wait at a gate until all
 * have begun, then run at once. Skipped, with a line saying so, when no server answers.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Asset } from '../../contract/api/account.js';
import { BodyCode } from '../../contract/codes.js';
import { minor, parseMoney, type Minor } from '../../contract/money.js';
import { BusinessError } from '../../server/core/errors.js';
import {
  openDatabase,
  type Database,
  type OpenDatabase,
  type Transaction,
} from '../../server/db/database.js';
import { customerBook, platformBook, type BookRef } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import {
  accountBalances,
  hold,
  postHold,
  transfer,
  voidHold,
  type TransferInput,
} from '../../server/ledger/ledger.js';
import { createPostgresDatabase, postgresOrSkipNote } from '../helpers/database.js';
import { platformTotals } from './model.js';

const now = new Date('2026-11-23T08:00:00Z');
const usdt = (text: string) => parseMoney(text);
const ref = { table: 'race', id: '1' };
/** Connections of the racing pool: more than any race runs at once, so the gate always opens. */
const POOL = 24;

const reachable = await postgresOrSkipNote('ledger races', 'the races need one');

let nextAccount = 1;
/** A Coffer account id no other test of this file uses. */
const freshAccount = () => nextAccount++;
let nextKey = 0;
const freshKey = (what: string) => `${what}:${(nextKey += 1)}`;

const move = (from: BookRef, to: BookRef, amount: Minor, key = freshKey('move')): TransferInput => ({
  key,
  kind: from.owner === 0 ? 'data_adjustment' : to.owner === 0 ? 'fee' : 'account_transfer',
  asset: 'USDT' as Asset,
  from,
  to,
  amount,
  ref,
});

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

describe.skipIf(!reachable)('ledger races on PostgreSQL', () => {
  let migrated: OpenDatabase;
  let dropDatabase: () => Promise<void>;
  let pool: pg.Pool;
  let db: Database;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    migrated = await openDatabase({ databaseUrl: created.url });
    pool = new pg.Pool({ connectionString: created.url, max: POOL });
    // An idle client's error (the server closing it) is not a test's result; without a listener
    // Node would raise it as an uncaught exception in whichever test runs then.
    pool.on('error', (error) => console.warn(`[ledger races] an idle connection failed: ${error.message}`));
    db = drizzle(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await migrated?.close();
    await dropDatabase?.();
  });

  /**
   * Runs `bodies` each in its own transaction; every transaction begins and holds its connection,
   * then waits until all have begun, so they really run at once. Never throws: says how each ended.
   */
  async function race<T>(bodies: Array<(tx: Transaction) => Promise<T>>): Promise<Array<Settled<T>>> {
    if (bodies.length > POOL)
      throw new Error(`a race of ${bodies.length} needs more than ${POOL} connections`);
    let arrived = 0;
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    return Promise.all(
      bodies.map((body) =>
        db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            arrived += 1;
            if (arrived === bodies.length) open();
            await gate;
            return body(tx);
          })
          .then(
            (value): Settled<T> => ({ ok: true, value }),
            (error: unknown): Settled<T> => ({ ok: false, error }),
          ),
      ),
    );
  }

  /** Runs `tasks` with at most `parallel` in flight, each in its own transaction; says how each ended. */
  async function flood<T>(
    tasks: Array<(tx: Transaction) => Promise<T>>,
    parallel: number,
  ): Promise<Array<Settled<T>>> {
    const results: Array<Settled<T>> = [];
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < tasks.length; index = next++) {
        const task = tasks[index];
        if (!task) continue;
        results[index] = await db.transaction(task).then(
          (value): Settled<T> => ({ ok: true, value }),
          (error: unknown): Settled<T> => ({ ok: false, error }),
        );
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return results;
  }

  /** `count` copies of `body` raced (see `race`); any error but a refusal (a BusinessError) fails the test. */
  async function raced<T>(count: number, body: (tx: Transaction) => Promise<T>): Promise<Array<Settled<T>>> {
    const results = await race(Array.from({ length: count }, () => body));
    expect(unexpected(results)).toEqual([]);
    return results;
  }

  /** A body moving `amount` USDT from `from` to `to`, with `key` or a fresh one each time it runs. */
  const pay = (from: BookRef, to: BookRef, amount: string, key?: string) => (tx: Transaction) =>
    transfer(tx, [move(from, to, usdt(amount), key)], now);
  /** A body holding `amount` USDT of the account for a withdrawal, with `key` or a fresh one each time it runs. */
  const withdrawalHold = (accountId: number, amount: string, key?: string) => (tx: Transaction) =>
    hold(
      tx,
      {
        key: key ?? freshKey('hold'),
        accountId,
        asset: 'USDT',
        kind: 'withdrawal',
        amount: usdt(amount),
        ref,
      },
      now,
    );
  /** A body posting `amount` USDT of the hold to the hot wallet, with `key` or a fresh one each time it runs. */
  const postToHotWallet = (holdId: number, amount: string, key?: string) => (tx: Transaction) =>
    postHold(
      tx,
      {
        holdId,
        key: key ?? freshKey('post'),
        to: platformBook('hot_wallet'),
        kind: 'withdrawal',
        amount: usdt(amount),
        ref,
      },
      now,
    );

  /** A body paying 1 USDT from `from`'s cash to `to`'s with a fee of 0.01 to fee revenue: one event of two transfers. */
  const payWithFee = (from: number, to: number) => (tx: Transaction) =>
    transfer(
      tx,
      [
        move(customerBook(from, 'cash'), customerBook(to, 'cash'), usdt('1')),
        move(customerBook(from, 'cash'), platformBook('fee_revenue'), usdt('0.01')),
      ],
      now,
    );

  const isCode = (code: number) => (result: Settled<unknown>) =>
    !result.ok && result.error instanceof BusinessError && result.error.code === code;
  /** Errors other than BusinessErrors (a deadlock, a serialisation failure, a bug), as text. */
  const unexpected = (results: Array<Settled<unknown>>) =>
    results
      .filter((result) => !result.ok && !(result.error instanceof BusinessError))
      .map((result) => {
        const error = result.ok ? undefined : result.error;
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        return cause instanceof Error ? cause.message : String(cause);
      });

  const fund = async (accountId: number, amount: string) =>
    db.transaction((tx) =>
      transfer(tx, [move(platformBook('adjustments'), customerBook(accountId, 'cash'), usdt(amount))], now),
    );
  /** A new account holding `amount` USDT in cash. */
  const fundedAccount = async (amount: string) => {
    const account = freshAccount();
    await fund(account, amount);
    return account;
  };
  /** A new payer holding `amount` USDT in cash and a new payee holding nothing. */
  const fundedPair = async (amount: string) => ({
    payer: await fundedAccount(amount),
    payee: freshAccount(),
  });
  /** What the platform's fee revenue holds in USDT, over all its slots. */
  const feeRevenue = async () => (await platformTotals(db)).get('fee_revenue|USDT') ?? 0n;
  /** Every task applied: no error at all, the unexpected ones shown by their message. */
  const expectAllApplied = (results: Array<Settled<unknown>>) => {
    expect(unexpected(results)).toEqual([]);
    expect(results.filter((result) => !result.ok)).toHaveLength(0);
  };
  const balancesOf = async (accountId: number) =>
    (await accountBalances(db, [accountId])).get(accountId)?.USDT;
  /** Runs `work` while checkLedger runs over and over beside it; every check must find nothing. */
  async function checkedWhile<T>(work: Promise<T>): Promise<{ value: T; checks: number }> {
    let done = false;
    let checks = 0;
    const violations: unknown[] = [];
    const checker = (async () => {
      while (!done) {
        const check = await checkLedger(db, now);
        checks += 1;
        violations.push(...check.violations);
      }
    })();
    try {
      return { value: await work, checks };
    } finally {
      done = true;
      await checker;
      expect(violations).toEqual([]);
    }
  }
  const expectInvariants = async () => expect((await checkLedger(db, now)).violations).toEqual([]);

  test('20 debits of 1 racing on a balance of 12: exactly 8 are refused with 470, the balance ends at exactly 0, no update lost', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { payer, payee } = await fundedPair('12');
      const results = await raced(20, pay(customerBook(payer, 'cash'), customerBook(payee, 'cash'), '1'));
      expect(results.filter((result) => result.ok)).toHaveLength(12);
      expect(results.filter(isCode(BodyCode.insufficientBalance))).toHaveLength(8);
      expect((await balancesOf(payer))?.cash).toBe(0n);
      expect((await balancesOf(payee))?.cash).toBe(usdt('12'));
    }
    await expectInvariants();
  }, 60_000);

  test('20 holds of 1 racing on a balance of 12: exactly 8 are refused with 470, held is 12 and cash 0', async () => {
    const account = await fundedAccount('12');
    const results = await raced(20, withdrawalHold(account, '1'));
    expect(results.filter(isCode(BodyCode.insufficientBalance))).toHaveLength(8);
    const balances = await balancesOf(account);
    expect([balances?.cash, balances?.held]).toEqual([0n, usdt('12')]);
    await expectInvariants();
  }, 60_000);

  test('two accounts paying each other 200 times each way at once: no deadlock, no refusal, the balances are the sums, and checkLedger run meanwhile always finds the books whole', async () => {
    const a = freshAccount();
    const b = freshAccount();
    await fund(a, '1000');
    await fund(b, '1000');
    const tasks = Array.from({ length: 400 }, (_, index) =>
      index % 2 === 0
        ? pay(customerBook(a, 'cash'), customerBook(b, 'cash'), '2')
        : pay(customerBook(b, 'cash'), customerBook(a, 'cash'), '3'),
    );
    const { value: results, checks } = await checkedWhile(flood(tasks, 16));
    expect(checks).toBeGreaterThan(0);
    expectAllApplied(results);
    expect((await balancesOf(a))?.cash).toBe(usdt('1200')); // 1000 - 200 x 2 + 200 x 3
    expect((await balancesOf(b))?.cash).toBe(usdt('800'));
    await expectInvariants();
  }, 60_000);

  test('events of a transfer and its fee in opposite directions and around a cycle of three: no deadlock, no refusal', async () => {
    const [a, b, c] = [freshAccount(), freshAccount(), freshAccount()];
    for (const account of [a, b, c]) await fund(account, '1000');
    const feeBefore = await feeRevenue();
    const pairs: Array<[number, number]> = [
      [a, b],
      [b, a],
      [b, c],
      [c, a],
      [a, c],
      [c, b],
    ];
    const tasks = Array.from({ length: 300 }, (_, index) => {
      const [from, to] = pairs[index % pairs.length] ?? [a, b];
      return payWithFee(from, to);
    });
    const results = await flood(tasks, 16);
    expectAllApplied(results);
    // Each account pays 100 events (100 x 1.01) and receives 100 x 1.
    for (const account of [a, b, c]) expect((await balancesOf(account))?.cash).toBe(usdt('999'));
    expect((await feeRevenue()) - feeBefore).toBe(usdt('3'));
    await expectInvariants();
  }, 60_000);

  test('single transfers (one path of ledger_event) and events of two (the other) over the same books in both directions at once: no deadlock, no refusal', async () => {
    const [a, b] = [freshAccount(), freshAccount()];
    for (const account of [a, b]) await fund(account, '1000');
    const feeBefore = await feeRevenue();
    const tasks = Array.from({ length: 400 }, (_, index) => {
      const [from, to] = index % 4 < 2 ? [a, b] : [b, a];
      if (index % 2 === 0) return pay(customerBook(from, 'cash'), customerBook(to, 'cash'), '1');
      return payWithFee(from, to);
    });
    const results = await flood(tasks, 16);
    expectAllApplied(results);
    // Each pays 100 single transfers and 100 events (1 + 0.01), and receives 200 x 1.
    for (const account of [a, b]) expect((await balancesOf(account))?.cash).toBe(usdt('999'));
    expect((await feeRevenue()) - feeBefore).toBe(usdt('2'));
    await expectInvariants();
  }, 60_000);

  test('16 clients all paying fee revenue at once: never a 470, and fee revenue grows by exactly the sum paid', async () => {
    const clients = Array.from({ length: 16 }, () => freshAccount());
    for (const client of clients) await fund(client, '100');
    const feeBefore = await feeRevenue();
    const perClient = 40;
    const results = (
      await Promise.all(
        clients.map((client) =>
          flood(
            Array.from({ length: perClient }, () =>
              pay(customerBook(client, 'cash'), platformBook('fee_revenue'), '0.25'),
            ),
            1,
          ),
        ),
      )
    ).flat();
    expectAllApplied(results);
    expect((await feeRevenue()) - feeBefore).toBe(usdt('0.25') * BigInt(perClient * clients.length));
    for (const client of clients) expect((await balancesOf(client))?.cash).toBe(usdt('90'));
    const slots = await db.execute(
      sql`select count(*)::int as n from ledger_balances where owner = 0 and book = 'fee_revenue' and asset = 'USDT'`,
    );
    // Spread over slots, so no single row serialises every payer.
    expect(z.object({ rows: z.array(z.object({ n: z.number() })) }).parse(slots).rows[0]?.n).toBeGreaterThan(
      1,
    );
    await expectInvariants();
  }, 60_000);

  test('a key raced by 10 transactions moves money once: one applies, nine find its transfer', async () => {
    const { payer, payee } = await fundedPair('100');
    const key = freshKey('raced');
    const results = await raced(10, pay(customerBook(payer, 'cash'), customerBook(payee, 'cash'), '5', key));
    const outcomes = results.flatMap((result) => (result.ok ? result.value : []));
    expect(outcomes).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);
    expect(new Set(outcomes.map((outcome) => outcome.transfer.id)).size).toBe(1);
    expect((await balancesOf(payer))?.cash).toBe(usdt('95'));
    expect((await balancesOf(payee))?.cash).toBe(usdt('5'));
    await expectInvariants();
  }, 60_000);

  test('an event of two keys raced by 10 transactions moves money once', async () => {
    const { payer, payee } = await fundedPair('100');
    const [first, second] = [freshKey('event-a'), freshKey('event-b')];
    const results = await raced(10, (tx) =>
      transfer(
        tx,
        [
          move(customerBook(payer, 'cash'), customerBook(payee, 'cash'), usdt('5'), first),
          move(customerBook(payer, 'cash'), platformBook('fee_revenue'), usdt('1'), second),
        ],
        now,
      ),
    );
    const applied = results
      .flatMap((result) => (result.ok ? result.value : []))
      .filter((outcome) => outcome.applied);
    expect(applied).toHaveLength(2);
    expect((await balancesOf(payer))?.cash).toBe(usdt('94'));
    await expectInvariants();
  }, 60_000);

  test('a hold key raced by 10 transactions holds once, and a post key raced by 10 posts once', async () => {
    const account = await fundedAccount('100');
    const key = freshKey('hold-raced');
    const holds = await raced(10, withdrawalHold(account, '30', key));
    const ids = new Set(holds.flatMap((result) => (result.ok ? [result.value.id] : [])));
    expect(ids.size).toBe(1);
    let balances = await balancesOf(account);
    expect([balances?.cash, balances?.held]).toEqual([usdt('70'), usdt('30')]);
    const [holdId] = [...ids];
    if (holdId === undefined) throw new Error('no hold');
    const postKey = freshKey('post-raced');
    const posts = await raced(10, postToHotWallet(holdId, '10', postKey));
    expect(posts.filter((result) => result.ok && result.value.applied)).toHaveLength(1);
    expect(posts.filter((result) => result.ok)).toHaveLength(10);
    balances = await balancesOf(account);
    expect([balances?.cash, balances?.held]).toEqual([usdt('70'), usdt('20')]);
    await expectInvariants();
  }, 60_000);

  test('voids racing partial posts of one hold: posted plus voided equals the hold, one void releases, nothing twice', async () => {
    const hot = async () => (await platformTotals(db)).get('hot_wallet|USDT') ?? 0n;
    const postedPerRound: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const account = await fundedAccount('100');
      const held = await db.transaction(withdrawalHold(account, '100'));
      const hotBefore = await hot();
      const posts = Array.from({ length: 10 }, () => postToHotWallet(held.id, '7'));
      const voids = Array.from(
        { length: 2 },
        () => (tx: Transaction) =>
          voidHold(tx, { holdId: held.id, key: freshKey('void'), kind: 'withdrawal_reversal', ref }, now),
      );
      // The voids sit at random places among the posts.
      const bodies: Array<(tx: Transaction) => Promise<unknown>> = [...posts];
      for (const body of voids) bodies.splice(Math.floor(Math.random() * (bodies.length + 1)), 0, body);
      const results = await race(bodies);
      expect(unexpected(results)).toEqual([]);
      const postResults = results.filter((_, index) => posts.includes(bodies[index] as never));
      const voidResults = results.filter((_, index) => voids.includes(bodies[index] as never));
      const posted = postResults.filter((result) => result.ok).length;
      postedPerRound.push(posted);
      expect(postResults.filter(isCode(BodyCode.conflict))).toHaveLength(10 - posted);
      const released = voidResults.flatMap((result) =>
        result.ok && result.value !== null && typeof result.value === 'object' && 'transfer' in result.value
          ? [(result.value as { transfer: { amount: bigint } }).transfer.amount]
          : [],
      );
      expect(released).toHaveLength(1); // the other void finds the hold ended and releases nothing
      const voided = released[0] ?? 0n;
      expect(usdt('7') * BigInt(posted) + voided).toBe(usdt('100'));
      expect((await hot()) - hotBefore).toBe(usdt('7') * BigInt(posted));
      const balances = await balancesOf(account);
      expect([balances?.cash, balances?.held]).toEqual([minor(voided), 0n]);
    }
    console.info(
      `[ledger races] posts of 7 that won against the void, per round: ${postedPerRound.join(' ')}`,
    );
    await expectInvariants();
  }, 60_000);
});
