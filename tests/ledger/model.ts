/**
 * A model of the ledger, for the property tests (tests/ledger/ledger.property.test.ts) and the
 * soak (`npm run soak:ledger`): random operations over a few Coffer accounts and two assets are
 * run against the real ledger and against a plain in-memory model that says what each must do
 * (move money, move nothing on a repeated key, refuse with 470 or 409, throw), and the database
 * is compared with the model after the steps (balances of every book, platform books, holds,
 * transfer rows) together with the ledger's own invariants (checkLedger).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Asset, Book } from '../../contract/api/account.js';
import { BodyCode } from '../../contract/codes.js';
import { minor, type Minor } from '../../contract/money.js';
import { BusinessError } from '../../server/core/errors.js';
import type { Database } from '../../server/db/database.js';
import { customerBook, platformBook, type BookRef, type PlatformBook } from '../../server/ledger/books.js';
import { checkLedger } from '../../server/ledger/invariants.js';
import {
  accountBalances,
  hold,
  postHold,
  transfer,
  voidHold,
  type HoldInput,
  type TransferInput,
} from '../../server/ledger/ledger.js';

/** Coffer accounts per run. */
export const ACCOUNTS = 6;
const ASSETS: readonly Asset[] = ['USDT', 'RAB'];
const BOOKS: readonly Book[] = ['cash', 'hosting', 'held'];
/** 0.01 of an asset in minor units: amounts are whole cents, as users enter them. */
const CENT = 10_000n;

type MovableBook = 'cash' | 'hosting';
/** A fixed amount in cents, all of the book's balance, or one minor unit more than all of it. */
export type AmountSpec = { cents: number } | 'all' | 'allPlusOne';

/** One random operation; accounts are 0..ACCOUNTS-1, holds and repeats index what exists (modulo). */
export type Op =
  | { kind: 'credit'; to: number; asset: Asset; cents: number }
  | {
      kind: 'move';
      from: number;
      fromBook: MovableBook;
      to: number;
      toBook: MovableBook;
      asset: Asset;
      amount: AmountSpec;
    }
  | { kind: 'pay'; from: number; asset: Asset; amount: AmountSpec }
  | {
      kind: 'event';
      from: number;
      to: number;
      asset: Asset;
      cents: number;
      feeCents: number;
      feePayer: 'from' | 'to';
    }
  | { kind: 'hold'; account: number; asset: Asset; amount: AmountSpec }
  | { kind: 'post'; hold: number; amount: { cents: number } | 'rest' | 'overRemaining' }
  | { kind: 'void'; hold: number }
  | { kind: 'repeat'; step: number; otherAmount: boolean };

export type OpKind = Op['kind'];

/** A call of the ledger, fully resolved (what a repeat replays). */
type Call =
  | { type: 'transfer'; inputs: TransferInput[] }
  | { type: 'hold'; input: HoldInput }
  | { type: 'post'; holdKey: string; key: string; amount: Minor | undefined }
  | { type: 'void'; holdKey: string; key: string };

/** What a call does, as the model predicts it and as the ledger answers. */
type Outcome =
  | { outcome: 'transfer'; applied: boolean[] }
  | { outcome: 'hold'; created: boolean; id: number | undefined }
  | { outcome: 'post'; applied: boolean }
  | { outcome: 'void'; applied: boolean }
  | { outcome: 'void-nothing' }
  | { outcome: 'refused'; code: number }
  | { outcome: 'error' };

interface ModelHold {
  id: number | undefined;
  owner: number;
  asset: Asset;
  remaining: bigint;
  status: 'pending' | 'posted' | 'voided';
}

const resultRows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });
/** The rows of a raw query (node-postgres and PGlite both answer `{rows}`). */
const rowsOf = (result: unknown) => resultRows.parse(result).rows;

const cents = (value: number) => minor(BigInt(value) * CENT);
const isCustomer = (ref: BookRef) => ref.owner !== 0;
const bookId = (ref: BookRef, asset: Asset) => `${ref.owner}|${ref.book}|${asset}`;

