/**
 * The sync protocol (CONTRACT.md "Sync"): every synced collection's record schema beside its
 * scope and Dexie index (contract/sync-layout.ts), and the pull's parameters and answer.
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
import { COLLECTION_NAMES, SYNC_LAYOUT, type CollectionName } from './sync-layout.js';
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

/** Each collection's record schema; its scope and index are in contract/sync-layout.ts. */
const RECORDS = {
  news: newsRecordSchema,
  notices: noticeRecordSchema,
  quotes: quoteRecordSchema,
  profile: profileRecordSchema,
  prices: priceRecordSchema,
  feedback: feedbackRecordSchema,
  identity: identityRecordSchema,
  accounts: accountRecordSchema,
  balances: balanceRecordSchema,
  records: walletRecordSchema,
  deposits: depositRecordSchema,
  withdrawals: withdrawalRecordSchema,
  exchanges: exchangeRecordSchema,
  delivery: deliveryRecordSchema,
  dividend_releases: dividendReleaseRecordSchema,
  hosting_orders: hostingOrderRecordSchema,
  hosting_changes: hostingChangeRecordSchema,
  income: incomeRecordSchema,
  machines: machineRecordSchema,
  owned_machines: ownedMachineRecordSchema,
  tickets: ticketRecordSchema,
  otc_orders: otcOrderSchema,
  otc_book: otcBookRecordSchema,
  chat_messages: chatMessageSchema,
  chat_reads: chatReadsRecordSchema,
} as const satisfies Record<CollectionName, z.ZodType<{ id: string }>>;

type Collections = { [C in CollectionName]: (typeof SYNC_LAYOUT)[C] & { record: (typeof RECORDS)[C] } };

/** Every synced collection: its scope, record schema and Dexie index. */
export const SYNC_COLLECTIONS = Object.fromEntries(
  COLLECTION_NAMES.map((name) => [name, { ...SYNC_LAYOUT[name], record: RECORDS[name] }]),
) as Collections; // built from the two literals, name by name

export { COLLECTION_NAMES, type CollectionName, type SyncScope } from './sync-layout.js';

/** Changes per collection in one pull answer; `hasMore` says another pull follows. */
export const PULL_PAGE_SIZE = 1000;

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
