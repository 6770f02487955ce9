/**
 * The synced databases (CONTRACT.md "The client's own storage"), declared once from
 * contract/sync-layout.ts: `coffer-public` holds the public collections, `coffer-u{user}` the user's
 * own collections (the accounts among them), the outbox, the lease and the local caches, and
 * `coffer-u{user}-a{account}` one account's collections (balances, wallet records, deposits) and
 * its local `depositAddresses`. Each database has a `cursors` table, so a collection's records and
 * its cursor always change in one transaction. Every table and version is declared here and
 * nowhere else (`coffer-session` is `session-db.ts`).
 *
 * Only the worker writes (the engine through sync/dexie-storage.ts, the caches through
 * `caches/`); the UI reads through `use-sync-db.ts`.
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import type { z } from 'zod';
import type { PaymentMethod } from '../contract/api/payment.js';
import type { HostingConfigData } from '../contract/api/hosting.js';
import type { RechargeAddressData } from '../contract/api/recharge.js';
import type { ReservesProof, ReservesSnapshot } from '../contract/api/reserves.js';
import type { SYNC_COLLECTIONS } from '../contract/sync.js';
import {
  COLLECTION_NAMES,
  SYNC_LAYOUT,
  type CollectionName,
  type SyncScope,
} from '../contract/sync-layout.js';
import type { StoredRecord } from '../sync/commands.js';

export const PUBLIC_DB_NAME = 'coffer-public';

/** `coffer-u{userId}`. Pure. */
export function userDbName(userId: string): string {
  return `coffer-u${userId}`;
}

/** `coffer-u{userId}-a{accountId}`: the account-scoped collections of one account. Pure. */
export function accountDbName(userId: string, accountId: string): string {
  return `coffer-u${userId}-a${accountId}`;
}

/**
 * The Dexie schema version of the synced databases. Bump it (and keep the old declaration when a
 * migration is needed) whenever SYNC_LAYOUT changes a collection or its index.
 * 2: `prices` in `coffer-public`, `accounts` in `coffer-u{user}`, the account databases. Only
 * tables were added, which Dexie does without an upgrade function.
 * 3: `deposits` and the local `depositAddresses` in the account databases. Only tables were added.
 * 4: the local `paymentMethods` in the user database. Only a table was added.
 * 5: `withdrawals` and `exchanges` in the account databases. Only tables were added.
 * 6: `delivery` in `coffer-public`. Only a table was added.
 * 7: `hosting_orders`, `hosting_changes` and `income` in the account databases. Only tables were
 * added.
 * 8: `dividend_releases` in the account databases. Only a table was added.
 * 9: the local `hostingConfig` in the user database. Only a table was added.
 * 10: `machines` in `coffer-public`, `owned_machines` and `tickets` in the account databases. Only
 * tables were added.
 * 11: `otc_book` in `coffer-public`, `otc_orders` in the account databases. Only tables were added.
 * 12: the local `teamCache` in the user database (the Team tab's answers). Only a table was added.
 * 13: `otc_book` records gained `takerFeeRate` (the Trading tab's fee): the upgrade empties
 * `otc_book` and forgets its cursor, so the open book is pulled whole again with the field.
 * 14: `identity` in the user database (the real-name record). Only a table was added.
 * 15: the local `reservesProof` in the user database (the proof-of-reserves page's kept proof).
 * Only a table was added.
 * 16: `chat_messages` and `chat_reads` in the user database (the support conversation), and the
 * local `chatState` (the chat/info answer, the read mark not yet sent) and `chatImages` (the
 * conversation's images, kept so the room shows them offline). Only tables were added.
 */
export const SYNC_DB_VERSION = 16;

type ScopeOf<C extends CollectionName> = (typeof SYNC_LAYOUT)[C]['scope'];
/** The collections of one scope, e.g. `CollectionIn<'public'>` = news | notices | quotes. */
type CollectionIn<S extends SyncScope> = {
  [C in CollectionName]: ScopeOf<C> extends S ? C : never;
}[CollectionName];
/** A collection's record as its schema parses it. */
type RecordOf<C extends CollectionName> = z.infer<(typeof SYNC_COLLECTIONS)[C]['record']>;
type CollectionTables<S extends SyncScope> = { [C in CollectionIn<S>]: EntityTable<RecordOf<C>, 'id'> };

/** A collection's sync state: the cursor of the last change applied, and when it was last complete. */
export interface CursorRecord {
  collection: string;
  cursor: string;
  /** ISO time of the last pull that left this collection caught up; null before the first. */
  syncedAt: string | null;
}