/** The arbitrary of one operation, with a weight per kind (a kind absent or 0 is never drawn). */
export function opArbitrary(weights: Partial<Record<OpKind, number>>): fc.Arbitrary<Op> {
  const account = fc.integer({ min: 0, max: ACCOUNTS - 1 });
  const asset = fc.constantFrom<Asset>(...ASSETS);
  const amount = fc.oneof<fc.MaybeWeightedArbitrary<AmountSpec>[]>(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 1500 }).map((value) => ({ cents: value })) },
    { weight: 1, arbitrary: fc.constant('all' as const) },
    { weight: 1, arbitrary: fc.constant('allPlusOne' as const) },
  );
  const movable = fc.constantFrom<MovableBook>('cash', 'hosting');
  const arbitraries: Record<OpKind, fc.Arbitrary<Op>> = {
    credit: fc.record({
      kind: fc.constant('credit' as const),
      to: account,
      asset,
      cents: fc.integer({ min: 1, max: 20_000 }),
    }),
    move: fc.record({
      kind: fc.constant('move' as const),
      from: account,
      fromBook: movable,
      to: account,
      toBook: movable,
      asset,
      amount,
    }),
    pay: fc.record({ kind: fc.constant('pay' as const), from: account, asset, amount }),
    event: fc.record({
      kind: fc.constant('event' as const),
      from: account,
      to: account,
      asset,
      cents: fc.integer({ min: 1, max: 3000 }),
      feeCents: fc.integer({ min: 1, max: 300 }),
      feePayer: fc.constantFrom<'from' | 'to'>('from', 'to'),
    }),
    hold: fc.record({ kind: fc.constant('hold' as const), account, asset, amount }),
    post: fc.record({
      kind: fc.constant('post' as const),
      hold: fc.nat(),
      amount: fc.oneof<fc.MaybeWeightedArbitrary<{ cents: number } | 'rest' | 'overRemaining'>[]>(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 800 }).map((value) => ({ cents: value })) },
        { weight: 1, arbitrary: fc.constant('rest' as const) },
        { weight: 1, arbitrary: fc.constant('overRemaining' as const) },
      ),
    }),
    void: fc.record({ kind: fc.constant('void' as const), hold: fc.nat() }),
    repeat: fc.record({ kind: fc.constant('repeat' as const), step: fc.nat(), otherAmount: fc.boolean() }),
  };
  const chosen = (Object.keys(arbitraries) as OpKind[])
    .filter((kind) => (weights[kind] ?? 0) > 0)
    .map((kind) => ({ weight: weights[kind] ?? 0, arbitrary: arbitraries[kind] }));
  return fc.oneof(...chosen);
}

/** The usual mix: every kind, credits often enough that debits both pass and fail. */
export const MIXED: Partial<Record<OpKind, number>> = {
  credit: 4,
  move: 5,
  pay: 2,
  event: 2,
  hold: 2,
  post: 2,
  void: 1,
  repeat: 2,
};

/** The expected state of one run's accounts, platform books (as changes since the run began) and holds. */
export class LedgerModel {
  readonly balances = new Map<string, bigint>();
  /** Committed transfer keys of this run. */
  readonly keys = new Set<string>();
  readonly holds = new Map<string, ModelHold>();
  readonly holdKeys: string[] = [];
  readonly history: Call[] = [];
  /** What the steps did, by outcome (`transfer`, `refused 470` ...). */
  readonly tally = new Map<string, number>();

  constructor(
    readonly prefix: string,
    readonly owners: readonly number[],
  ) {}

  balance(ref: BookRef, asset: Asset): bigint {
    return this.balances.get(bookId(ref, asset)) ?? 0n;
  }

