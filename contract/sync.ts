/**
 * The sync protocol (CONTRACT.md "Sync"): every synced collection declared once, with its
 * record schema, scope, client database and Dexie index.
 * - public: anyone, no token (news, notices, quotes, prices) -> `coffer-public`
 * - user: the caller's own (profile, feedback, accounts) -> `coffer-u{user}`
 * - account: one account of the caller's, named by `accountId` -> `coffer-u{user}-a{account}`
 */
import { z } from 'zod';
import {
  feedbackRecordSchema,
  newsRecordSchema,
  noticeRecordSchema,
  profileRecordSchema,
  quoteRecordSchema,
} from './api/content.js';
import { idSchema } from './schema.js';
import {
  accountRecordSchema,
  balanceRecordSchema,
  priceRecordSchema,
  walletRecordSchema,
} from './api/account.js';
import { depositRecordSchema } from './api/recharge.js';
import { withdrawalRecordSchema } from './api/withdraw.js';
import { exchangeRecordSchema } from './api/exchange.js';
import { deliveryRecordSchema } from './api/delivery.js';
import { dividendReleaseRecordSchema } from './api/dividend.js';
import { hostingChangeRecordSchema, hostingOrderRecordSchema } from './api/hosting.js';
import { incomeRecordSchema } from './api/income.js';
import { machineRecordSchema, ownedMachineRecordSchema, ticketRecordSchema } from './api/machine.js';
import { otcBookRecordSchema, otcOrderSchema } from './api/otc.js';
import { identityRecordSchema } from './api/identity.js';
import { chatMessageSchema, chatReadsRecordSchema } from './api/chat.js';

export type SyncScope = 'public' | 'user' | 'account';

export interface CollectionSpec {
  scope: SyncScope;
  record: z.ZodType<{ id: string }>;
  /** Dexie's index string for the collection's table: primary key first. */
  index: string;
}

export const SYNC_COLLECTIONS = {
  news: { scope: 'public', record: newsRecordSchema, index: 'id, publishedAt' },
  notices: { scope: 'public', record: noticeRecordSchema, index: 'id, updatedAt' },
  quotes: { scope: 'public', record: quoteRecordSchema, index: 'id' },
  profile: { scope: 'user', record: profileRecordSchema, index: 'id' },
  prices: { scope: 'public', record: priceRecordSchema, index: 'id' },
  feedback: { scope: 'user', record: feedbackRecordSchema, index: 'id, createdAt, status' },
  /** The user's real-name verification: one record, its status and the masked number. */
  identity: { scope: 'user', record: identityRecordSchema, index: 'id' },
  accounts: { scope: 'user', record: accountRecordSchema, index: 'id, createdAt' },
  balances: { scope: 'account', record: balanceRecordSchema, index: 'id' },
  records: { scope: 'account', record: walletRecordSchema, index: 'id, createdAt, kind, [kind+createdAt]' },
  deposits: { scope: 'account', record: depositRecordSchema, index: 'id, detectedAt, status' },
  withdrawals: { scope: 'account', record: withdrawalRecordSchema, index: 'id, createdAt, status' },
  exchanges: { scope: 'account', record: exchangeRecordSchema, index: 'id, createdAt' },
  /** The platform's published trade settlements (not anyone's positions). */
  delivery: { scope: 'public', record: deliveryRecordSchema, index: 'id, closeTime' },
  /** AI dividend release records: one account's shares, to be claimed, claimed or expired. */
  dividend_releases: {
    scope: 'account',
    record: dividendReleaseRecordSchema,
    index: 'id, createdAt, status',
  },
  hosting_orders: { scope: 'account', record: hostingOrderRecordSchema, index: 'id, createdAt, status' },
  /** The operator-log: each change of an order's principal. */
  hosting_changes: { scope: 'account', record: hostingChangeRecordSchema, index: 'id, orderId, createdAt' },
  income: {
    scope: 'account',
    record: incomeRecordSchema,
    index: 'id, createdAt, type, status, [type+createdAt]',
  },
  /** The mining machines operators offer (disabled ones too: holdings still name them). */
  machines: { scope: 'public', record: machineRecordSchema, index: 'id, status' },
  /** The account's holdings of mining machines. */
  owned_machines: { scope: 'account', record: ownedMachineRecordSchema, index: 'id, createdAt, status' },
  tickets: { scope: 'account', record: ticketRecordSchema, index: 'id, createdAt, status' },
  /** The account's OTC orders, buys and sells, with their fills so far and what is still held. */
  otc_orders: { scope: 'account', record: otcOrderSchema, index: 'id, createdAt, side, status' },
  /** The open OTC book: every order still pending_match (one that closes is a delete). */
  otc_book: { scope: 'public', record: otcBookRecordSchema, index: 'id, side, price, createdAt' },
  /** The user's support conversation: its messages (internal notes never), by seq. */
  chat_messages: { scope: 'user', record: chatMessageSchema, index: 'id, seq, clientMsgId' },
  /** The conversation's read marks (one record, id = the user id): ticks and the unread count. */
  chat_reads: { scope: 'user', record: chatReadsRecordSchema, index: 'id' },
} as const satisfies Record<string, CollectionSpec>;

export type CollectionName = keyof typeof SYNC_COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(SYNC_COLLECTIONS) as CollectionName[]; // keys of the literal above

/** Changes per collection in one pull answer; `hasMore` says another pull follows. */
export const PULL_PAGE_SIZE = 200;

/** A cursor: `<txid>.<seq>` of the last change delivered; absent means from the start. */
export const cursorSchema = z.string().regex(/^\d{1,19}\.\d{1,19}$/, { error: 'server.field_invalid' });

export const pullParamsSchema = z.object({
  cursors: z
    .partialRecord(z.enum(COLLECTION_NAMES as [CollectionName, ...CollectionName[]]), cursorSchema)
    .default({}),
  accountId: idSchema.optional(),
});
export type PullParams = z.infer<typeof pullParamsSchema>;

const changesSchema = z.object({
  upserts: z.array(z.record(z.string(), z.unknown())),
  deletes: z.array(z.string()),
});
export const pullDataSchema = z.object({
  changes: z.partialRecord(z.string(), changesSchema),
  cursors: z.partialRecord(z.string(), z.string()),
  hasMore: z.boolean(),
});
export type PullData = z.infer<typeof pullDataSchema>;
