/**
 * `npm run bench:ledger`: ledger transfers per second on PostgreSQL beside pgbench's built-in
 * TPC-B-like script on the same server, and on in-memory PGlite. Each transfer (or event) is its
 * own transaction, from BENCH_CLIENTS concurrent clients over one pool:
 * - customer -> customer: between random accounts of a pre-funded pool;
 * - customer -> customer + fee: an event of two transfers, the second paying fee revenue (the hot
 *   platform book, spread over slots);
 * - customer -> fee revenue: every client paying the one hot book;
 * - the ledger's own statements for one transfer, and for one with its fee, replayed by pgbench
 *   from C (no Node in the way): BEGIN, the one `ledger_event` statement, COMMIT, each a prepared
 *   statement as Node's call is (`-M prepared`);
 * - pgbench: `pgbench -i -s 8` into a scratch database, then `pgbench -c 8 -j 2 -T <seconds>`
 *   (its `-i` ends with VACUUM ANALYZE; the funded ledger database gets the same before its runs);
 * - PGlite in memory: customer -> customer on its one connection.
 * It prints first the round trips each event costs (counted by Drizzle's logger), and last the
 * ratio to pgbench's TPC-B-like and what a transfer with its fee costs against one transfer.
 * The three workloads those two ratios compare (customer -> customer, the same + fee, TPC-B-like)
 * run in alternating rounds, and each ratio printed is the median of its rounds' ratios with
 * their range: on a shared machine one workload's single run can meet a checkpoint or a noisy
 * neighbour that the next one does not (TPC-B-like alone gave 1,600 to 4,600 per second from one
 * run to another on machines of this kind).
 * Scratch databases are made on the server at TEST_DATABASE_URL (default the local one) and
 * dropped after. It measures and never judges: exit code 1 only when a stage could not measure.
 *
 * Environment:
 * - BENCH_SECONDS          seconds per workload (default 15; the compared three split them
 *                          over the rounds)
 * - BENCH_ROUNDS           alternating rounds of the three compared workloads (default 3)
 * - BENCH_CLIENTS          concurrent clients (default 8)
 * - BENCH_ACCOUNTS         accounts in the funded pool (default 1000)
 * - BENCH_TIMEOUT_SECONDS  the bound on the whole run (default 300)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { parseMoney } from '../contract/money.js';
import { BusinessError } from '../server/core/errors.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { customerBook, PLATFORM_SLOTS, platformBook } from '../server/ledger/books.js';
import { checkLedger } from '../server/ledger/invariants.js';
import { transfer, type TransferInput } from '../server/ledger/ledger.js';
import { eventFunction } from '../server/ledger/ledger.repository.js';
import { createPostgresDatabase } from '../tests/helpers/database.js';
import { benchRun, median, positiveNumber, table } from './report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = positiveNumber('BENCH_SECONDS', 15);
const CLIENTS = Math.floor(positiveNumber('BENCH_CLIENTS', 8));
const ACCOUNTS = Math.floor(positiveNumber('BENCH_ACCOUNTS', 1000));
const ROUNDS = Math.floor(positiveNumber('BENCH_ROUNDS', 3));
const BOUND_MS = positiveNumber('BENCH_TIMEOUT_SECONDS', 300) * 1000;

const { stage, closers, closeAll, command, doneLine, run } = benchRun(BOUND_MS);

const ref = { table: 'bench', id: '0' };
const AMOUNT = parseMoney('0.01');
const FEE = parseMoney('0.001');
let sequence = 0;
const key = (what: string) => `bench:${what}:${process.pid}:${(sequence += 1)}`;
const randomAccount = () => 1 + Math.floor(Math.random() * ACCOUNTS);

/** An event: the transfers one transaction writes. */
type Workload = () => TransferInput[];

