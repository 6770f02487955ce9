/**
 * `npm run bench:team`: the team's figures and its daily job on large referral trees, on
 * PostgreSQL. Each tree gets a scratch database of its own (migrated, then dropped):
 * - users, main accounts and their books, and the closure rows, inserted with set-based SQL (the
 *   closure's indexes are built after the rows, as a bulk load would);
 * - every user hosting (ledger credits from the adjustments book: 500 to 5400 USDT, every tenth
 *   user 300, which is not valid hosting), and one day's static income of 0.3 % of it
 *   (hosting_accruals rows; the accrual of that day marked done);
 * - then timed: `/api/v1/user/teamInfo` and `/api/v1/user/teamMembers` through the API for the
 *   tree's root and a member in its middle (median of 5), and the `team-income` job for the day
 *   (levels, promotion and management lines paid), followed by `ledger check`.
 * Trees: 10 000 users in a chain and in a fan (one root, every other user a direct member);
 * 100 000 users in a fan and in a random tree (each user referred by one of those before, picked
 * at random: about 12 generations deep). A chain of 100 000 is not built: its closure table would
 * hold 5 × 10⁹ rows (the closure of a chain of n has n(n − 1)/2). It measures and never judges.
 *
 * Environment:
 * - BENCH_TEAM_TREES           which trees, comma-separated (default all: chain-10000,fan-10000,fan-100000,random-100000)
 * - BENCH_TIMEOUT_SECONDS      the bound on the whole run (default 1800)
 * - BENCH_TEAM_KEEP            1: keep each tree's database (its URL is printed) to look into it
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { createServer, type CofferServer } from '../server/app.js';
import { ManualClock } from '../server/clock.js';
import { loadConfig } from '../server/config.js';
import type { Database } from '../server/db/database.js';
import { platformBook } from '../server/ledger/books.js';
import { creditMany, type CreditInput } from '../server/ledger/ledger.js';
import { minor } from '../contract/money.js';
import { createPostgresDatabase, postgresReachable } from '../tests/helpers/database.js';
import { benchRun, median, positiveNumber, seconds, table } from './report.js';

const BOUND_MS = positiveNumber('BENCH_TIMEOUT_SECONDS', 1800) * 1000;
const TREES = (process.env['BENCH_TEAM_TREES'] ?? 'chain-10000,fan-10000,fan-100000,random-100000')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);

const { stage, closers, closeAll, doneLine, run } = benchRun(BOUND_MS);

/** The day paid: Monday 2026-01-05 in Asia/Shanghai; the job runs on Tuesday at 00:05. */
const DAY = '2026-01-05';
const HOSTED_AT = new Date('2026-01-05T04:00:00Z');
const JOB_AT = '2026-01-05T16:05:00Z';

interface Figures {
  tree: string;
  users: number;
  closure: number;
  build: number;
  infoRoot: number;
  infoMiddle: number;
  members: number;
  job: number;
  lines: string;
  ledger: string;
}

const countSchema = z.object({ rows: z.array(z.object({ n: z.union([z.string(), z.number()]) })) });
const countOf = async (db: Database, query: ReturnType<typeof sql>) =>
  Number(countSchema.parse(await db.execute(query)).rows[0]?.n ?? 0);