/** The outbox sender's lease: which tab sends, and when it last said it is alive. */
export interface LeaseRecord {
  id: 'lease';
  owner: string;
  beatAtMs: number;
}

/** Set when a send got 401: sending waits for a session with another token (the user's new login). */
export interface PauseRecord {
  id: 'pause';
  token: string;
  atMs: number;
}

type MetaRecord = LeaseRecord | PauseRecord;

/**
 * The account's deposit address on one chain as /api/v1/recharge/address last answered it, kept
 * so the recharge page shows it offline. Local: never synced, written by the worker's
 * `recharge-address` handler only (one row per chain), deleted with the account's database.
 */
export interface DepositAddressRecord extends RechargeAddressData {
  /** ISO time the server gave this answer. */
  fetchedAt: string;
}

/**
 * A withdrawal method as /api/v1/user/payment-list last answered it, kept so the withdrawal
 * methods page shows the list offline. Local: never synced, replaced whole by the worker's
 * `payment-list` handler only, deleted with the user's database.
 */
export interface PaymentMethodRecord extends PaymentMethod {
  /** ISO time the server gave the list this row came with. */
  fetchedAt: string;
}

/**
 * The hosting products and terms as /api/v1/hosting/hosting-config last answered them, kept so the
 * Hosting tab shows them offline with their age. Local: never synced, one row (`id` 'current'),
 * replaced whole by the worker's `hosting-config` handler only, deleted with the user's database.
 */
export interface HostingConfigRecord extends HostingConfigData {
  id: 'current';
  /** The language the product names are in (the request's `lang`). */
  locale: string;
  /** ISO time the server gave this answer. */
  fetchedAt: string;
}

/** What the Team tab keeps: teamInfo, myLevel, levelConfig and each generation's first page. */
export const TEAM_CACHE_IDS = ['info', 'my-level', 'levels', 'members-1', 'members-2'] as const;
export type TeamCacheId = (typeof TEAM_CACHE_IDS)[number];

/**
 * One of the team's answers as the server last gave it, kept so the Team tab shows it offline with
 * its age. Local: never synced, written by the worker's team handlers only (one row per id,
 * replaced whole), deleted with the user's database. `data` is parsed by its id's schema when read.
 */
interface TeamCacheRecord {
  id: TeamCacheId;
  data: unknown;
  /** ISO time the server gave this answer. */
  fetchedAt: string;
}

/**
 * The caller's proof of reserves as /api/v1/reserves/proof last answered it (kept exactly as the
 * server gave it, so the page downloads it unchanged), with its snapshot's summary from
 * /api/v1/reserves/history (null when that could not be read), kept so the proof-of-reserves page
 * shows and verifies it offline with its age. Local: never synced, one row (`id` 'latest'),
 * replaced whole by the worker's `reserves-proof` handler only, deleted with the user's database.
 */
export interface ReservesProofRecord {
  id: 'latest';
  /** Every field the server gave, those the contract does not name too. */
  proof: ReservesProof & Record<string, unknown>;
  snapshot: ReservesSnapshot | null;
  /** ISO time the server gave this answer. */
  fetchedAt: string;
}

/**
 * The chat's local rows (`chatState`, one per id): the support entry's `/api/v1/chat/info` answer
 * as last given (`info`), and the customer's read mark this device holds but may not have sent
 * yet (`read`). Local: never synced, written by the worker's chat handlers only. `data` is parsed
 * by its id's schema when read (client-db/caches/chat.ts).
 */
export interface ChatStateRecord {
  id: 'info' | 'read';
  data: unknown;
  /** ISO time of the answer or the mark. */
  at: string;
}

/**
 * One image of the conversation, read with the session's token and kept as a data: URL (the
 * app's CSP allows data: images, not blob:) so the room shows it offline. Local: written by the
 * worker's `chat-image` handler only, the oldest dropped beyond a bound.
 */
export interface ChatImageRecord {
  /** The upload URL (`/api/v1/common/img/<id>`). */
  url: string;
  dataUrl: string;
  fetchedAtMs: number;
}

export type AccountDb = Dexie &
  CollectionTables<'account'> & {
    cursors: EntityTable<CursorRecord, 'collection'>;
    depositAddresses: EntityTable<DepositAddressRecord, 'chain'>;
  };

export type PublicDb = Dexie &
  CollectionTables<'public'> & {
    cursors: EntityTable<CursorRecord, 'collection'>;
  };