  /** Turns an operation into a call against what the model holds now; undefined when it has nothing to act on. */
  resolve(op: Op, step: number): Call | undefined {
    const key = (index: number) => `${this.prefix}:${step}:${index}`;
    const ref = { table: 'model', id: `${this.prefix}:${step}` };
    const owner = (index: number) => this.owners[index] ?? 0;
    const amountOf = (spec: AmountSpec, from: BookRef, asset: Asset) =>
      spec === 'all'
        ? this.balance(from, asset)
        : spec === 'allPlusOne'
          ? this.balance(from, asset) + 1n
          : BigInt(spec.cents) * CENT;
    /** A transfer of one leg, keyed as the step's first. */
    const oneLeg = (
      kind: TransferInput['kind'],
      asset: Asset,
      from: BookRef,
      to: BookRef,
      amount: Minor,
    ): Call => ({ type: 'transfer', inputs: [{ key: key(0), kind, asset, from, to, amount, ref }] });
    switch (op.kind) {
      case 'credit':
        return oneLeg(
          'data_adjustment',
          op.asset,
          platformBook('adjustments'),
          customerBook(owner(op.to), 'cash'),
          cents(op.cents),
        );
      case 'move': {
        const from = customerBook(owner(op.from), op.fromBook);
        return oneLeg(
          'account_transfer',
          op.asset,
          from,
          customerBook(owner(op.to), op.toBook),
          minor(amountOf(op.amount, from, op.asset)),
        );
      }
      case 'pay': {
        const from = customerBook(owner(op.from), 'cash');
        return oneLeg(
          'fee',
          op.asset,
          from,
          platformBook('fee_revenue'),
          minor(amountOf(op.amount, from, op.asset)),
        );
      }
      case 'event': {
        const payer = customerBook(owner(op.from), 'cash');
        const payee = customerBook(owner(op.to), 'cash');
        return {
          type: 'transfer',
          inputs: [
            {
              key: key(0),
              kind: 'account_transfer',
              asset: op.asset,
              from: payer,
              to: payee,
              amount: cents(op.cents),
              ref,
            },
            {
              key: key(1),
              kind: 'fee',
              asset: op.asset,
              from: op.feePayer === 'from' ? payer : payee,
              to: platformBook('fee_revenue'),
              amount: cents(op.feeCents),
              ref,
            },
          ],
        };
      }
      case 'hold': {
        const accountId = owner(op.account);
        return {
          type: 'hold',
          input: {
            key: `${this.prefix}:h${step}`,
            accountId,
            asset: op.asset,
            kind: 'withdrawal',
            amount: minor(amountOf(op.amount, customerBook(accountId, 'cash'), op.asset)),
            ref,
          },
        };
      }
      case 'post': {
        const holdKey = this.holdKeys[op.hold % Math.max(1, this.holdKeys.length)];
        const held = holdKey === undefined ? undefined : this.holds.get(holdKey);
        if (holdKey === undefined || !held) return undefined;
        const amount =
          op.amount === 'rest'
            ? undefined
            : op.amount === 'overRemaining'
              ? minor(held.remaining + 1n)
              : cents(op.amount.cents);
        return { type: 'post', holdKey, key: `${this.prefix}:p${step}`, amount };
      }
      case 'void': {
        const holdKey = this.holdKeys[op.hold % Math.max(1, this.holdKeys.length)];
        if (holdKey === undefined) return undefined;
        return { type: 'void', holdKey, key: `${this.prefix}:v${step}` };
      }
      case 'repeat': {
        const earlier = this.history[op.step % Math.max(1, this.history.length)];
        if (!earlier || !op.otherAmount) return earlier;
        const more = (amount: Minor) => minor(amount + CENT);
        switch (earlier.type) {
          case 'transfer':
            return {
              type: 'transfer',
              inputs: earlier.inputs.map((input) => ({ ...input, amount: more(input.amount) })),
            };
          case 'hold':
            return { type: 'hold', input: { ...earlier.input, amount: more(earlier.input.amount) } };
          case 'post':
            return { ...earlier, amount: earlier.amount === undefined ? undefined : more(earlier.amount) };
          case 'void':
            return earlier;
        }
      }
    }
  }

