/**
 * The ledger against a model (tests/ledger/model.ts), with fast-check: random sequences of
 * credits, transfers between customer books (both directions, cash <-> hosting within one
 * account), events of two transfers, payments to a platform book, holds, partial posts, voids
 * and repeated keys over six accounts and two assets. After every step the database must hold
 * what the model holds and checkLedger must find nothing. On PGlite in memory: one database for
 * the whole file, each run on accounts no other run touched.
 *
 * FC_SEED=<n> replays a failing seed; FC_RUNS scales the number of runs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { OpenDatabase } from '../../server/db/database.js';
import { openTestDatabase } from '../helpers/database.js';
import { addTally, MIXED, opArbitrary, runOps, type OpKind } from './model.js';

const seed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED']);
const scale = Number(process.env['FC_RUNS'] ?? 1);

describe('the ledger behaves as its model (PGlite, fast-check)', () => {
  let database: OpenDatabase;
  const tally = new Map<string, number>();
  let steps = 0;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    console.info(
      `[ledger property] ${steps} steps checked against the model and checkLedger after each: ${[...tally]
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) => `${name} ${count}`)
        .join(', ')}`,
    );
    await database.close();
  });

  /** Runs `numRuns` random sequences of up to `maxLength` operations of the given mix, checking every step. */
  async function property(weights: Partial<Record<OpKind, number>>, numRuns: number, maxLength: number) {
    const runTally = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArbitrary(weights), { minLength: 1, maxLength, size: 'max' }),
        async (ops) => {
          const model = await runOps(database.db, ops, { verifyEvery: 1 });
          addTally(runTally, model.tally);
        },
      ),
      { numRuns: Math.max(1, Math.round(numRuns * scale)), ...(seed === undefined ? {} : { seed }) },
    );
    for (const count of runTally.values()) steps += count;
    addTally(tally, runTally);
    return runTally;
  }

  test('every mix of operations answers as the model says, and after each step the balances, holds and invariants agree', async () => {
    const done = await property(MIXED, 30, 60);
    expect(done.get('transfer')).toBeGreaterThan(0);
    expect(done.get('refused 470')).toBeGreaterThan(0);
  }, 120_000);

  test('a debit above the available balance is refused with 470 and changes nothing, down to one minor unit', async () => {
    const done = await property({ credit: 3, move: 6, pay: 2, hold: 2 }, 15, 40);
    expect(done.get('refused 470')).toBeGreaterThan(0);
  }, 120_000);

  test('a repeated key moves nothing, even when the repeat asks for another amount', async () => {
    const done = await property(
      { credit: 4, move: 3, event: 2, hold: 2, post: 2, void: 1, repeat: 6 },
      20,
      40,
    );
    expect(done.get('transfer repeated (nothing moved)')).toBeGreaterThan(0);
  }, 120_000);

  test('a hold is posted in parts and voided so that posts plus the void equal the hold, nothing twice', async () => {
    const done = await property({ credit: 5, hold: 4, post: 6, void: 2, repeat: 1 }, 20, 50);
    expect(done.get('post')).toBeGreaterThan(0);
    expect(done.get('void')).toBeGreaterThan(0);
  }, 120_000);

  test('an event of two transfers (a transfer and its fee) is all or nothing', async () => {
    const done = await property({ credit: 2, event: 5, move: 1 }, 15, 40);
    expect(done.get('transfer')).toBeGreaterThan(0);
  }, 120_000);

  test('transfers paying a platform book are never refused for the platform side, and the book sums what it was paid', async () => {
    const done = await property({ credit: 3, pay: 5, event: 2 }, 15, 40);
    expect(done.get('transfer')).toBeGreaterThan(0);
  }, 120_000);
});