const customerToCustomer: Workload = () => {
  const from = randomAccount();
  let to = randomAccount();
  if (to === from) to = (from % ACCOUNTS) + 1;
  return [
    {
      key: key('c2c'),
      kind: 'account_transfer',
      asset: 'USDT',
      from: customerBook(from, 'cash'),
      to: customerBook(to, 'cash'),
      amount: AMOUNT,
      ref,
    },
  ];
};
const withFee: Workload = () => {
  const [first] = customerToCustomer();
  if (!first) throw new Error('no transfer');
  return [
    first,
    {
      key: key('fee'),
      kind: 'fee',
      asset: 'USDT',
      from: first.from,
      to: platformBook('fee_revenue'),
      amount: FEE,
      ref,
    },
  ];
};
const toFeeRevenue: Workload = () => [
  {
    key: key('fee-only'),
    kind: 'fee',
    asset: 'USDT',
    from: customerBook(randomAccount(), 'cash'),
    to: platformBook('fee_revenue'),
    amount: FEE,
    ref,
  },
];

/** Gives every account of the pool 1,000,000 USDT, 100 transfers per transaction. */
async function fund(db: Database): Promise<void> {
  for (let first = 1; first <= ACCOUNTS; first += 100) {
    const inputs: TransferInput[] = [];
    for (let account = first; account < Math.min(first + 100, ACCOUNTS + 1); account += 1) {
      inputs.push({
        key: `bench:fund:${account}`,
        kind: 'data_adjustment',
        asset: 'USDT',
        from: platformBook('adjustments'),
        to: customerBook(account, 'cash'),
        amount: parseMoney('1000000'),
        ref,
      });
    }
    await db.transaction((tx) => transfer(tx, inputs, new Date()));
  }
}

interface Measured {
  events: number;
  transfers: number;
  refused: number;
  errors: number;
  perSecond: number;
  meanMs: number;
  /** This process's CPU time over the wall time: near 100% means the Node client is the limit. */
  clientCpu: number;
}

/** Runs `workload` from `clients` concurrent clients for `seconds` (after a 1 s warm-up). */
async function drive(db: Database, workload: Workload, clients: number, seconds: number): Promise<Measured> {
  const once = async (ms: number) => {
    const totals = { events: 0, transfers: 0, refused: 0, errors: 0, busyMs: 0 };
    const deadline = performance.now() + ms;
    const client = async () => {
      while (performance.now() < deadline) {
        const inputs = workload();
        const began = performance.now();
        try {
          await db.transaction((tx) => transfer(tx, inputs, new Date()));
          totals.events += 1;
          totals.transfers += inputs.length;
        } catch (error) {
          if (error instanceof BusinessError) totals.refused += 1;
          else totals.errors += 1;
        }
        totals.busyMs += performance.now() - began;
      }
    };
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(Array.from({ length: clients }, client));
    const used = process.cpuUsage(cpu);
    const elapsed = (performance.now() - started) / 1000;
    return { ...totals, elapsed, clientCpu: (used.user + used.system) / 1e6 / elapsed };
  };
  await once(1000);
  const result = await once(seconds * 1000);
  return {
    events: result.events,
    transfers: result.transfers,
    refused: result.refused,
    errors: result.errors,
    perSecond: result.events / result.elapsed,
    meanMs: result.busyMs / Math.max(1, result.events + result.refused + result.errors),
    clientCpu: result.clientCpu,
  };
}

/**
 * Counts the SQL statements (each a round trip; begin and commit included) that one customer ->
 * customer transfer and one transfer with its fee send, in the steady state (rows exist).
 */
async function statementsPerEvent(): Promise<{ single: number; withFee: number }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite();
  let count = 0;
  const db = drizzle(client, { logger: { logQuery: () => void (count += 1) } });
  await migrate(db, { migrationsFolder: `${ROOT}server/db/migrations` });
  await fund(db);
  await db.transaction((tx) => transfer(tx, withFee(), new Date())); // rows exist, as in the steady state
  const counted = async (workload: Workload) => {
    count = 0;
    await db.transaction((tx) => transfer(tx, workload(), new Date()));
    return count + 2; // drizzle's logger does not see BEGIN and COMMIT
  };
  const single = await counted(customerToCustomer);
  const fee = await counted(withFee);
  await client.close();
  return { single, withFee: fee };
}

/**
 * One transfer of the ledger's event JSON (what `applyEvent` sends), built by pgbench's SQL. Its
 * variables are cast (prepared statements leave no type to guess), and no string holds a colon
 * before a word: pgbench reads `:word` as a variable even inside quotes.
 */