  /**
   * What the ledger must answer to `call`, applied to the model (nothing changes when the call
   * is refused or throws: the transaction rolls back).
   */
  expect(call: Call): Outcome {
    switch (call.type) {
      case 'transfer': {
        const result = this.planTransfers(call.inputs);
        if ('outcome' in result) return result;
        result.commit();
        return { outcome: 'transfer', applied: result.applied };
      }
      case 'hold': {
        // As for transfers, an amount of nothing is refused before the key is looked up.
        if (call.input.amount <= 0n) return { outcome: 'error' };
        const existing = this.holds.get(call.input.key);
        if (existing) return { outcome: 'hold', created: false, id: existing.id };
        const plan = this.planTransfers([
          {
            key: `${call.input.key}:hold`,
            kind: call.input.kind,
            asset: call.input.asset,
            from: customerBook(call.input.accountId, 'cash'),
            to: customerBook(call.input.accountId, 'held'),
            amount: call.input.amount,
            ref: call.input.ref,
          },
        ]);
        if ('outcome' in plan) return plan;
        plan.commit();
        this.holds.set(call.input.key, {
          id: undefined,
          owner: call.input.accountId,
          asset: call.input.asset,
          remaining: call.input.amount,
          status: 'pending',
        });
        this.holdKeys.push(call.input.key);
        return { outcome: 'hold', created: true, id: undefined };
      }
      case 'post': {
        const held = this.holds.get(call.holdKey);
        if (!held) throw new Error(`model: no hold ${call.holdKey}`);
        if (this.keys.has(call.key)) return { outcome: 'post', applied: false };
        const amount = call.amount ?? held.remaining;
        if (held.status !== 'pending' || amount <= 0n || amount > held.remaining) {
          return { outcome: 'refused', code: BodyCode.conflict };
        }
        const plan = this.planTransfers([
          {
            key: call.key,
            kind: 'withdrawal',
            asset: held.asset,
            from: customerBook(held.owner, 'held'),
            to: platformBook('hot_wallet'),
            amount: minor(amount),
            ref: { table: 'model', id: call.key },
          },
        ]);
        if ('outcome' in plan) throw new Error(`model: the post of ${call.holdKey} cannot be paid`);
        plan.commit();
        held.remaining -= amount;
        if (held.remaining === 0n) held.status = 'posted';
        return { outcome: 'post', applied: true };
      }
      case 'void': {
        const held = this.holds.get(call.holdKey);
        if (!held) throw new Error(`model: no hold ${call.holdKey}`);
        if (this.keys.has(call.key)) return { outcome: 'void', applied: false };
        if (held.status !== 'pending') return { outcome: 'void-nothing' };
        const plan = this.planTransfers([
          {
            key: call.key,
            kind: 'withdrawal_reversal',
            asset: held.asset,
            from: customerBook(held.owner, 'held'),
            to: customerBook(held.owner, 'cash'),
            amount: minor(held.remaining),
            ref: { table: 'model', id: call.key },
          },
        ]);
        if ('outcome' in plan) throw new Error(`model: the void of ${call.holdKey} cannot be paid`);
        plan.commit();
        held.remaining = 0n;
        held.status = 'voided';
        return { outcome: 'void', applied: true };
      }
    }
  }

  /** The transfers of one event on a scratch copy of the balances: all apply, or the event is refused. */
  private planTransfers(
    inputs: readonly TransferInput[],
  ): { applied: boolean[]; commit(): void } | { outcome: 'refused'; code: number } | { outcome: 'error' } {
    for (const input of inputs) {
      if (input.amount <= 0n) return { outcome: 'error' };
      if (input.from.owner === input.to.owner && input.from.book === input.to.book)
        return { outcome: 'error' };
    }
    const scratch = new Map<string, bigint>();
    const get = (id: string) => scratch.get(id) ?? this.balances.get(id) ?? 0n;
    const newKeys = new Set<string>();
    const applied: boolean[] = [];
    for (const input of inputs) {
      if (this.keys.has(input.key) || newKeys.has(input.key)) {
        applied.push(false);
        continue;
      }
      const from = bookId(input.from, input.asset);
      if (isCustomer(input.from) && get(from) < input.amount) {
        return { outcome: 'refused', code: BodyCode.insufficientBalance };
      }
      scratch.set(from, get(from) - input.amount);
      const to = bookId(input.to, input.asset);
      scratch.set(to, get(to) + input.amount);
      newKeys.add(input.key);
      applied.push(true);
    }
    return {
      applied,
      commit: () => {
        for (const [id, value] of scratch) this.balances.set(id, value);
        for (const key of newKeys) this.keys.add(key);
      },
    };
  }
}

