/**
 * Proof of reserves (docs/protocol.md §31): a snapshot of what every customer is owed, as the
 * leaves of a Merkle-sum tree (contract/reserves.ts) whose root's sums are the total liabilities,
 * beside what the chains hold. Taken by the daily `reserves-snapshot` job and on demand from the
 * console. Each customer can fetch their own leaf's secret and path and check it anywhere.
 */
import crypto from 'node:crypto';
import type { ReservesProof, ReservesSnapshot } from '../../contract/api/reserves.js';
import type { Chain } from '../../contract/constants.js';
import { levelsOf, leafOf, pathOf, rootOf, type SumNode } from '../../contract/reserves.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { rowIdOf } from '../core/params.js';
import type { Executor } from '../db/database.js';
import type { ChainReserve } from '../db/schema/reserves.js';
import { customerBalancesByUser } from '../ledger/ledger.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import {
  allUserIds,
  findSnapshot,
  insertLeaves,
  insertSnapshot,
  leafOfUser,
  leavesOf,
  snapshotsBefore,
  type ReserveLeafRow,
  type ReserveSnapshotRow,
} from '../repositories/reserves.repository.js';
import { ratioOf, type ReservesReader } from './dashboard.service.js';
import { actorOf } from './operator.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** The books each asset's liabilities count: USDT in cash, held and hosting; RAB in cash and held. */
const OWED: Record<string, ReadonlySet<string>> = {
  USDT: new Set(['cash', 'held', 'hosting']),
  RAB: new Set(['cash', 'held']),
};

/** What the chains held when read for a snapshot. */
export type ChainHoldings = Record<Chain, ChainReserve>;

/** A snapshot whose leaves do not add up to the ledger: never published. */
export class ReservesMismatchError extends Error {}

/** A uniformly random order (Fisher-Yates with the system's CSPRNG). */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let at = out.length - 1; at > 0; at -= 1) {
    const other = crypto.randomInt(at + 1);
    [out[at], out[other]] = [out[other] as T, out[at] as T];
  }
  return out;
}

const wire = (node: SumNode) => ({ hash: node.hash, usdt: String(node.usdt), rab: String(node.rab) });
const nodeOfRow = (row: ReserveLeafRow): SumNode => ({ hash: row.hash, usdt: row.usdt, rab: row.rab });

function toSnapshot(row: ReserveSnapshotRow): ReservesSnapshot {
  return {
    snapshotId: String(row.id),
    at: row.at.toISOString(),
    root: { hash: row.rootHash, usdt: String(row.usdt), rab: String(row.rab) },
    reserves: row.reserves,
    ratio: row.ratio,
    leafCount: row.leafCount,
  };
}

