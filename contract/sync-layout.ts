/**
 * The synced collections' names, scopes and Dexie indexes (CONTRACT.md "Sync"), without their
 * record schemas (contract/sync.ts): what the app's main thread needs to open its databases, so
 * its first page loads no validation library (the worker validates every record it writes).
 * - public: anyone, no token (news, notices, quotes, prices) -> `coffer-public`
 * - user: the caller's own (profile, feedback, accounts) -> `coffer-u{user}`
 * - account: one account of the caller's, named by `accountId` -> `coffer-u{user}-a{account}`
 */

export type SyncScope = 'public' | 'user' | 'account';

export interface CollectionLayout {
  scope: SyncScope;
  /** Dexie's index string for the collection's table: primary key first. */
  index: string;
}

export const SYNC_LAYOUT = {
  news: { scope: 'public', index: 'id, publishedAt' },
  notices: { scope: 'public', index: 'id, updatedAt' },
  quotes: { scope: 'public', index: 'id' },
  profile: { scope: 'user', index: 'id' },
  prices: { scope: 'public', index: 'id' },
  feedback: { scope: 'user', index: 'id, createdAt, status' },
  /** The user's real-name verification: one record, its status and the masked number. */
  identity: { scope: 'user', index: 'id' },
  accounts: { scope: 'user', index: 'id, createdAt' },
  balances: { scope: 'account', index: 'id' },
  records: { scope: 'account', index: 'id, createdAt, kind, [kind+createdAt]' },
  deposits: { scope: 'account', index: 'id, detectedAt, status' },
  withdrawals: { scope: 'account', index: 'id, createdAt, status' },
  exchanges: { scope: 'account', index: 'id, createdAt' },
  /** The platform's published trade settlements (not anyone's positions). */
  delivery: { scope: 'public', index: 'id, closeTime' },
  /** AI dividend release records: one account's shares, to be claimed, claimed or expired. */
  dividend_releases: { scope: 'account', index: 'id, createdAt, status' },
  hosting_orders: { scope: 'account', index: 'id, createdAt, status' },
  /** The operator-log: each change of an order's principal. */
  hosting_changes: { scope: 'account', index: 'id, orderId, createdAt' },
  income: { scope: 'account', index: 'id, createdAt, type, status, [type+createdAt]' },
  /** The mining machines operators offer (disabled ones too: holdings still name them). */
  machines: { scope: 'public', index: 'id, status' },
  /** The account's holdings of mining machines. */
  owned_machines: { scope: 'account', index: 'id, createdAt, status' },
  tickets: { scope: 'account', index: 'id, createdAt, status' },
  /** The account's OTC orders, buys and sells, with their fills so far and what is still held. */
  otc_orders: { scope: 'account', index: 'id, createdAt, side, status' },
  /** The open OTC book: every order still pending_match (one that closes is a delete). */
  otc_book: { scope: 'public', index: 'id, side, price, createdAt' },
  /** The user's support conversation: its messages (internal notes never), by seq. */
  chat_messages: { scope: 'user', index: 'id, seq, clientMsgId' },
  /** The conversation's read marks (one record, id = the user id): ticks and the unread count. */
  chat_reads: { scope: 'user', index: 'id' },
} as const satisfies Record<string, CollectionLayout>;

export type CollectionName = keyof typeof SYNC_LAYOUT;
export const COLLECTION_NAMES = Object.keys(SYNC_LAYOUT) as CollectionName[]; // keys of the literal above
