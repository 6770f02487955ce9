/**
 * Where a customer's pure reads run (DATABASE_READ_URL): on a streaming replica when it
 * has replayed the caller's last write, else on the primary. Read-your-writes: after a command a
 * user's write position (a primary WAL LSN at or after its commit) is remembered, and a read of
 * that user waits a bounded time for the replica to replay it. Without a replica every read runs
 * on the primary, with no added query.
 */
import type { Pool } from 'pg';
import type { Database } from './types.js';
import { closeRedis } from '../redis.js';

/**
 * Who reads, or who a command ran for: the routing needs only whether it is a signed-in user and
 * which (a request's caller fits). Anyone else's reads need only the floor.
 */
export interface Reader {
  readonly kind: string;
  readonly userId?: number;
}

/**
 * Tells an error a read throws as its answer (a business refusal: thrown as is) from replica
 * trouble (the read is run again on the primary).
 */
export type IsReadAnswer = (error: unknown) => boolean;

/**
 * The longest a read waits for the replica to replay its caller's last write. A replica on the
 * same network replays a commit within milliseconds; one still behind after a quarter second is
 * lagging, and the primary answers at once rather than keep a customer waiting.
 */
export const REPLAY_WAIT_MS = 250;
/** How often the replica's replay position is asked while a read waits (up to 25 times in the bound). */
const REPLAY_POLL_MS = 10;
/** After the replica fails (unreachable, an error), every read goes to the primary this long before it is tried again. */
const REPLICA_REST_MS = 1000;
/**
 * A user's write position in Redis lives this long: far longer than a healthy replica's lag, so
 * an instance that did not see the write still waits for it; short, so Redis holds one key per
 * recently active user.
 */
const WRITE_POSITION_TTL_SECONDS = 60;
/** In-process positions kept before those the replica has already replayed are dropped. */
const PRUNE_ABOVE = 10_000;

/** A PostgreSQL LSN (`16/B374D848`) as a number; undefined for anything else (a standby's null on a primary included). */
export function parseLsn(text: string | null | undefined): bigint | undefined {
  const match = text ? /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text) : null;
  if (!match?.[1] || !match[2]) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Counts of reads served by each database (tests and operators check that the replica works). */
export interface ReadCounts {
  replica: number;
  primary: number;
}

export interface ReadRouting {
  /** True when a replica is configured. */
  readonly replicated: boolean;
  readonly served: Readonly<ReadCounts>;
  /**
   * Runs `read` (pure reads only: it may run twice, the second time on the primary) for `caller`
   * on the replica when it has replayed the caller's last write within REPLAY_WAIT_MS, else on
   * the primary. Replica trouble never fails the read: it is run again on the primary. An error
   * that is the read's answer (IsReadAnswer, given at the start) is thrown as is.
   */
  read<T>(caller: Reader, read: (db: Database) => Promise<T>): Promise<T>;
  /**
   * After a command committed: remembers the write position of the user it wrote for (the
   * signed-in caller, or the user a sign-in or registration answered with). Never throws.
   */
  noteCommand(caller: Reader, answer: unknown): Promise<void>;
  /** Shares write positions between instances (Redis). */
  shareWritePositions(store: WritePositionStore): void;
  close(): Promise<void>;
}

/**
 * Write positions shared between API instances, by key: `<cluster>:<userId>`, the cluster being
 * the primary's system identifier, so that positions of another cluster (a Redis shared by two
 * deployments, or a test's cluster made afresh) never mix with this one's.
 */
export interface WritePositionStore {
  /** The newest shared position under `key`, or undefined when none is kept. May throw. */
  get(key: string): Promise<bigint | undefined>;
  /** Raises the position under `key` to `lsn` (never lowers it), for WRITE_POSITION_TTL_SECONDS. May throw. */
  raise(key: string, lsn: bigint): Promise<void>;
  close(): Promise<void>;
}

/** Every read on the one database: no replica, no added query. */
export function primaryOnly(db: Database): ReadRouting {
  const served: ReadCounts = { replica: 0, primary: 0 };
  return {
    replicated: false,
    served,
    read: (_caller, read) => {
      served.primary += 1;
      return read(db);
    },
    noteCommand: async () => undefined,
    shareWritePositions: () => undefined,
    close: async () => undefined,
  };
}