export class ProofOfReservesService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly reserves: ReservesReader,
  ) {
    super(core);
  }

  /** An operator's snapshot now (audited); the chains are read first, outside the transaction. */
  async takeNow(ctx: RequestContext): Promise<ReservesSnapshot> {
    const held = await this.chainHoldings();
    return this.commands.run(ctx, async (tx) => {
      const snapshot = await this.take(tx, actorOf(ctx), held);
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'reserves.snapshot',
        target: `reserves:${snapshot.snapshotId}`,
        detail: { usdt: snapshot.root.usdt, rab: snapshot.root.rab, leaves: snapshot.leafCount },
        at: this.clock.now(),
      });
      return snapshot;
    });
  }

  /**
   * Takes a snapshot in `tx`: every customer's liabilities (read in one statement, one snapshot of
   * the ledger), each a leaf with a new nonce, in a new random order, beside `chains` (read before
   * the transaction); the root's sums must equal
   * the ledger's customer totals, else it throws ReservesMismatchError and nothing is kept.
   */
  async take(tx: Executor, takenBy: string, chains: ChainHoldings): Promise<ReservesSnapshot> {
    const now = this.clock.now();
    const [rows, userIds] = [await customerBalancesByUser(tx), await allUserIds(tx)];
    const owed = new Map(userIds.map((id) => [id, { usdt: 0n, rab: 0n }]));
    const ledger = { usdt: 0n, rab: 0n };
    for (const row of rows) {
      const key = row.asset === 'USDT' ? 'usdt' : row.asset === 'RAB' ? 'rab' : null;
      if (key === null) continue;
      if (row.userId === null) ledger[key] += row.total;
      else if (OWED[row.asset]?.has(row.book)) {
        const user = owed.get(row.userId) ?? { usdt: 0n, rab: 0n };
        user[key] += row.total;
        owed.set(row.userId, user);
      }
    }
    const secrets = shuffled(
      [...owed].map(([userId, sums]) => ({ userId, nonce: crypto.randomBytes(32).toString('hex'), ...sums })),
    );
    const leaves = await Promise.all(secrets.map((secret) => leafOf(secret)));
    const root = rootOf(await levelsOf(leaves));
    if (root.usdt !== ledger.usdt || root.rab !== ledger.rab) {
      throw new ReservesMismatchError(
        `proof of reserves: the leaves sum to ${root.usdt} USDT and ${root.rab} RAB (minor units), the ledger's customers hold ${ledger.usdt} and ${ledger.rab}`,
      );
    }
    const held =
      (chains.BEP20 ? BigInt(chains.BEP20.usdt) : 0n) + (chains.TRC20 ? BigInt(chains.TRC20.usdt) : 0n);
    const snapshot = await insertSnapshot(tx, {
      at: now,
      rootHash: root.hash,
      usdt: root.usdt,
      rab: root.rab,
      leafCount: leaves.length,
      reserves: chains,
      ratio:
        root.usdt === 0n || (chains.BEP20 === null && chains.TRC20 === null)
          ? null
          : ratioOf(held, root.usdt),
      takenBy,
    });
    await insertLeaves(
      tx,
      secrets.map((secret, position) => ({
        snapshotId: snapshot.id,
        position,
        userId: secret.userId,
        nonce: secret.nonce,
        usdt: secret.usdt,
        rab: secret.rab,
        hash: leaves[position]?.hash ?? '',
      })),
    );
    return toSnapshot(snapshot);
  }

  /** The latest snapshot with every leaf, for anyone. */
  async latest() {
    const snapshot = await findSnapshot(this.db);
    if (!snapshot) throw notFound();
    const leaves = await leavesOf(this.db, snapshot.id);
    return { ...toSnapshot(snapshot), leaves: leaves.map((row) => wire(nodeOfRow(row))) };
  }

  /** The caller's leaf secret and path to the root in a snapshot (the latest by default). */
  async proof(ctx: RequestContext, params: { snapshotId?: string | undefined }): Promise<ReservesProof> {
    const userId = userIdOf(ctx);
    const id = params.snapshotId === undefined ? undefined : rowIdOf(params.snapshotId);
    if (id === null) throw notFound();
    const snapshot = await findSnapshot(this.db, id);
    const mine = snapshot ? await leafOfUser(this.db, snapshot.id, userId) : undefined;
    if (!snapshot || !mine) throw notFound();
    const levels = await levelsOf((await leavesOf(this.db, snapshot.id)).map(nodeOfRow));
    return {
      ...toSnapshot(snapshot),
      leaf: { nonce: mine.nonce, usdt: String(mine.usdt), rab: String(mine.rab) },
      path: pathOf(levels, mine.position).map((step) => ({ ...wire(step), side: step.side })),
    };
  }

  async history(params: { cursor?: string | undefined; limit?: number | undefined }) {
    const limit = params.limit ?? 20;
    const before = params.cursor === undefined ? undefined : (rowIdOf(params.cursor) ?? undefined);
    const rows = await snapshotsBefore(this.db, before, limit);
    return {
      items: rows.map(toSnapshot),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.id) : null,
    };
  }

  /** What each chain holds now: read before a snapshot's transaction opens (a network call). */
  async chainHoldings(): Promise<ChainHoldings> {
    return { BEP20: await this.#held('BEP20'), TRC20: await this.#held('TRC20') };
  }

  /** What a chain holds, or null when it cannot be read now (said in the log, never guessed). */
  async #held(chain: Chain): Promise<ChainReserve> {
    try {
      const read = await this.reserves(chain);
      return read === null
        ? null
        : { usdt: String(read.usdt), block: String(read.block), addresses: read.addresses };
    } catch (error) {
      this.logError(`proof of reserves: ${chain} holdings not read: ${String(error)}`);
      return null;
    }
  }
}