const pgbenchTransfer = (key: string, kind: string, from: string, to: string, amount: number) =>
  `jsonb_build_object('key', ${key}, 'kind', '${kind}', 'asset', 'USDT', ${from}, ${to}, 'amount', ${amount}, 'ref_table', 'pgbench', 'ref_id', :k::text)`;
const PGBENCH_C2C = pgbenchTransfer(
  `'pgbench:' || :k::text`,
  'account_transfer',
  `'debit_owner', CASE WHEN :dir::int = 0 THEN :a::int ELSE :a::int + 1 END, 'debit_book', 'cash', 'debit_slot', 0`,
  `'credit_owner', CASE WHEN :dir::int = 0 THEN :a::int + 1 ELSE :a::int END, 'credit_book', 'cash', 'credit_slot', 0`,
  10000,
);
const PGBENCH_FEE = pgbenchTransfer(
  `'pgbench-fee-' || :k::text`,
  'fee',
  `'debit_owner', CASE WHEN :dir::int = 0 THEN :a::int ELSE :a::int + 1 END, 'debit_book', 'cash', 'debit_slot', 0`,
  `'credit_owner', 0, 'credit_book', 'fee_revenue', 'credit_slot', :slot::int`,
  1000,
);
const pgbenchScript = (transfers: string[]) => `\\set a random(1, ${ACCOUNTS - 1})
\\set dir random(0, 1)
\\set slot random(0, ${PLATFORM_SLOTS - 1})
\\set k random(1, 4000000000000000000)
BEGIN;
SELECT * FROM ${eventFunction(transfers.length)}(jsonb_build_array(${transfers.join(', ')}), now());
COMMIT;
`;
/**
 * The ledger's statements for one customer -> customer transfer, as a pgbench script: the same
 * round trips (begin, the `ledger_event` function, commit) with no Node, pg or Drizzle in the
 * way, so it shows what the database alone gives for this pattern. And the same for a transfer
 * with its fee (one event of two transfers, to `ledger_event_pair` as the application sends it).
 */
const LEDGER_PGBENCH_SCRIPT = pgbenchScript([PGBENCH_C2C]);
const LEDGER_FEE_PGBENCH_SCRIPT = pgbenchScript([PGBENCH_C2C, PGBENCH_FEE]);

const rate = (value: number) => String(Math.round(value));

/** Runs pgbench on `url` with `args` and returns its tps (without the initial connection time). */
async function pgbench(name: string, url: string, args: string[], seconds = SECONDS): Promise<number> {
  const output = await command(
    name,
    'pgbench',
    ['-c', String(CLIENTS), '-j', '2', '-T', String(seconds), ...args, url],
    { cwd: ROOT, env: process.env },
  );
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1];
  if (!tps) throw new Error(`no tps in pgbench's output:\n${output}`);
  console.log(output.trim().split('\n').slice(-5).join('\n'));
  return Number(tps);
}