/** Users 1 … n of the tree (ids from `first`), their referrers, accounts, books and closure rows. */
async function buildTree(
  db: Database,
  shape: string,
  size: number,
): Promise<{ root: number; middle: number }> {
  await db.execute(sql`set maintenance_work_mem = '1GB'`);
  await db.execute(sql`
    insert into users (email, password_hash, nickname, avatar, invite_code, referrer_id, lang, created_at, password_changed_at)
    select 'bench-' || g || '@bench.test', 'x', 'member ' || g, '/avatars/01.svg', 'B' || g, null, 'en',
           ${HOSTED_AT}::timestamptz, ${HOSTED_AT}::timestamptz
      from generate_series(1, ${size}) g order by g`);
  const first = await countOf(db, sql`select min(id) as n from users`);
  const last = first + size - 1;
  const referrer =
    shape === 'chain'
      ? sql`id - 1`
      : shape === 'fan'
        ? sql`${first}::bigint`
        : sql`${first}::bigint + floor(random() * (id - ${first}))::bigint`;
  await db.execute(sql`update users set referrer_id = ${referrer} where id > ${first}`);
  await db.execute(sql`insert into accounts (user_id, kind, name, created_at)
    select id, 'main', 'Main', ${HOSTED_AT}::timestamptz from users order by id`);
  await db.execute(sql`update users u set default_account_id = a.id from accounts a where a.user_id = u.id`);
  await db.execute(sql`insert into ledger_balances (owner, book, asset, slot, balance)
    select a.id, book, asset, 0, 0 from accounts a, unnest(array['cash', 'hosting', 'held']) book,
           unnest(array['USDT', 'RAB']) asset`);
  // The closure: without its indexes while it is loaded, then indexed as the schema says.
  await db.execute(
    sql`alter table referral_paths drop constraint referral_paths_ancestor_id_descendant_id_pk`,
  );
  await db.execute(sql`drop index referral_paths_descendant`);
  await db.execute(sql`drop index referral_paths_generation`);
  if (shape === 'chain') {
    await db.execute(sql`insert into referral_paths (ancestor_id, descendant_id, depth)
      select a, d, d - a from generate_series(${first}::bigint, ${last}::bigint) d,
             generate_series(${first}::bigint, ${last}::bigint) a where a < d`);
  } else {
    await db.execute(sql`insert into referral_paths (ancestor_id, descendant_id, depth)
      select referrer_id, id, 1 from users where referrer_id is not null`);
    for (let depth = 1; ; depth += 1) {
      const added = await countOf(
        db,
        sql`with added as (
          insert into referral_paths (ancestor_id, descendant_id, depth)
          select r.ancestor_id, u.id, r.depth + 1 from users u
            join referral_paths r on r.descendant_id = u.referrer_id and r.depth = ${depth}
          returning 1) select count(*) as n from added`,
      );
      if (added === 0) break;
    }
  }
  await db.execute(sql`alter table referral_paths add constraint referral_paths_ancestor_id_descendant_id_pk
    primary key (ancestor_id, descendant_id)`);
  await db.execute(sql`create index referral_paths_descendant on referral_paths (descendant_id, depth)`);
  await db.execute(
    sql`create index referral_paths_generation on referral_paths (ancestor_id, depth, descendant_id)`,
  );
  await db.execute(sql`analyze`);
  return { root: first, middle: first + Math.floor(size / 2) };
}

/** Every user hosting (a tenth of them below valid), and the day's static income accrued. */
async function hostEveryone(server: CofferServer): Promise<void> {
  const db = server.database.db;
  const accounts = z
    .object({ rows: z.array(z.object({ id: z.union([z.string(), z.number()]) })) })
    .parse(await db.execute(sql`select id from accounts order by id`))
    .rows.map((row) => Number(row.id));
  for (let start = 0; start < accounts.length; start += 5000) {
    const items: CreditInput[] = accounts.slice(start, start + 5000).map((id) => ({
      key: `bench:hosting:${id}`,
      kind: 'data_adjustment',
      accountId: id,
      amount: minor(BigInt(id % 10 === 0 ? 300 : 500 + (id % 50) * 100) * 1_000_000n),
      ref: { table: 'bench', id: String(id) },
    }));
    await db.transaction((tx) =>
      creditMany(tx, platformBook('adjustments'), 'hosting', 'USDT', items, HOSTED_AT),
    );
  }
  await db.execute(sql`insert into hosting_accruals
      (order_id, day, account_id, principal_minutes, minutes_of_day, daily_rate, amount, created_at)
    select b.owner, ${DAY}, b.owner, (b.balance * 1440)::text, 1440, '0.003', b.balance * 3 / 1000, now()
      from ledger_balances b where b.owner <> 0 and b.book = 'hosting' and b.asset = 'USDT' and b.balance > 0`);
  await db.execute(sql`insert into job_runs (job, period, status, detail, started_at, finished_at)
    values ('hosting-accrual', ${DAY}, 'done', '{}'::jsonb, now(), now())`);
  await db.execute(sql`analyze`);
}

/** Median milliseconds of five calls of `uri` as `userId`, through the API. */
async function timed(server: CofferServer, userId: number, uri: string, params: Record<string, string>) {
  const { token } = await server.database.db.transaction((tx) =>
    server.services.sessions.start(tx, 'user', userId),
  );
  const times: number[] = [];
  let answer = '';
  for (let round = 0; round < 5; round += 1) {
    const begin = performance.now();
    const response = await server.app.inject({
      method: 'POST',
      url: uri,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(params),
    });
    times.push(performance.now() - begin);
    answer = response.body;
    if (!answer.startsWith('{"code":200')) throw new Error(`${uri}: ${answer.slice(0, 200)}`);
  }
  return { ms: median(times), answer };
}

