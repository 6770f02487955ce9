/**
 * Proof of reserves over the API (docs/protocol.md §31): a snapshot's root owes exactly what the
 * ledger's customers hold and each customer's leaf what their accounts hold (USDT cash + held +
 * hosting, RAB cash + held); every customer's proof verifies with an independent verifier written
 * here and with `npm run verify-proof`, a tampered one does not; the latest snapshot and its
 * leaves are public; a snapshot that does not add up is refused and keeps nothing; a negative leaf
 * cannot be stored.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatMoney, minor, parseMoney } from '../../contract/money.js';
import { ledgerBalances, reserveLeaves, reserveSnapshots } from '../../server/db/schema.js';
import { ReservesMismatchError } from '../../server/services/proof-of-reserves.service.js';
import { availableTiers } from '../helpers/database.js';
import { ok, readyOperator, type ReadyOperator } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { withdrawFixtures } from '../helpers/withdraw.js';

const tiers = await availableTiers('reserves');
const run = promisify(execFile);

interface Node {
  hash: string;
  usdt: string;
  rab: string;
}
interface Proof {
  snapshotId: string;
  at: string;
  root: Node;
  leaf: { nonce: string; usdt: string; rab: string };
  path: Array<Node & { side: 'left' | 'right' }>;
}

/** The published rules alone, with node:crypto: does the path reach the root? */
function independentlyVerified(proof: Proof): boolean {
  const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
  let node = {
    hash: sha(`leaf|${proof.leaf.nonce}|${proof.leaf.usdt}|${proof.leaf.rab}`),
    usdt: BigInt(proof.leaf.usdt),
    rab: BigInt(proof.leaf.rab),
  };
  for (const step of proof.path) {
    const sibling = { hash: step.hash, usdt: BigInt(step.usdt), rab: BigInt(step.rab) };
    const [left, right] = step.side === 'left' ? [sibling, node] : [node, sibling];
    const usdt = left.usdt + right.usdt;
    const rab = left.rab + right.rab;
    node = { hash: sha(`node|${left.hash}|${right.hash}|${usdt}|${rab}`), usdt, rab };
  }
  return (
    node.hash === proof.root.hash &&
    String(node.usdt) === proof.root.usdt &&
    String(node.rab) === proof.root.rab
  );
}

const units = (amount: string) => String(parseMoney(amount));