/** The database id of the model's hold `holdKey`; throws when the hold was never created. */
function holdIdOf(model: LedgerModel, holdKey: string): number {
  const holdId = model.holds.get(holdKey)?.id;
  if (holdId === undefined) throw new Error(`model: hold ${holdKey} has no id`);
  return holdId;
}

/** Runs a call on the ledger in its own transaction and says what came of it. */
async function execute(db: Database, model: LedgerModel, call: Call, now: Date): Promise<Outcome> {
  try {
    switch (call.type) {
      case 'transfer': {
        const outcomes = await db.transaction((tx) => transfer(tx, call.inputs, now));
        return { outcome: 'transfer', applied: outcomes.map((outcome) => outcome.applied) };
      }
      case 'hold': {
        const knownIds = new Set([...model.holds.values()].map((held) => held.id));
        const row = await db.transaction((tx) => hold(tx, call.input, now));
        return { outcome: 'hold', created: !knownIds.has(row.id), id: row.id };
      }
      case 'post': {
        const holdId = holdIdOf(model, call.holdKey);
        const outcome = await db.transaction((tx) =>
          postHold(
            tx,
            {
              holdId,
              key: call.key,
              to: platformBook('hot_wallet'),
              kind: 'withdrawal',
              ...(call.amount === undefined ? {} : { amount: call.amount }),
              ref: { table: 'model', id: call.key },
            },
            now,
          ),
        );
        return { outcome: 'post', applied: outcome.applied };
      }
      case 'void': {
        const holdId = holdIdOf(model, call.holdKey);
        const outcome = await db.transaction((tx) =>
          voidHold(
            tx,
            { holdId, key: call.key, kind: 'withdrawal_reversal', ref: { table: 'model', id: call.key } },
            now,
          ),
        );
        return outcome ? { outcome: 'void', applied: outcome.applied } : { outcome: 'void-nothing' };
      }
    }
  } catch (error) {
    if (error instanceof BusinessError) return { outcome: 'refused', code: error.code };
    if (error instanceof Error && /^ledger: /.test(error.message)) return { outcome: 'error' };
    // A hold of nothing is refused by the database's CHECK (ledger_holds_amount_positive), not by the ledger.
    if (error instanceof Error && error.cause instanceof Error && /_positive"/.test(error.cause.message)) {
      return { outcome: 'error' };
    }
    throw error;
  }
}

const tallyName = (outcome: Outcome) => {
  switch (outcome.outcome) {
    case 'transfer':
      return outcome.applied.every(Boolean)
        ? 'transfer'
        : outcome.applied.some(Boolean)
          ? 'transfer, some keys repeated'
          : 'transfer repeated (nothing moved)';
    case 'hold':
      return outcome.created ? 'hold' : 'hold repeated (nothing moved)';
    case 'post':
      return outcome.applied ? 'post' : 'post repeated (nothing moved)';
    case 'void':
      return outcome.applied ? 'void' : 'void repeated (nothing moved)';
    case 'void-nothing':
      return 'void of an ended hold (nothing moved)';
    case 'refused':
      return `refused ${outcome.code}`;
    case 'error':
      return 'thrown (zero amount or one book)';
  }
};

/** Reads the platform books, slots summed: `book|asset` -> balance. */
export async function platformTotals(db: Database): Promise<Map<string, bigint>> {
  const result = await db.execute(
    sql`select book, asset, sum(balance)::text as total from ledger_balances where owner = 0 group by 1, 2`,
  );
  const totals = new Map<string, bigint>();
  for (const row of rowsOf(result)) {
    totals.set(`${String(row['book'])}|${String(row['asset'])}`, BigInt(String(row['total'])));
  }
  return totals;
}

/**
 * Compares the database with the model: every book of the run's accounts, the platform books
 * (their change since `platformAtStart`), the run's holds and transfer rows; then checkLedger.
 */