/** `R`: the outbox's rows as the reader types them (the UI: the worker's precise union). */
export type UserDb<R extends StoredRecord = StoredRecord> = Dexie &
  CollectionTables<'user'> & {
    cursors: EntityTable<CursorRecord, 'collection'>;
    outbox: EntityTable<R, 'id'>;
    meta: Table<MetaRecord, MetaRecord['id']>;
    paymentMethods: EntityTable<PaymentMethodRecord, 'id'>;
    hostingConfig: EntityTable<HostingConfigRecord, 'id'>;
    teamCache: EntityTable<TeamCacheRecord, 'id'>;
    reservesProof: EntityTable<ReservesProofRecord, 'id'>;
    chatState: EntityTable<ChatStateRecord, 'id'>;
    chatImages: EntityTable<ChatImageRecord, 'url'>;
  };

/** The tables a database holds beside its synced collections; none of them is ever pulled or pushed. */
const OWN_TABLES = {
  cursors: 'collection',
  outbox: 'id, seq, state, resource',
  meta: 'id',
  depositAddresses: 'chain',
  paymentMethods: 'id, createdAt',
  hostingConfig: 'id',
  teamCache: 'id',
  reservesProof: 'id',
  chatState: 'id',
  chatImages: 'url, fetchedAtMs',
} as const;

function storesOf(scope: SyncScope, own: ReadonlyArray<keyof typeof OWN_TABLES>): Record<string, string> {
  const stores: Record<string, string> = {};
  for (const name of COLLECTION_NAMES) {
    if (Object.hasOwn(OWN_TABLES, name))
      throw new Error(`collection name clashes with a sync table: ${name}`);
    if (SYNC_LAYOUT[name].scope === scope) stores[name] = SYNC_LAYOUT[name].index;
  }
  for (const table of own) stores[table] = OWN_TABLES[table];
  return stores;
}

/** Dexie stores of `coffer-public`, from SYNC_LAYOUT. */
export const PUBLIC_DB_STORES = storesOf('public', ['cursors']);
/** Dexie stores of `coffer-u{user}`, from SYNC_LAYOUT, plus the outbox, its lease, the cached withdrawal methods, hosting products, team answers, proof of reserves and the chat's local rows and images. */
export const USER_DB_STORES = storesOf('user', [
  'cursors',
  'outbox',
  'meta',
  'paymentMethods',
  'hostingConfig',
  'teamCache',
  'reservesProof',
  'chatState',
  'chatImages',
]);
/** Dexie stores of `coffer-u{user}-a{account}`, from SYNC_LAYOUT, plus the cached deposit addresses. */
export const ACCOUNT_DB_STORES = storesOf('account', ['cursors', 'depositAddresses']);

/** The collections each database holds. */
export const PUBLIC_COLLECTIONS = COLLECTION_NAMES.filter((name) => SYNC_LAYOUT[name].scope === 'public');
export const USER_COLLECTIONS = COLLECTION_NAMES.filter((name) => SYNC_LAYOUT[name].scope === 'user');
export const ACCOUNT_COLLECTIONS = COLLECTION_NAMES.filter((name) => SYNC_LAYOUT[name].scope === 'account');

/** Opens (lazily, on first use) a handle on `coffer-public`. Never throws here. */
export function openPublicDb(): PublicDb {
  const db = new Dexie(PUBLIC_DB_NAME) as PublicDb; // Dexie's documented typing pattern for declared tables
  db.version(13)
    .stores(PUBLIC_DB_STORES)
    .upgrade(async (tx) => {
      await tx.table('otc_book').clear();
      await tx.table('cursors').delete('otc_book');
    });
  db.version(SYNC_DB_VERSION).stores(PUBLIC_DB_STORES);
  return db;
}

/** Opens (lazily, on first use) a handle on `coffer-u{userId}`. Never throws here. */
export function openUserDb<R extends StoredRecord = StoredRecord>(userId: string): UserDb<R> {
  const db = new Dexie(userDbName(userId)) as UserDb<R>; // Dexie's documented typing pattern for declared tables
  db.version(SYNC_DB_VERSION).stores(USER_DB_STORES);
  return db;
}

/** Opens (lazily, on first use) a handle on `coffer-u{userId}-a{accountId}`. Never throws here. */
export function openAccountDb(userId: string, accountId: string): AccountDb {
  const db = new Dexie(accountDbName(userId, accountId)) as AccountDb; // Dexie's documented typing pattern for declared tables
  db.version(SYNC_DB_VERSION).stores(ACCOUNT_DB_STORES);
  return db;
}