/** The rounds' figures of one workload as one: their events, and their rates' mean (equal lengths). */
function together(runs: Measured[]): Measured | undefined {
  if (runs.length === 0) return undefined;
  const sum = (pick: (run: Measured) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const mean = (pick: (run: Measured) => number) => sum(pick) / runs.length;
  return {
    events: sum((run) => run.events),
    transfers: sum((run) => run.transfers),
    refused: sum((run) => run.refused),
    errors: sum((run) => run.errors),
    perSecond: mean((run) => run.perSecond),
    meanMs: mean((run) => run.meanMs),
    clientCpu: mean((run) => run.clientCpu),
  };
}

/** One round of the compared workloads (a stage that could not measure leaves its figure out). */
interface Round {
  c2c: Measured | undefined;
  fee: Measured | undefined;
  tpcb: number | undefined;
}
/** Customer -> customer over TPC-B-like in one round. */
const toTpcbOf = ({ c2c, tpcb }: Round) => (c2c && tpcb !== undefined ? c2c.perSecond / tpcb : undefined);
/** What an event with its fee costs against one transfer in one round. */
const feeCostOf = ({ c2c, fee }: Round) => (c2c && fee ? c2c.perSecond / fee.perSecond : undefined);
const present = <T>(values: (T | undefined)[]) => values.filter((value): value is T => value !== undefined);

/** `ratios`' median and range, e.g. "1.40 (median of 3 round(s): 1.21 to 1.52)". */
function medianOf(ratios: number[]): string {
  const low = Math.min(...ratios).toFixed(2);
  const high = Math.max(...ratios).toFixed(2);
  return `${median(ratios).toFixed(2)} (median of ${ratios.length} round(s): ${low} to ${high})`;
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(
    `Ledger bench: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, node ${process.version}; ${CLIENTS} clients, ${SECONDS} s per workload, ${ACCOUNTS} funded accounts; each event is one transaction`,
  );
  const rows: string[][] = [];
  let postgresUrl: string | undefined;
  const record = (name: string, database: string, clients: number, measured: Measured | undefined) => {
    if (!measured) return;
    console.log(
      `${name}: ${rate(measured.perSecond)} events/s (${rate((measured.perSecond * measured.transfers) / Math.max(1, measured.events))} transfers/s), mean ${measured.meanMs.toFixed(2)} ms, client CPU ${Math.round(measured.clientCpu * 100)}%, ${measured.refused} refused, ${measured.errors} errors`,
    );
    rows.push([
      name,
      database,
      String(clients),
      rate(measured.perSecond),
      rate((measured.perSecond * measured.transfers) / Math.max(1, measured.events)),
      measured.meanMs.toFixed(2),
      `${Math.round(measured.clientCpu * 100)}%`,
      String(measured.refused),
      String(measured.errors),
    ]);
  };

  const statements = await stage('statements per event', 60_000, statementsPerEvent);
  if (statements !== undefined) {
    console.log(
      `round trips (statements, begin and commit included): ${statements.single} per customer -> customer transfer, ${statements.withFee} per transfer with its fee`,
    );
  }

  const postgres = await stage('PostgreSQL: scratch database and funded accounts', 120_000, async () => {
    const created = await createPostgresDatabase();
    postgresUrl = created.url;
    const database = await openDatabase({ databaseUrl: created.url });
    closers.set('ledger database', async () => {
      await database.close();
      await created.drop();
    });
    await fund(database.db);
    // As `pgbench -i` ends with VACUUM ANALYZE of its tables: without it the first seconds ran on
    // plans made for empty tables until autovacuum's ANALYZE replaced them (half the rate).
    await database.db.execute(sql`vacuum analyze`);
    const version = JSON.stringify(await database.db.execute(sql`show server_version`)).match(
      /"server_version":"([^"]+)"/,
    )?.[1];
    console.log(`PostgreSQL ${version ?? '?'} at ${new URL(created.url).host}`);
    return database;
  });
  // The TPC-B-like database beside the ledger's, so that the compared workloads can alternate.
  const pgbenchDatabase = await stage(
    'pgbench TPC-B-like: scratch database (pgbench -i -s 8)',
    180_000,
    async () => {
      const created = await createPostgresDatabase();
      closers.set('pgbench database', () => created.drop());
      await command('pgbench -i', 'pgbench', ['-i', '-q', '-s', '8', created.url], {
        cwd: ROOT,
        env: process.env,
      });
      return created.url;
    },
  );

  const roundSeconds = Math.max(2, SECONDS / ROUNDS);
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const of = `round ${round}/${ROUNDS}`;
    const c2c = postgres
      ? await stage(`${of}: PostgreSQL customer -> customer`, 120_000, () =>
          drive(postgres.db, customerToCustomer, CLIENTS, roundSeconds),
        )
      : undefined;
    const fee = postgres
      ? await stage(`${of}: PostgreSQL customer -> customer + fee revenue`, 120_000, () =>
          drive(postgres.db, withFee, CLIENTS, roundSeconds),
        )
      : undefined;
    const tpcb =
      pgbenchDatabase === undefined
        ? undefined
        : await stage(`${of}: pgbench TPC-B-like (scale 8)`, 120_000, () =>
            pgbench('pgbench', pgbenchDatabase, [], roundSeconds),
          );
    rounds.push({ c2c, fee, tpcb });
  }
  record('customer -> customer', 'PostgreSQL', CLIENTS, together(present(rounds.map((r) => r.c2c))));
  record(
    'customer -> customer + fee (2 transfers)',
    'PostgreSQL',
    CLIENTS,
    together(present(rounds.map((r) => r.fee))),
  );
  const tpcbRuns = present(rounds.map((r) => r.tpcb));
  if (tpcbRuns.length > 0) {
    const tps = tpcbRuns.reduce((total, value) => total + value, 0) / tpcbRuns.length;
    rows.push(['pgbench TPC-B-like (-s 8)', 'PostgreSQL', String(CLIENTS), rate(tps), '', '', '', '', '']);
  }
  await closers.get('pgbench database')?.();
  closers.delete('pgbench database');

  if (postgres) {
    record(
      'customer -> fee revenue (hot book)',
      'PostgreSQL',
      CLIENTS,
      await stage('PostgreSQL: every client paying fee revenue', 120_000, () =>
        drive(postgres.db, toFeeRevenue, CLIENTS, SECONDS),
      ),
    );
    for (const [name, script, transfers] of [
      ['ledger statements from pgbench (C)', LEDGER_PGBENCH_SCRIPT, 1],
      ['ledger statements + fee from pgbench (C)', LEDGER_FEE_PGBENCH_SCRIPT, 2],
    ] as const) {
      const sqlOnly = await stage(
        `pgbench running the ledger's own statements: ${name}`,
        120_000,
        async () => {
          const file = path.join(os.tmpdir(), `coffer-ledger-${process.pid}-${transfers}.pgbench`);
          fs.writeFileSync(file, script);
          closers.set(`pgbench script ${file}`, () => fs.rmSync(file, { force: true }));
          return pgbench(name, postgresUrl ?? '', ['-n', '-M', 'prepared', '-f', file]);
        },
      );
      if (sqlOnly !== undefined) {
        rows.push([
          name,
          'PostgreSQL',
          String(CLIENTS),
          rate(sqlOnly),
          rate(sqlOnly * transfers),
          '',
          '',
          '',
          '',
        ]);
      }
    }
    await stage('PostgreSQL: checkLedger after the run', 60_000, async () => {
      const began = performance.now();
      const check = await checkLedger(postgres.db, new Date());
      console.log(`checkLedger: ok ${String(check.ok)} in ${Math.round(performance.now() - began)} ms`);
    });
    await closers.get('ledger database')?.();
    closers.delete('ledger database');
  }

  record(
    'customer -> customer',
    'PGlite in memory',
    1,
    await stage('PGlite in memory: customer -> customer, one connection', 120_000, async () => {
      const database = await openDatabase({});
      closers.set('pglite', () => database.close());
      await fund(database.db);
      const measured = await drive(database.db, customerToCustomer, 1, SECONDS);
      await closers.get('pglite')?.();
      closers.delete('pglite');
      return measured;
    }),
  );

  console.log('');
  table(
    [
      'workload',
      'database',
      'clients',
      'events/s',
      'transfers/s',
      'mean ms',
      'node CPU',
      'refused',
      'errors',
    ],
    rows,
    [2, 3, 4, 5, 6, 7, 8],
  );
  console.log(`\nthe compared workloads, ${ROUNDS} alternating round(s) of ${roundSeconds} s each:`);
  table(
    ['round', 'c2c events/s', 'c2c + fee events/s', 'TPC-B tps', 'c2c / TPC-B', 'fee event cost (c2c / fee)'],
    rounds.map((r, index) => [
      String(index + 1),
      r.c2c ? rate(r.c2c.perSecond) : '-',
      r.fee ? rate(r.fee.perSecond) : '-',
      r.tpcb === undefined ? '-' : rate(r.tpcb),
      toTpcbOf(r)?.toFixed(2) ?? '-',
      feeCostOf(r)?.toFixed(2) ?? '-',
    ]),
    [1, 2, 3, 4, 5],
  );
  const toTpcb = present(rounds.map(toTpcbOf));
  const feeCost = present(rounds.map(feeCostOf));
  if (toTpcb.length > 0) {
    console.log(`\nledger customer -> customer / pgbench TPC-B-like: ${medianOf(toTpcb)}`);
  }
  if (feeCost.length > 0) {
    console.log(`a transfer with its fee costs ${medianOf(feeCost)} x one transfer (events per second)`);
  }
  await closeAll();
  console.log(doneLine());
}

run(main);