describe.each(tiers)('proof of reserves on %s', (tier) => {
  let t: TestServer;
  let finance: ReadyOperator;
  let financeEmail = '';
  const f = withdrawFixtures(() => t);
  const customers: Array<{ token: string; userId: string; accountId: string }> = [];

  beforeAll(async () => {
    t = await startTestServer(tier);
    finance = await readyOperator(t, 'por-finance@coffer.test', 'finance');
    [financeEmail] = await f.operators('por');
    // Three customers: USDT and RAB in cash, one with a withdrawal held, one with nothing.
    const rich = await f.readyUser('por-rich@coffer.test');
    await f.fund(financeEmail, rich.accountId, '1500.25');
    ok(
      await finance.call('/api/admin/ledger/adjust', {
        accountId: rich.accountId,
        asset: 'RAB',
        amount: '40.5',
        reason: 'test funding',
      }),
      'rab',
    );
    f.toMorning();
    expect((await f.withdraw(rich, '100')).code).toBe(200); // 101 held with its fee
    customers.push(rich);
    const small = await t.register('plain', 'por-small@coffer.test');
    const smallAccount = (
      await t.call<{ items: Array<{ id: string }> }>(
        'plain',
        '/api/v1/account/list',
        {},
        { token: small.token },
      )
    ).data.items[0]?.id;
    await f.fund(financeEmail, smallAccount ?? '', '0.000001');
    customers.push({ ...small, accountId: smallAccount ?? '' });
    const empty = await t.register('plain', 'por-empty@coffer.test');
    customers.push({ ...empty, accountId: '' });
  });
  afterAll(async () => {
    await t.close();
  });

  const snapshot = async () =>
    ok(
      await finance.call<{ snapshotId: string; root: Node; leafCount: number }>(
        '/api/admin/reserves/snapshot',
        {},
      ),
      'snapshot',
    );
  const proofOf = async (token: string, snapshotId?: string) =>
    ok(
      await t.call<Proof>('plain', '/api/v1/reserves/proof', snapshotId ? { snapshotId } : {}, {
        token,
        lang: 'EN',
      }),
      'proof',
    );
  const owedTo = async (customer: { token: string; accountId: string }) => {
    if (!customer.accountId) return { usdt: '0', rab: '0' };
    const assets = (
      await t.call<{ cash: string; held: string; hosting: string; rab: string; rabHeld: string }>(
        'plain',
        '/api/v1/user/assets',
        { accountId: customer.accountId },
        { token: customer.token },
      )
    ).data;
    const sum = (...amounts: string[]) =>
      String(amounts.reduce((total, amount) => total + parseMoney(amount), 0n));
    return { usdt: sum(assets.cash, assets.held, assets.hosting), rab: sum(assets.rab, assets.rabHeld) };
  };

  test("the root owes what the ledger's customers hold; each leaf is what its customer's accounts hold; every proof verifies independently", async () => {
    const taken = await snapshot();
    const totals = await t.server.database.db
      .select({ asset: ledgerBalances.asset, total: sql<string>`sum(${ledgerBalances.balance})::text` })
      .from(ledgerBalances)
      .where(sql`${ledgerBalances.owner} <> 0`)
      .groupBy(ledgerBalances.asset);
    const ledger = Object.fromEntries(totals.map((row) => [row.asset, row.total]));
    expect({ usdt: taken.root.usdt, rab: taken.root.rab }).toEqual({
      usdt: ledger['USDT'],
      rab: ledger['RAB'],
    });
    expect(taken.root.usdt).toBe(units('1500.250001')); // 1399.25 cash + 101 held, and one minor unit
    for (const customer of customers) {
      const proof = await proofOf(customer.token);
      expect(proof.snapshotId).toBe(taken.snapshotId);
      expect({ usdt: proof.leaf.usdt, rab: proof.leaf.rab }).toEqual(await owedTo(customer));
      expect(proof.leaf.nonce).toMatch(/^[0-9a-f]{64}$/);
      expect(independentlyVerified(proof)).toBe(true);
    }
    await f.expectLedgerOk(financeEmail);
  });

  test("the latest snapshot is public: its leaves hold each proof's leaf, in a new order with new nonces each time", async () => {
    const first = await snapshot();
    const second = await snapshot();
    const latest = ok(
      await t.call<{
        snapshotId: string;
        leaves: Node[];
        reserves: Record<string, unknown>;
        ratio: string | null;
      }>('plain', '/api/v1/reserves/latest', {}),
      'latest',
    );
    expect(latest.snapshotId).toBe(second.snapshotId);
    expect(Object.keys(latest.reserves).sort()).toEqual(['BEP20', 'TRC20']);
    const mine = await proofOf(customers[0]?.token ?? '');
    const older = await proofOf(customers[0]?.token ?? '', first.snapshotId);
    expect(mine.leaf.nonce).not.toBe(older.leaf.nonce);
    const leafHash = crypto
      .createHash('sha256')
      .update(`leaf|${mine.leaf.nonce}|${mine.leaf.usdt}|${mine.leaf.rab}`)
      .digest('hex');
    expect(latest.leaves.map((leaf) => leaf.hash)).toContain(leafHash);
    const history = ok(
      await t.call<{ items: Array<{ snapshotId: string }> }>('plain', '/api/v1/reserves/history', {}),
      'history',
    );
    expect(history.items.slice(0, 2).map((item) => item.snapshotId)).toEqual([
      second.snapshotId,
      first.snapshotId,
    ]);
  });

  test('npm run verify-proof says verified for a downloaded proof (exit 0) and not for one changed by one minor unit (exit 1)', async () => {
    const proof = await proofOf(customers[0]?.token ?? '');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-proof-'));
    const good = path.join(dir, 'proof.json');
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(good, JSON.stringify(proof));
    fs.writeFileSync(
      bad,
      JSON.stringify({ ...proof, leaf: { ...proof.leaf, usdt: String(BigInt(proof.leaf.usdt) + 1n) } }),
    );
    const tsx = path.resolve('node_modules/.bin/tsx');
    const verified = await run(tsx, ['server/cli/verify-proof.ts', good]);
    expect(verified.stdout).toMatch(/^verified: /m);
    const refused = await run(tsx, ['server/cli/verify-proof.ts', bad]).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect('code' in refused ? refused.code : 0).toBe(1);
    expect(refused.stdout).toMatch(/NOT verified/);
  }, 60_000);

  test('a snapshot whose leaves do not add up to the ledger is refused and keeps nothing; a negative leaf cannot be stored', async () => {
    const db = t.server.database.db;
    const count = async () => (await db.select().from(reserveSnapshots)).length;
    const before = await count();
    const rollback = new Error('rollback');
    await expect(
      db.transaction(async (tx) => {
        // A customer balance whose account names no user: the ledger's total owes it, no leaf does.
        await tx.execute(
          sql`insert into ledger_balances (owner, book, asset, slot, balance) values (987654321, 'cash', 'USDT', 0, 5)`,
        );
        await expect(
          t.server.services.proofOfReserves.take(tx, 'test', { BEP20: null, TRC20: null }),
        ).rejects.toThrow(ReservesMismatchError);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await count()).toBe(before);

    const [any] = await db.select().from(reserveSnapshots);
    if (!any) throw new Error('no snapshot');
    await expect(
      db.insert(reserveLeaves).values({
        snapshotId: any.id,
        position: 99_999,
        userId: 1,
        nonce: 'n',
        usdt: -1n,
        rab: 0n,
        hash: 'h',
      }),
    ).rejects.toThrow();
    expect(formatMoney(minor(1n))).toBe('0.000001');
  });

  test('a customer has no proof in a snapshot taken before they registered, and an unknown snapshot is a 404', async () => {
    const taken = await snapshot();
    const late = await t.register('plain', 'por-late@coffer.test');
    const answer = await t.call(
      'plain',
      '/api/v1/reserves/proof',
      { snapshotId: taken.snapshotId },
      { token: late.token, lang: 'EN', key: newKey() },
    );
    expect(answer.code).toBe(404);
    const unknown = await t.call(
      'plain',
      '/api/v1/reserves/proof',
      { snapshotId: '999999' },
      { token: customers[0]?.token ?? '' },
    );
    expect(unknown.code).toBe(404);
  });
});
