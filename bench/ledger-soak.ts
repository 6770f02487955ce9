/**
 * `npm run soak:ledger`: the ledger's model test (tests/ledger/model.ts) for a long time. Runs
 * SOAK_OPS random operations (credits, transfers, events with a fee, payments to fee revenue,
 * holds, partial posts, voids, repeated keys) in runs of SOAK_RUN_OPS on fresh accounts; every
 * answer must be the model's, and every SOAK_CHECK_EVERY operations (and at the end of each run)
 * the balances, holds, transfer rows and checkLedger must agree with the model. Prints progress,
 * the count and the rate; exits 1 at the first disagreement.
 *
 * Environment:
 * - SOAK_OPS           operations in all (default 1000000)
 * - SOAK_RUN_OPS       operations per run of fresh accounts (default 10000)
 * - SOAK_CHECK_EVERY   operations between two comparisons with the model (default 10000)
 * - SOAK_SEED          the first run's seed (default: random; printed)
 * - DATABASE_URL       a PostgreSQL database to soak (migrated, kept);
 *   TEST_DATABASE_URL  else a PostgreSQL server on which a scratch database is made and dropped;
 *                      neither: in-memory PGlite
 */
import fc from 'fast-check';
import { openDatabase, type OpenDatabase } from '../server/db/database.js';
import { createPostgresDatabase } from '../tests/helpers/database.js';
import { addTally, MIXED, opArbitrary, runOps } from '../tests/ledger/model.js';
import { positiveNumber, seconds } from './report.js';

const OPS = Math.floor(positiveNumber('SOAK_OPS', 1_000_000));
const RUN_OPS = Math.floor(positiveNumber('SOAK_RUN_OPS', 10_000));
const CHECK_EVERY = Math.floor(positiveNumber('SOAK_CHECK_EVERY', 10_000));
const SEED = Math.floor(positiveNumber('SOAK_SEED', Math.floor(Math.random() * 2 ** 31)));

async function open(): Promise<{ database: OpenDatabase; where: string; drop?: () => Promise<void> }> {
  const url = process.env['DATABASE_URL'];
  if (url)
    return { database: await openDatabase({ databaseUrl: url }), where: `PostgreSQL ${new URL(url).host}` };
  if (process.env['TEST_DATABASE_URL']) {
    const scratch = await createPostgresDatabase();
    return {
      database: await openDatabase({ databaseUrl: scratch.url }),
      where: `PostgreSQL scratch database ${new URL(scratch.url).pathname.slice(1)}`,
      drop: scratch.drop,
    };
  }
  return { database: await openDatabase({}), where: 'PGlite in memory' };
}

async function main(): Promise<void> {
  const { database, where, drop } = await open();
  console.log(
    `ledger soak: ${OPS} operations on ${where}, runs of ${RUN_OPS} on fresh accounts, compared with the model every ${CHECK_EVERY} and at each run's end; seed ${SEED}`,
  );
  const tally = new Map<string, number>();
  const started = performance.now();
  let done = 0;
  let lastPrint = started;
  try {
    for (let run = 0; done < OPS; run += 1) {
      const length = Math.min(RUN_OPS, OPS - done);
      const ops = fc.sample(opArbitrary(MIXED), { numRuns: length, seed: SEED + run });
      const model = await runOps(database.db, ops, { verifyEvery: CHECK_EVERY });
      addTally(tally, model.tally);
      done += length;
      const now = performance.now();
      if (now - lastPrint > 10_000 || done >= OPS) {
        lastPrint = now;
        const elapsed = (now - started) / 1000;
        console.log(
          `${done} operations in ${seconds(now - started)}: ${Math.round(done / elapsed)} per second, model and invariants agree`,
        );
      }
    }
    const elapsed = (performance.now() - started) / 1000;
    console.log(`\n${done} operations, ${Math.round(done / elapsed)} per second, ${seconds(elapsed * 1000)}`);
    console.log(
      [...tally]
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) => `  ${name}: ${count}`)
        .join('\n'),
    );
  } finally {
    await database.close();
    await drop?.();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