export async function verify(
  db: Database,
  model: LedgerModel,
  platformAtStart: Map<string, bigint>,
  now: Date,
  where: string,
): Promise<void> {
  const actual = await accountBalances(db, model.owners);
  for (const owner of model.owners) {
    for (const asset of ASSETS) {
      for (const book of BOOKS) {
        assert.equal(
          actual.get(owner)?.[asset][book],
          model.balance(customerBook(owner, book), asset),
          `${where}: account ${owner} ${book} ${asset}`,
        );
      }
    }
  }
  const platform = await platformTotals(db);
  for (const book of ['adjustments', 'fee_revenue', 'hot_wallet'] satisfies PlatformBook[]) {
    for (const asset of ASSETS) {
      const id = `${book}|${asset}`;
      assert.equal(
        (platform.get(id) ?? 0n) - (platformAtStart.get(id) ?? 0n),
        model.balance(platformBook(book), asset),
        `${where}: platform ${book} ${asset}`,
      );
    }
  }
  const holds = await db.execute(
    sql`select key, remaining::text as remaining, status from ledger_holds where key like ${`${model.prefix}:%`}`,
  );
  const holdRows = rowsOf(holds);
  assert.equal(holdRows.length, model.holds.size, `${where}: holds`);
  for (const row of holdRows) {
    const expected = model.holds.get(String(row['key']));
    assert.deepEqual(
      { key: row['key'], remaining: BigInt(String(row['remaining'])), status: row['status'] },
      { key: row['key'], remaining: expected?.remaining, status: expected?.status },
      `${where}: hold ${String(row['key'])}`,
    );
  }
  const counted = await db.execute(
    sql`select count(*)::int as n from ledger_transfers where key like ${`${model.prefix}:%`}`,
  );
  assert.equal(Number(rowsOf(counted)[0]?.['n']), model.keys.size, `${where}: transfer rows`);
  const check = await checkLedger(db, now);
  assert.ok(check.ok, `${where}: checkLedger ${JSON.stringify(check.violations)}`);
}

let runs = 0;

/**
 * Runs `ops` on fresh accounts (owners no earlier run used) against the ledger and the model:
 * each outcome must be the model's; the database is compared with the model every `verifyEvery`
 * steps and at the end. Returns the model (its tally says what the steps did).
 */
export async function runOps(
  db: Database,
  ops: readonly Op[],
  options: { verifyEvery: number; now?: Date; ownerBase?: number },
): Promise<LedgerModel> {
  runs += 1;
  const now = options.now ?? new Date('2026-11-23T08:00:00Z');
  const base = options.ownerBase ?? 1_000_000 + runs * ACCOUNTS;
  const owners = Array.from({ length: ACCOUNTS }, (_, index) => base + index);
  const model = new LedgerModel(`m${process.pid}-${runs}-${Date.now().toString(36)}`, owners);
  const platformAtStart = await platformTotals(db);
  let since = 0;
  for (const [step, op] of ops.entries()) {
    const call = model.resolve(op, step);
    if (!call) continue;
    const expected = model.expect(call);
    const actual = await execute(db, model, call, now);
    if (call.type === 'hold' && expected.outcome === 'hold') {
      // The model learns a new hold's id from the ledger; a repeat must answer the same id.
      const held = model.holds.get(call.input.key);
      if (held && expected.created && actual.outcome === 'hold') held.id = actual.id;
      expected.id = held?.id;
    }
    assert.deepEqual(actual, expected, `step ${step} ${JSON.stringify(op)}: the ledger answered otherwise`);
    model.history.push(call);
    const name = tallyName(actual);
    model.tally.set(name, (model.tally.get(name) ?? 0) + 1);
    since += 1;
    if (since >= options.verifyEvery) {
      since = 0;
      await verify(db, model, platformAtStart, now, `after step ${step} ${JSON.stringify(op)}`);
    }
  }
  await verify(db, model, platformAtStart, now, 'at the end');
  return model;
}

/** Adds one tally into another. */
export function addTally(into: Map<string, number>, from: ReadonlyMap<string, number>): void {
  for (const [name, count] of from) into.set(name, (into.get(name) ?? 0) + count);
}