/** The user a command wrote for: the signed-in caller, or the user of a new session it answered with. */
function writerOf(caller: Reader, answer: unknown): number | undefined {
  if (caller.kind === 'user') return caller.userId;
  if (caller.kind !== 'anonymous' || typeof answer !== 'object' || answer === null) return undefined;
  const { userId, token } = answer as { userId?: unknown; token?: unknown }; // narrowed just below
  return typeof userId === 'string' && typeof token === 'string' && /^\d{1,15}$/.test(userId)
    ? Number(userId)
    : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `promise`'s outcome, or `timedOut` when it takes longer than `ms` (a rejection after that is swallowed). */
async function within<T, U>(promise: Promise<T>, ms: number, timedOut: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => undefined);
  try {
    return await Promise.race([
      promise,
      new Promise<U>((resolve) => {
        timer = setTimeout(() => resolve(timedOut), Math.max(ms, 0));
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const lsnTextOf = (result: { rows: Array<{ lsn?: unknown }> }) => {
  const value = result.rows[0]?.lsn;
  return typeof value === 'string' ? value : null;
};

/** Reads for customers on a streaming replica, with read-your-writes against the primary. */
export class ReplicaRouting implements ReadRouting {
  readonly replicated = true;
  readonly served: ReadCounts = { replica: 0, primary: 0 };
  /** Each user's newest write position noted by this instance. */
  readonly #positions = new Map<number, bigint>();
  /**
   * Users whose write committed but whose position could not be read (the primary failed just
   * then), with until when (ms since the epoch) this instance reads them from the primary.
   */
  readonly #unknown = new Map<number, number>();
  /** The highest replay position the replica has reported: a read needing no more runs there without asking. */
  #knownReplayed = 0n;
  /** Until when (ms since the epoch) the replica rests after a failure. */
  #restUntil = 0;
  #shared: WritePositionStore | undefined;

  /**
   * `floor`: the primary's position when this instance started, so a read never sees data older
   * than writes made (on any instance) before the start, whose positions this instance never saw.
   */
  private constructor(
    private readonly primary: { db: Database; pool: Pool },
    private readonly replica: { db: Database; pool: Pool },
    private readonly floor: bigint,
    /** The primary's system identifier: names this cluster's positions in the shared store. */
    private readonly cluster: string,
    private readonly isAnswer: IsReadAnswer,
  ) {}

  /** Reads the primary's current position as the floor. Throws when the primary cannot be reached. */
  static async start(
    primary: { db: Database; pool: Pool },
    replica: { db: Database; pool: Pool },
    isAnswer: IsReadAnswer,
  ): Promise<ReplicaRouting> {
    const floor = await ReplicaRouting.#writePosition(primary.pool);
    const system = await primary.pool.query<{ id: string }>(
      'select system_identifier::text as id from pg_control_system()',
    );
    return new ReplicaRouting(primary, replica, floor, system.rows[0]?.id ?? 'unknown', isAnswer);
  }

  /**
   * The primary's WAL insert position: at or after the end of every commit already acknowledged,
   * also under `synchronous_commit = off` (where the written position can still be behind it).
   */
  static async #writePosition(pool: Pool): Promise<bigint> {
    const lsn = parseLsn(lsnTextOf(await pool.query('select pg_current_wal_insert_lsn()::text as lsn')));
    if (lsn === undefined) throw new Error('the primary reported no WAL position');
    return lsn;
  }

  shareWritePositions(store: WritePositionStore): void {
    this.#shared = store;
  }

  async noteCommand(caller: Reader, answer: unknown): Promise<void> {
    const userId = writerOf(caller, answer);
    if (userId === undefined) return;
    let lsn: bigint;
    try {
      lsn = await ReplicaRouting.#writePosition(this.primary.pool);
    } catch {
      this.#unknown.set(userId, Date.now() + WRITE_POSITION_TTL_SECONDS * 1000);
      return;
    }
    this.#remember(userId, lsn);
    if (this.#shared) {
      // Bounded, and never fails the command: when Redis is slow or down, its failure also sends
      // other instances' reads of this user to the primary (see #required).
      const raised = this.#shared.raise(`${this.cluster}:${userId}`, lsn).catch(() => undefined);
      await within(raised, REPLAY_WAIT_MS, undefined);
    }
  }

  async read<T>(caller: Reader, read: (db: Database) => Promise<T>): Promise<T> {
    if (await this.#replicaServes(caller)) {
      try {
        const result = await read(this.replica.db);
        this.served.replica += 1;
        return result;
      } catch (error) {
        if (this.isAnswer(error)) throw error;
        this.#rest(); // a stopped replica, a query cancelled by replay conflict: the primary answers
      }
    }
    this.served.primary += 1;
    return read(this.primary.db);
  }

  async close(): Promise<void> {
    await this.#shared?.close().catch(() => undefined);
    await this.replica.pool.end().catch(() => undefined);
  }

  #remember(userId: number, lsn: bigint): void {
    if ((this.#positions.get(userId) ?? 0n) < lsn) this.#positions.set(userId, lsn);
    if (this.#positions.size > PRUNE_ABOVE) {
      for (const [id, position] of this.#positions) {
        if (position <= this.#knownReplayed) this.#positions.delete(id);
      }
    }
  }

  #rest(): void {
    this.#restUntil = Date.now() + REPLICA_REST_MS;
  }

  /** The position the replica must have replayed for `caller`; undefined when it cannot be known in time. */
  async #required(caller: Reader, deadline: number): Promise<bigint | undefined> {
    const userId = caller.kind === 'user' ? caller.userId : undefined;
    if (userId === undefined) return this.floor;
    const unknownUntil = this.#unknown.get(userId);
    if (unknownUntil !== undefined) {
      if (Date.now() < unknownUntil) return undefined;
      this.#unknown.delete(userId);
    }
    let required = this.floor;
    const local = this.#positions.get(userId);
    if (local !== undefined && local > required) required = local;
    if (this.#shared) {
      const shared = await within(
        this.#shared.get(`${this.cluster}:${userId}`).then(
          (value) => ({ value }),
          () => null,
        ),
        deadline - Date.now(),
        null,
      );
      if (shared === null) return undefined; // Redis did not answer: another instance's write may be unseen
      if (shared.value !== undefined && shared.value > required) required = shared.value;
    }
    return required;
  }

  /** True when the replica has replayed what `caller` must see, waiting up to REPLAY_WAIT_MS. */
  async #replicaServes(caller: Reader): Promise<boolean> {
    if (Date.now() < this.#restUntil) return false;
    const deadline = Date.now() + REPLAY_WAIT_MS;
    const required = await this.#required(caller, deadline);
    if (required === undefined) return false;
    if (required <= this.#knownReplayed) return true;
    for (;;) {
      const replayed = await within(
        this.replica.pool.query('select pg_last_wal_replay_lsn()::text as lsn').then(
          (result) => parseLsn(lsnTextOf(result)) ?? null, // null: not a standby (promoted?), never read
          () => 'failed' as const,
        ),
        deadline - Date.now(),
        'late' as const,
      );
      if (replayed === 'failed' || replayed === null) {
        this.#rest();
        return false;
      }
      if (replayed === 'late') return false;
      if (replayed > this.#knownReplayed) this.#knownReplayed = replayed;
      if (replayed >= required) return true;
      if (Date.now() + REPLAY_POLL_MS >= deadline) return false;
      await sleep(REPLAY_POLL_MS);
    }
  }
}

/**
 * Write positions in Redis (REDIS_URL): key `coffer:lsn:<cluster>:<userId>`, the LSN as 16 hex
 * digits so that Redis compares them as strings; a raise never lowers a position another
 * instance set.
 */
export async function redisWritePositions(url: string, prefix = 'coffer:lsn:'): Promise<WritePositionStore> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
  await redis.connect();
  const raiseScript = `
    local current = redis.call('GET', KEYS[1])
    if (not current) or current < ARGV[1] then
      redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
    else
      redis.call('EXPIRE', KEYS[1], ARGV[2])
    end
    return 1`;
  // While disconnected, ioredis would queue a command until it reconnects: fail at once instead
  // (the caller then reads the primary) rather than wait out the bound on every read.
  const ready = () => {
    if (redis.status !== 'ready') throw new Error(`Redis is ${redis.status}`);
  };
  return {
    async get(key) {
      ready();
      const value = await redis.get(prefix + key);
      return value !== null && /^[0-9a-f]{16}$/.test(value) ? BigInt(`0x${value}`) : undefined;
    },
    async raise(key, lsn) {
      ready();
      const text = lsn.toString(16).padStart(16, '0');
      await redis.eval(raiseScript, 1, prefix + key, text, WRITE_POSITION_TTL_SECONDS);
    },
    async close() {
      await closeRedis(redis);
    },
  };
}