async function measure(name: string): Promise<Figures> {
  const [shape, sizeText] = name.split('-');
  const size = Number(sizeText);
  if (!shape || !['chain', 'fan', 'random'].includes(shape) || !Number.isInteger(size) || size < 2)
    throw new Error(`unknown tree ${name} (chain-N, fan-N or random-N)`);
  const created = await createPostgresDatabase();
  if (process.env['BENCH_TEAM_KEEP'] === '1') console.log(`${name}: database ${created.url} (kept)`);
  else closers.set(`${name} database`, created.drop);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-team-'));
  closers.set(`${name} data`, () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const clock = new ManualClock(HOSTED_AT.toISOString());
  const server = await createServer({
    config: loadConfig({
      DATABASE_URL: created.url,
      DATA_DIR: dataDir,
      COFFER_JOBS: 'off',
      COFFER_RATE_LIMIT: '0',
      COFFER_DEVNET: 'off',
      LOG_LEVEL: 'silent',
    }),
    clock,
    logger: false,
  });
  closers.set(`${name} server`, () => server.close());
  try {
    return await measureOn(server, clock, name, shape, size);
  } finally {
    await closeAll();
  }
}

async function measureOn(
  server: CofferServer,
  clock: ManualClock,
  name: string,
  shape: string,
  size: number,
): Promise<Figures> {
  const db = server.database.db;
  const begin = performance.now();
  const { root, middle } = await buildTree(db, shape, size);
  await hostEveryone(server);
  const build = performance.now() - begin;
  const closure = await countOf(db, sql`select count(*) as n from referral_paths`);
  console.log(`${name}: ${size} users, ${closure} closure rows, built in ${seconds(build)}`);
  const infoRoot = await timed(server, root, '/api/v1/user/teamInfo', {});
  console.log(`teamInfo (root): ${infoRoot.answer.slice(0, 400)}`);
  const infoMiddle = await timed(server, middle, '/api/v1/user/teamInfo', {});
  const members = await timed(server, root, '/api/v1/user/teamMembers', { generation: '1', limit: '20' });
  clock.advance((new Date(JOB_AT).getTime() - clock.now().getTime()) / 1000);
  const jobBegin = performance.now();
  const job = await server.scheduler.runNow('team-income');
  const jobMs = performance.now() - jobBegin;
  const day = z
    .object({
      days: z.array(
        z.object({ promotion: z.object({ lines: z.number() }), management: z.object({ lines: z.number() }) }),
      ),
    })
    .parse(job.detail).days[0];
  console.log(`team-income ${job.period}: ${job.status} ${JSON.stringify(job.detail)}`);
  const check = await server.services.ledgerAdmin.check();
  return {
    tree: name,
    users: size,
    closure,
    build,
    infoRoot: infoRoot.ms,
    infoMiddle: infoMiddle.ms,
    members: members.ms,
    job: jobMs,
    lines: `${day?.promotion.lines ?? 0} + ${day?.management.lines ?? 0}`,
    ledger: check.ok ? 'ok' : 'FAILED',
  };
}

run(async () => {
  if (!(await postgresReachable())) throw new Error('no PostgreSQL server at TEST_DATABASE_URL');
  const rows: Figures[] = [];
  for (const name of TREES) {
    const figures = await stage(name, BOUND_MS, () => measure(name));
    if (figures) rows.push(figures);
  }
  console.log('\n== the team on PostgreSQL (teamInfo and teamMembers: median of 5 calls through the API)');
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  table(
    [
      'tree',
      'users',
      'closure rows',
      'built in',
      'teamInfo root',
      'teamInfo middle',
      'teamMembers root',
      'team job',
      'lines (promotion + management)',
      'ledger check',
    ],
    rows.map((row) => [
      row.tree,
      String(row.users),
      String(row.closure),
      seconds(row.build),
      ms(row.infoRoot),
      ms(row.infoMiddle),
      ms(row.members),
      seconds(row.job),
      row.lines,
      row.ledger,
    ]),
    [1, 2, 3, 4, 5, 6, 7],
  );
  console.log(doneLine());
});
