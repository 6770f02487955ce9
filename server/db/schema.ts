/**
 * The one database schema (PostgreSQL dialect) for PGlite and PostgreSQL alike.
 * Migrations under ./migrations are generated from it with `npm run db:generate`.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Lower-cased: addresses compare case-insensitively, one account per address. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    nickname: text('nickname').notNull(),
    avatar: text('avatar').notNull(),
    inviteCode: text('invite_code').notNull(),
    referrerId: bigint('referrer_id', { mode: 'number' }),
    lang: text('lang').notNull(),
    kycStatus: text('kyc_status').notNull().default('not_verified'),
    tradePasswordHash: text('trade_password_hash'),
    /** The bound authenticator's TOTP secret, AES-256-GCM under COFFER_SECRET_KEY (server/security/secret-box.ts). */
    authenticatorSecret: text('authenticator_secret'),
    /** The latest secret shown by getGoogle2Fa, encrypted like the bound one, until it is bound. */
    authenticatorPendingSecret: text('authenticator_pending_secret'),
    /** The last accepted TOTP time step: a code of this step or an older one is a replay (472). */
    authenticatorLastStep: bigint('authenticator_last_step', { mode: 'number' }),
    /** Last change (not first binding) of the login password, trade password or authenticator: withdrawals wait 24 h. */
    securityChangedAt: at('security_changed_at'),
    defaultAccountId: bigint('default_account_id', { mode: 'number' }),
    frozen: boolean('frozen').notNull().default(false),
    createdAt: at('created_at').notNull(),
    passwordChangedAt: at('password_changed_at').notNull(),
    /** Last change of the synced profile (nickname, avatar). */
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_invite_code_key').on(t.inviteCode)],
);

/** The whole referral chain, stored at registration: one row per (ancestor, descendant). */
export const referralPaths = pgTable(
  'referral_paths',
  {
    ancestorId: bigint('ancestor_id', { mode: 'number' }).notNull(),
    descendantId: bigint('descendant_id', { mode: 'number' }).notNull(),
    /** 1 = direct referral (first generation). */
    depth: integer('depth').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.descendantId] }),
    /** A member's ancestors nearest first (promotion and management walk up at most a few generations). */
    index('referral_paths_descendant').on(t.descendantId, t.depth),
    /** One generation of a user's team, in id order (teamMembers pages, the first generation's branches). */
    index('referral_paths_generation').on(t.ancestorId, t.depth, t.descendantId),
  ],
);

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: ['main', 'sub'] }).notNull(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('accounts_user').on(t.userId),
    uniqueIndex('accounts_one_main_per_user')
      .on(t.userId)
      .where(sql`kind = 'main'`),
  ],
);

/** Reusable invite codes: each user's own, the root code, and those operators add. */
export const inviteCodes = pgTable('invite_codes', {
  code: text('code').primaryKey(),
  ownerUserId: bigint('owner_user_id', { mode: 'number' }),
  ownerOperatorId: bigint('owner_operator_id', { mode: 'number' }),
  root: boolean('root').notNull().default(false),
  createdBy: text('created_by').notNull(),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: at('created_at').notNull(),
});

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', {
      enum: ['register', 'forget', 'update_login_password', 'update_trade_password'],
    }).notNull(),
    codeHash: text('code_hash').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('verification_codes_lookup').on(t.email, t.purpose, t.createdAt)],
);

/** Opaque session tokens, stored as SHA-256 hashes; revocable, sliding expiry. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    subjectKind: text('subject_kind', { enum: ['user', 'operator'] }).notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    index('sessions_subject').on(t.subjectKind, t.subjectId),
    index('sessions_expires').on(t.expiresAt),
  ],
);

/** Exactly-once commands: the answer text is stored in the effect's transaction. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The serialised answer, byte for byte (text, not jsonb, which reorders keys). */
    answer: text('answer'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  ownerUserId: bigint('owner_user_id', { mode: 'number' }),
  ownerOperatorId: bigint('owner_operator_id', { mode: 'number' }),
  mime: text('mime').notNull(),
  bytes: integer('bytes').notNull(),
  createdAt: at('created_at').notNull(),
});

export const operators = pgTable(
  'operators',
  {
    id: id(),
    email: text('email').notNull(),
    role: text('role', { enum: ['superadmin', 'finance', 'compliance', 'support', 'content'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('operators_email_key').on(t.email)],
);

/** Append-only (a trigger refuses UPDATE and DELETE): who did what, when. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    at: at('at').notNull(),
  },
  (t) => [index('audit_log_at').on(t.at)],
);

/** One row per job and period: a job runs at most once per period, whatever the instance count. */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    period: text('period').notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    startedAt: at('started_at').notNull(),
    finishedAt: at('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.job, t.period] })],
);

/** Financial news (public); `lang` null means every language. */
export const news = pgTable(
  'news',
  {
    id: id(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    body: text('body').notNull(),
    imageUrl: text('image_url'),
    lang: text('lang'),
    publishedAt: at('published_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('news_published').on(t.publishedAt)],
);

/** Marquee notices (public). */
export const notices = pgTable('notices', {
  id: id(),
  text: text('text').notNull(),
  lang: text('lang'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/** Market quotes (public): the latest price and a short history for the chart. */
export const quotes = pgTable('quotes', {
  symbol: text('symbol').primaryKey(),
  name: text('name').notNull(),
  price: text('price').notNull(),
  changePercent: text('change_percent').notNull(),
  history: jsonb('history').$type<Array<{ at: string; price: string }>>().notNull(),
  updatedAt: at('updated_at').notNull(),
});

/** Feedback tickets and their replies (a user's own). */
export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    images: jsonb('images').$type<string[]>().notNull(),
    status: text('status', { enum: ['awaiting_reply', 'replied'] }).notNull(),
    reply: text('reply'),
    repliedAt: at('replied_at'),
    repliedBy: bigint('replied_by', { mode: 'number' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('feedback_user').on(t.userId, t.createdAt)],
);

/**
 * The sync change log (CONTRACT.md "Sync"): one row per write to a synced record, in the
 * writer's transaction, stamped with that transaction's id. A pull returns only rows of
 * transactions older than its snapshot's horizon, so a cursor never skips a late commit.
 */
export const syncChanges = pgTable(
  'sync_changes',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    collection: text('collection').notNull(),
    /** The user or account the record belongs to; 0 for public collections. */
    scopeId: bigint('scope_id', { mode: 'number' }).notNull(),
    recordId: text('record_id').notNull(),
    deleted: boolean('deleted').notNull(),
    /** The writing transaction's id (xid8 as a number: far below 2^53 for any real database). */
    txid: bigint('txid', { mode: 'number' })
      .notNull()
      .default(sql`((pg_current_xact_id())::text)::bigint`),
    at: at('at').notNull(),
  },
  (t) => [index('sync_changes_scope').on(t.collection, t.scopeId, t.txid, t.seq)],
);

/**
 * Ledger balances (server/ledger): one row per (owner, book, asset, slot). `owner` is a Coffer
 * account id for a customer's books (cash, hosting, held), or 0 for the platform's books (fee
 * revenue, omnibus per chain, adjustments ...). A customer's book has one slot and can never go
 * negative (a CHECK, whatever code runs); a platform book is spread over several slots so that
 * transfers paying it do not queue behind one row. Only the ledger writes here.
 */
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    owner: bigint('owner', { mode: 'number' }).notNull(),
    book: text('book').notNull(),
    asset: text('asset').notNull(),
    slot: smallint('slot').notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.owner, t.book, t.asset, t.slot] }),
    check('ledger_balances_customer_never_negative', sql`${t.owner} = 0 OR ${t.balance} >= 0`),
    check('ledger_balances_customer_one_slot', sql`${t.owner} = 0 OR ${t.slot} = 0`),
  ],
);

/**
 * Ledger transfers: one amount of one asset from a debit book to a credit book, append-only (a
 * trigger refuses UPDATE, DELETE and TRUNCATE), with a unique key derived from its cause.
 * `*BalanceAfter` is the customer book's balance right after (null on the platform's side).
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    asset: text('asset').notNull(),
    debitOwner: bigint('debit_owner', { mode: 'number' }).notNull(),
    debitBook: text('debit_book').notNull(),
    creditOwner: bigint('credit_owner', { mode: 'number' }).notNull(),
    creditBook: text('credit_book').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    debitBalanceAfter: bigint('debit_balance_after', { mode: 'bigint' }),
    creditBalanceAfter: bigint('credit_balance_after', { mode: 'bigint' }),
    refTable: text('ref_table').notNull(),
    refId: text('ref_id').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('ledger_transfers_key').on(t.key),
    index('ledger_transfers_debit').on(t.debitOwner, t.id),
    index('ledger_transfers_credit').on(t.creditOwner, t.id),
    check('ledger_transfers_amount_positive', sql`${t.amount} > 0`),
    check(
      'ledger_transfers_two_books',
      sql`${t.debitOwner} <> ${t.creditOwner} OR ${t.debitBook} <> ${t.creditBook}`,
    ),
  ],
);

/**
 * Holds (TigerBeetle's pending / post / void): money moved from a customer's cash to held,
 * then posted (in parts, or whole) to where it goes, or voided back. `remaining` is what is still
 * held; a hold ends exactly once (status leaves `pending` in one conditional update).
 */
export const ledgerHolds = pgTable(
  'ledger_holds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    owner: bigint('owner', { mode: 'number' }).notNull(),
    asset: text('asset').notNull(),
    kind: text('kind').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    remaining: bigint('remaining', { mode: 'bigint' }).notNull(),
    status: text('status', { enum: ['pending', 'posted', 'voided'] }).notNull(),
    refTable: text('ref_table').notNull(),
    refId: text('ref_id').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('ledger_holds_key').on(t.key),
    index('ledger_holds_owner_pending')
      .on(t.owner, t.asset)
      .where(sql`status = 'pending'`),
    check('ledger_holds_amount_positive', sql`${t.amount} > 0`),
    check(
      'ledger_holds_remaining',
      sql`(${t.status} = 'pending' AND ${t.remaining} > 0 AND ${t.remaining} <= ${t.amount}) OR (${t.status} <> 'pending' AND ${t.remaining} = 0)`,
    ),
  ],
);

/** Operators' adjustments (kind data_adjustment); large ones wait for a second finance operator. */
export const ledgerAdjustments = pgTable(
  'ledger_adjustments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    asset: text('asset').notNull(),
    /** Signed: positive pays the account, negative takes from it. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending_review', 'applied', 'rejected'] }).notNull(),
    requestedBy: text('requested_by').notNull(),
    reviewedBy: text('reviewed_by'),
    createdAt: at('created_at').notNull(),
    reviewedAt: at('reviewed_at'),
  },
  (t) => [
    index('ledger_adjustments_status').on(t.status, t.id),
    check('ledger_adjustments_amount_not_zero', sql`${t.amount} <> 0`),
  ],
);

/** Platform settings operators set (the RAB price, the newcomer incentive): text values, audited. */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: at('updated_at').notNull(),
  updatedBy: text('updated_by').notNull(),
});

/**
 * Each Coffer account's deposit address per chain: derived from the chain's extended public key
 * at index = the account's id, stored when first asked for, so it never changes and the watcher
 * finds the account of a transfer by `hex` (the 20-byte account, lower-case `0x` hex).
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    chain: text('chain').notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    address: text('address').notNull(),
    hex: text('hex').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chain, t.accountId] }),
    uniqueIndex('deposit_addresses_hex').on(t.chain, t.hex),
  ],
);

/**
 * One token transfer to a deposit address, once per (chain, transaction, log index). `value` is
 * what the chain sent in the token's units; `amount` the credited minor units (truncated to 6
 * decimals) and `dust` the truncated remainder in token units, kept on the platform's side.
 * `attempt` counts reinclusions after a reversal (each gets its own ledger keys).
 */
export const deposits = pgTable(
  'deposits',
  {
    id: id(),
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    address: text('address').notNull(),
    fromHex: text('from_hex').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    value: text('value').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    dust: text('dust').notNull(),
    status: text('status').notNull(),
    confirmations: integer('confirmations').notNull(),
    attempt: integer('attempt').notNull().default(0),
    detectedAt: at('detected_at').notNull(),
    heldAt: at('held_at'),
    creditedAt: at('credited_at'),
    reversedAt: at('reversed_at'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('deposits_transfer').on(t.chain, t.txHash, t.logIndex),
    index('deposits_account').on(t.accountId, t.id),
    index('deposits_unsettled')
      .on(t.chain, t.blockNumber)
      .where(sql`${t.status} in ('confirming', 'held')`),
    check(
      'deposits_status',
      sql`${t.status} in ('confirming', 'held', 'credited', 'below_minimum', 'reversed')`,
    ),
    check('deposits_amount_not_negative', sql`${t.amount} >= 0`),
  ],
);

/**
 * Where each chain's watcher is: the chain it scans (its genesis hash), the next block to scan
 * and the hash of the block before it (a different hash there means a reorganisation).
 */
export const chainCursors = pgTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  genesisHash: text('genesis_hash').notNull(),
  nextBlock: bigint('next_block', { mode: 'bigint' }).notNull(),
  tipHash: text('tip_hash'),
  updatedAt: at('updated_at').notNull(),
});

/**
 * One deposit address swept to the hot wallet by the operator's `sweep` command: the token
 * amount moved (token units), the gas top-up and the transfer's transactions. Audited too.
 */
export const sweeps = pgTable(
  'sweeps',
  {
    id: id(),
    chain: text('chain').notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    address: text('address').notNull(),
    value: text('value').notNull(),
    gasTxHash: text('gas_tx_hash'),
    txHash: text('tx_hash').notNull(),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('sweeps_chain').on(t.chain, t.id),
    check('sweeps_status', sql`${t.status} in ('sent', 'failed')`),
  ],
);

/**
 * A user's withdrawal methods: a USDT address on BEP20 or TRC20, or a bank card. A method is
 * usable for withdrawals from `usableAt` (its creation plus the cooldown); deleting one keeps
 * the row (withdrawals name it) and sets `deletedAt`.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    currency: text('currency'),
    network: text('network'),
    address: text('address'),
    bankName: text('bank_name'),
    cardNumber: text('card_number'),
    holderName: text('holder_name'),
    branch: text('branch'),
    createdAt: at('created_at').notNull(),
    usableAt: at('usable_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('payment_methods_user').on(t.userId, t.id),
    uniqueIndex('payment_methods_chain_address')
      .on(t.userId, t.network, t.address)
      .where(sql`${t.kind} = 'chain' and ${t.deletedAt} is null`),
    uniqueIndex('payment_methods_card')
      .on(t.userId, t.cardNumber)
      .where(sql`${t.kind} = 'bank' and ${t.deletedAt} is null`),
    check('payment_methods_kind', sql`${t.kind} in ('chain', 'bank')`),
  ],
);

/**
 * The operators' working-day calendar (withdrawals open on working days): a local date in the
 * business time zone marked a `holiday` (a weekday off) or a `workday` (a weekend day worked).
 */
export const workCalendar = pgTable(
  'work_calendar',
  {
    date: text('date').primaryKey(),
    kind: text('kind').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [check('work_calendar_kind', sql`${t.kind} in ('holiday', 'workday')`)],
);

/**
 * Withdrawals (issue 11). The destination is copied from the method at request, so a deleted or
 * changed method never changes where money went. `amount + fee` is held (`holdId`) from request
 * until the withdrawal ends: posted on success, voided on reject or failure.
 *
 * `status` is the customer's word (`pending`, `success`, `failed`); `stage` is where it is:
 * `awaiting_review` (approvals missing), `approved` (ready: the send job takes chain ones, an
 * operator pays bank ones), `sending` (signed, nonce and hash recorded before broadcast),
 * `paid`, `rejected`, `failed`. `businessDate` is the request's local date in COFFER_TIMEZONE
 * (the daily limit counts per date).
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    methodId: bigint('method_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    network: text('network'),
    address: text('address'),
    bankName: text('bank_name'),
    cardNumber: text('card_number'),
    holderName: text('holder_name'),
    branch: text('branch'),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    holdId: bigint('hold_id', { mode: 'number' }),
    status: text('status').notNull(),
    stage: text('stage').notNull(),
    approvalsNeeded: integer('approvals_needed').notNull(),
    firstApprovedBy: text('first_approved_by'),
    secondApprovedBy: text('second_approved_by'),
    reviewedBy: text('reviewed_by'),
    reason: text('reason'),
    reference: text('reference'),
    nonce: integer('nonce'),
    txHash: text('tx_hash'),
    rawTx: text('raw_tx'),
    sendAttempt: integer('send_attempt').notNull().default(0),
    businessDate: text('business_date').notNull(),
    createdAt: at('created_at').notNull(),
    approvedAt: at('approved_at'),
    sentAt: at('sent_at'),
    completedAt: at('completed_at'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('withdrawals_account').on(t.accountId, t.id),
    index('withdrawals_user_day').on(t.userId, t.businessDate),
    index('withdrawals_open')
      .on(t.stage, t.id)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex('withdrawals_nonce')
      .on(t.network, t.nonce)
      .where(sql`${t.nonce} is not null`),
    check('withdrawals_status', sql`${t.status} in ('pending', 'success', 'failed')`),
    check(
      'withdrawals_stage',
      sql`${t.stage} in ('awaiting_review', 'approved', 'sending', 'paid', 'rejected', 'failed')`,
    ),
    check('withdrawals_kind', sql`${t.kind} in ('chain', 'bank')`),
    check('withdrawals_amount_positive', sql`${t.amount} > 0 and ${t.fee} >= 0`),
  ],
);

/**
 * Operators' prices of an asset in USDT, one row per change (issue 11): the newest row of an
 * asset is its price, and its id is the `priceVersion` a customer's exchange names, so a
 * submit quoting an older version is refused (409) instead of filled at a price the customer
 * never saw. Append-only by convention: a change is a new row. `price` in USDT minor units
 * per whole unit of `asset` (0: no price, the exchange is closed).
 */
export const priceVersions = pgTable(
  'price_versions',
  {
    id: id(),
    asset: text('asset').notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    index('price_versions_asset').on(t.asset, t.id),
    check('price_versions_price_not_negative', sql`${t.price} >= 0`),
  ],
);

/**
 * RAB/USDT exchanges (issue 11), each settled by ledger transfers keyed `exchange:<id>:<leg>`
 * in the row's own transaction. `fee` and `rounding` are USDT minor units (the fee to fee
 * revenue, the residue of rounding toward the platform to the rounding book); `price` and
 * `priceVersionId` are the version the customer confirmed, `feeRate` the exact decimal used.
 */
export const exchanges = pgTable(
  'exchanges',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    direction: text('direction').notNull(),
    assetIn: text('asset_in').notNull(),
    amountIn: bigint('amount_in', { mode: 'bigint' }).notNull(),
    assetOut: text('asset_out').notNull(),
    amountOut: bigint('amount_out', { mode: 'bigint' }).notNull(),
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    rounding: bigint('rounding', { mode: 'bigint' }).notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    priceVersionId: bigint('price_version_id', { mode: 'number' }).notNull(),
    feeRate: text('fee_rate').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('exchanges_account').on(t.accountId, t.id),
    check('exchanges_direction', sql`${t.direction} in ('rab_to_usdt', 'usdt_to_rab')`),
    check(
      'exchanges_amounts',
      sql`${t.amountIn} > 0 and ${t.amountOut} > 0 and ${t.fee} >= 0 and ${t.rounding} >= 0 and ${t.price} > 0`,
    ),
  ],
);

/**
 * Delivery (trade settlement) records the platform publishes (issue 12): trades, not any
 * customer's positions, read by everyone (the public `delivery` collection). Prices, lots and
 * the spread are exact decimal strings as the operator wrote them (normalised, never floats);
 * `margin` and `profitLoss` are USDT minor units (`profitLoss` signed).
 */
export const deliveryRecords = pgTable(
  'delivery_records',
  {
    id: id(),
    orderNo: text('order_no').notNull(),
    symbol: text('symbol').notNull(),
    direction: text('direction').notNull(),
    lots: text('lots').notNull(),
    leverage: integer('leverage').notNull(),
    openPrice: text('open_price').notNull(),
    closePrice: text('close_price').notNull(),
    openTime: at('open_time').notNull(),
    closeTime: at('close_time').notNull(),
    margin: bigint('margin', { mode: 'bigint' }).notNull(),
    spread: text('spread').notNull(),
    profitLoss: bigint('profit_loss', { mode: 'bigint' }).notNull(),
    publishedAt: at('published_at').notNull(),
    publishedBy: text('published_by').notNull(),
  },
  (t) => [
    uniqueIndex('delivery_records_order_no').on(t.orderNo),
    check('delivery_records_direction', sql`${t.direction} in ('buy', 'sell')`),
    check(
      'delivery_records_figures',
      sql`${t.margin} >= 0 and ${t.leverage} > 0 and ${t.closeTime} >= ${t.openTime}`,
    ),
  ],
);

/**
 * Hosting products (issue 12) operators define: a lock term of `days`, an exact decimal
 * `dailyRate` ("0.0035"), bounds of an order's principal (USDT minor units), when interest is
 * paid (`daily` or `at_maturity`), and whether an order may leave early (`earlyExit`) at
 * `penaltyRate` of the principal taken out. `names` per locale. An order copies the terms it was
 * made under, so a later update or a disable changes no existing order.
 */
export const hostingProducts = pgTable(
  'hosting_products',
  {
    id: id(),
    names: jsonb('names').$type<Record<string, string>>().notNull(),
    days: integer('days').notNull(),
    dailyRate: text('daily_rate').notNull(),
    minimum: bigint('minimum', { mode: 'bigint' }).notNull(),
    maximum: bigint('maximum', { mode: 'bigint' }).notNull(),
    payout: text('payout').notNull(),
    earlyExit: boolean('early_exit').notNull(),
    penaltyRate: text('penalty_rate').notNull(),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    check('hosting_products_payout', sql`${t.payout} in ('daily', 'at_maturity')`),
    check('hosting_products_status', sql`${t.status} in ('active', 'disabled')`),
    check('hosting_products_days', sql`${t.days} between 1 and 3650`),
    check('hosting_products_bounds', sql`${t.minimum} > 0 and ${t.maximum} >= ${t.minimum}`),
  ],
);

/**
 * Hosting orders (issue 12): `principal` is what the order holds in the account's `hosting` book
 * now. Interest accrues on the local days (COFFER_TIMEZONE) from `interestFrom` (the midnight
 * after creation) until `interestUntil` (`endAt`, the maturity, or the redeem time); the daily
 * job has accrued every day before `accruedUntil`, so the order still accrues while
 * `accruedUntil < interestUntil`. `accrued` and `paid` are interest totals (minor units).
 */
export const hostingOrders = pgTable(
  'hosting_orders',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    days: integer('days').notNull(),
    dailyRate: text('daily_rate').notNull(),
    minimum: bigint('minimum', { mode: 'bigint' }).notNull(),
    maximum: bigint('maximum', { mode: 'bigint' }).notNull(),
    payout: text('payout').notNull(),
    earlyExit: boolean('early_exit').notNull(),
    penaltyRate: text('penalty_rate').notNull(),
    principal: bigint('principal', { mode: 'bigint' }).notNull(),
    /** The principal the order was created with. */
    initialAmount: bigint('initial_amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull(),
    closeReason: text('close_reason'),
    startAt: at('start_at').notNull(),
    endAt: at('end_at').notNull(),
    interestFrom: at('interest_from').notNull(),
    interestUntil: at('interest_until').notNull(),
    accruedUntil: at('accrued_until').notNull(),
    accrued: bigint('accrued', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    paid: bigint('paid', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    penalty: bigint('penalty', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    closedAt: at('closed_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('hosting_orders_account').on(t.accountId, t.id),
    index('hosting_orders_accruing')
      .on(t.accruedUntil)
      .where(sql`${t.accruedUntil} < ${t.interestUntil}`),
    index('hosting_orders_maturing')
      .on(t.endAt)
      .where(sql`${t.status} = 'in_progress'`),
    check('hosting_orders_status', sql`${t.status} in ('in_progress', 'expired')`),
    check(
      'hosting_orders_close_reason',
      sql`${t.closeReason} is null or ${t.closeReason} in ('matured', 'redeemed')`,
    ),
    check('hosting_orders_payout', sql`${t.payout} in ('daily', 'at_maturity')`),
    check(
      'hosting_orders_principal',
      sql`(${t.status} = 'in_progress' and ${t.principal} > 0) or (${t.status} = 'expired' and ${t.principal} = 0)`,
    ),
    check('hosting_orders_interest', sql`${t.accrued} >= 0 and ${t.paid} >= 0 and ${t.paid} <= ${t.accrued}`),
  ],
);

/**
 * The operator-log of hosting orders (spec "Hosting order: change amount and time"): one row per
 * change of an order's principal, signed from the order's side (`create` and `add` positive,
 * `sub`, `redeem` and `maturity` negative), with the penalty taken and the principal after. The
 * accrual job reads an order's principal over a day from these rows.
 */
export const hostingOrderChanges = pgTable(
  'hosting_order_changes',
  {
    id: id(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    penalty: bigint('penalty', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    principalAfter: bigint('principal_after', { mode: 'bigint' }).notNull(),
    at: at('at').notNull(),
  },
  (t) => [
    index('hosting_order_changes_order').on(t.orderId, t.id),
    index('hosting_order_changes_account').on(t.accountId, t.id),
    check('hosting_order_changes_kind', sql`${t.kind} in ('create', 'add', 'sub', 'redeem', 'maturity')`),
    check(
      'hosting_order_changes_amounts',
      sql`${t.amount} <> 0 and ${t.penalty} >= 0 and ${t.principalAfter} >= 0`,
    ),
  ],
);

/**
 * One order's interest for one local day (`day`, YYYY-MM-DD in COFFER_TIMEZONE): the primary key
 * is what makes the daily job idempotent, whatever re-runs or crashes. `principalMinutes` is
 * Σ principal × minutes hosted that day (minor units × minutes, as a decimal string: it can pass
 * 2^63), `minutesOfDay` the day's length (1380 or 1500 on a DST change), and `amount` =
 * floor(principalMinutes × rate / minutesOfDay), 0 when the day earned less than a minor unit.
 */
export const hostingAccruals = pgTable(
  'hosting_accruals',
  {
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    day: text('day').notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    principalMinutes: text('principal_minutes').notNull(),
    minutesOfDay: integer('minutes_of_day').notNull(),
    dailyRate: text('daily_rate').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    incomeId: bigint('income_id', { mode: 'number' }),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.day] }),
    /** The team job reads one day's static income of everyone (issue 13). */
    index('hosting_accruals_day').on(t.day),
    check('hosting_accruals_amount', sql`${t.amount} >= 0`),
  ],
);

/**
 * Income lines (spec "Income"): each a customer sees is paid by one ledger transfer
 * (`transferKey`), made when it arrives: at once (`arrived`) or later (`pending_arrival`, e.g.
 * hosting interest paid at maturity). `key` is derived from the cause, unique, so a repeated
 * cause writes no second line. `earningsDate` and `arrivalDate` are local dates (YYYY-MM-DD in
 * COFFER_TIMEZONE); a pending line's arrival date is the expected one.
 */
export const income = pgTable(
  'income',
  {
    id: id(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    earningsDate: text('earnings_date').notNull(),
    arrivalDate: text('arrival_date').notNull(),
    status: text('status').notNull(),
    key: text('key').notNull(),
    transferKey: text('transfer_key').notNull(),
    sourceTable: text('source_table').notNull(),
    sourceId: text('source_id').notNull(),
    memo: text('memo'),
    /** A team line's source (issue 13): the member whose static income paid it, its generation, base and rate. */
    source: jsonb('source').$type<Record<string, unknown>>(),
    arrivedAt: at('arrived_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('income_key').on(t.key),
    index('income_account').on(t.accountId, t.id),
    index('income_account_type').on(t.accountId, t.type, t.id),
    index('income_source').on(t.sourceTable, t.sourceId),
    check(
      'income_type',
      sql`${t.type} in ('static', 'promotion', 'management', 'airdrop', 'dividend', 'mining_machine')`,
    ),
    check('income_status', sql`${t.status} in ('pending_arrival', 'arrived')`),
    check('income_amount_positive', sql`${t.amount} > 0`),
    check('income_arrived_at', sql`(${t.status} = 'arrived') = (${t.arrivedAt} is not null)`),
  ],
);

/** Operators' airdrops (issue 12): `amount` paid to each of `accountIds` from incentive expense, audited. */
export const airdrops = pgTable('airdrops', {
  id: id(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  reason: text('reason').notNull(),
  accountIds: jsonb('account_ids').$type<number[]>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: at('created_at').notNull(),
});

/**
 * AI dividends operators publish for a local day (issue 12): `total` shared pro rata by each
 * account's valid hosting balance at the day's end (`mode` total), or `rate` of that balance
 * (`mode` rate, `total` then being what the shares add up to). Shares are floored to the minor
 * unit: `distributed` is their sum and `residue` = total − distributed, recorded to the
 * platform's rounding book at publication, so the published total is exactly accounted for.
 * One dividend per day.
 */
export const dividends = pgTable(
  'dividends',
  {
    id: id(),
    day: text('day').notNull(),
    mode: text('mode').notNull(),
    total: bigint('total', { mode: 'bigint' }).notNull(),
    rate: text('rate'),
    /** Σ of the eligible accounts' hosting balances at the day's end. */
    eligibleBalance: bigint('eligible_balance', { mode: 'bigint' }).notNull(),
    accounts: integer('accounts').notNull(),
    distributed: bigint('distributed', { mode: 'bigint' }).notNull(),
    residue: bigint('residue', { mode: 'bigint' }).notNull(),
    claimDays: integer('claim_days').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    uniqueIndex('dividends_day').on(t.day),
    check('dividends_mode', sql`${t.mode} in ('total', 'rate')`),
    check(
      'dividends_amounts',
      sql`${t.total} > 0 and ${t.residue} >= 0 and ${t.distributed} + ${t.residue} = ${t.total}`,
    ),
  ],
);

/**
 * One account's share of a dividend (spec "Bonus release record"): `to_be_claimed` until the
 * customer claims it (`claimed`: paid to cash by the ledger transfer `dividend:release:<id>`
 * with its `dividend` income line) or `expiresAt` passes (`expired`: never paid). `balance` is
 * the account's hosting balance at the day's end that earned it.
 */
export const dividendReleases = pgTable(
  'dividend_releases',
  {
    id: id(),
    dividendId: bigint('dividend_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    day: text('day').notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    status: text('status').notNull(),
    expiresAt: at('expires_at').notNull(),
    claimedAt: at('claimed_at'),
    incomeId: bigint('income_id', { mode: 'number' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('dividend_releases_dividend_account').on(t.dividendId, t.accountId),
    index('dividend_releases_account').on(t.accountId, t.id),
    index('dividend_releases_claimable')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'to_be_claimed'`),
    check('dividend_releases_status', sql`${t.status} in ('to_be_claimed', 'claimed', 'expired')`),
    check('dividend_releases_amount_positive', sql`${t.amount} > 0`),
    check('dividend_releases_claimed_at', sql`(${t.status} = 'claimed') = (${t.claimedAt} is not null)`),
  ],
);

/**
 * Mining machines operators offer (issue 13): `hashPower` T per machine and `dailyOutput` USDT
 * per T a day as exact decimal strings ("12.5", "0.35"), the USDT `price` (minor units),
 * `ticketPrice` tickets for one (0: not sold for tickets), a term of `days`, and `rentPrice` USDT
 * a day to rent one (null: not for rent). `names` per locale. A holding copies the terms it was
 * made under, so a later update or a disable changes no holding.
 */
export const machines = pgTable(
  'machines',
  {
    id: id(),
    names: jsonb('names').$type<Record<string, string>>().notNull(),
    hashPower: text('hash_power').notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    ticketPrice: integer('ticket_price').notNull(),
    days: integer('days').notNull(),
    dailyOutput: text('daily_output').notNull(),
    rentPrice: bigint('rent_price', { mode: 'bigint' }),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    check('machines_status', sql`${t.status} in ('active', 'disabled')`),
    check('machines_days', sql`${t.days} between 1 and 3650`),
    check(
      'machines_prices',
      sql`${t.price} > 0 and ${t.ticketPrice} >= 0 and (${t.rentPrice} is null or ${t.rentPrice} > 0)`,
    ),
  ],
);

/**
 * A customer's holding of `quantity` machines of one kind (issue 13), bought (`buy`, for the
 * machine's term) or rented (`rent`, for the days rented), paid with USDT or tickets. It earns on
 * the local days (COFFER_TIMEZONE) from `earnFrom` (the midnight after it was made) to `endAt`;
 * the daily job has paid every day before `earnedUntil`, `paidDays` of them, `earned` in all
 * (minor units). `expired` once its last day is paid.
 */
export const ownedMachines = pgTable(
  'owned_machines',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    machineId: bigint('machine_id', { mode: 'number' }).notNull(),
    acquisition: text('acquisition').notNull(),
    payWith: text('pay_with').notNull(),
    quantity: integer('quantity').notNull(),
    hashPower: text('hash_power').notNull(),
    dailyOutput: text('daily_output').notNull(),
    days: integer('days').notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    tickets: integer('tickets').notNull(),
    status: text('status').notNull(),
    startAt: at('start_at').notNull(),
    earnFrom: at('earn_from').notNull(),
    endAt: at('end_at').notNull(),
    earnedUntil: at('earned_until').notNull(),
    paidDays: integer('paid_days')
      .notNull()
      .default(sql`0`),
    earned: bigint('earned', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('owned_machines_account').on(t.accountId, t.id),
    index('owned_machines_earning')
      .on(t.earnedUntil)
      .where(sql`${t.status} = 'active'`),
    check('owned_machines_acquisition', sql`${t.acquisition} in ('buy', 'rent')`),
    check('owned_machines_pay_with', sql`${t.payWith} in ('usdt', 'ticket')`),
    check('owned_machines_status', sql`${t.status} in ('active', 'expired')`),
    check(
      'owned_machines_figures',
      sql`${t.quantity} between 1 and 100 and ${t.days} between 1 and 3650 and ${t.price} >= 0 and ${t.tickets} >= 0 and ${t.paidDays} between 0 and ${t.days} and ${t.earned} >= 0`,
    ),
  ],
);

/**
 * One holding's output for one local day (`day`, YYYY-MM-DD in COFFER_TIMEZONE): the primary key
 * makes the daily job pay each (holding, day) once, whatever re-runs or crashes. `amount` =
 * floor(quantity × hashPower × dailyOutput), 0 when the day earned less than a minor unit.
 */
export const machineEarnings = pgTable(
  'machine_earnings',
  {
    ownedMachineId: bigint('owned_machine_id', { mode: 'number' }).notNull(),
    day: text('day').notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    incomeId: bigint('income_id', { mode: 'number' }),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ownedMachineId, t.day] }),
    check('machine_earnings_amount', sql`${t.amount} >= 0`),
  ],
);

/**
 * Tickets (spec "Tickets: available, used"; issue 13): each row one ticket of an account, issued
 * by an operator or as a reward (`key` derived from the cause, unique, so a repeated cause issues
 * nothing twice), `used` once when a buy spends it (`usedFor` the holding): a buy locks the
 * tickets it takes, so racing buys never spend one twice.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    source: text('source').notNull(),
    key: text('key').notNull(),
    memo: text('memo'),
    usedAt: at('used_at'),
    usedFor: bigint('used_for', { mode: 'number' }),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('tickets_key').on(t.key),
    index('tickets_account').on(t.accountId, t.id),
    index('tickets_available')
      .on(t.accountId, t.id)
      .where(sql`${t.status} = 'available'`),
    check('tickets_status', sql`${t.status} in ('available', 'used')`),
    check('tickets_source', sql`${t.source} in ('operator', 'reward')`),
    check(
      'tickets_used',
      sql`(${t.status} = 'used') = (${t.usedAt} is not null and ${t.usedFor} is not null)`,
    ),
  ],
);

/** Operators' ticket issues (issue 13): `count` tickets to each of `accountIds`, audited. */
export const ticketIssues = pgTable('ticket_issues', {
  id: id(),
  count: integer('count').notNull(),
  reason: text('reason').notNull(),
  accountIds: jsonb('account_ids').$type<number[]>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: at('created_at').notNull(),
});

/**
 * Team levels operators configure (issue 13, docs/protocol.md section 23): a user is at the
 * highest level whose three requirements they all meet (own valid hosting, valid members of the
 * first generation, small-area performance; amounts in USDT minor units), and is paid at its
 * rates (exact decimal strings from 0 to below 1): promotion on the static income of the first
 * and second generation, management by level difference. No row: level 0, no team income.
 */
export const teamLevels = pgTable(
  'team_levels',
  {
    level: integer('level').primaryKey(),
    name: text('name').notNull(),
    ownHosting: bigint('own_hosting', { mode: 'bigint' }).notNull(),
    directValidMembers: integer('direct_valid_members').notNull(),
    smallAreaPerformance: bigint('small_area_performance', { mode: 'bigint' }).notNull(),
    promotionRate1: text('promotion_rate_1').notNull(),
    promotionRate2: text('promotion_rate_2').notNull(),
    managementRate: text('management_rate').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    check('team_levels_level', sql`${t.level} between 1 and 20`),
    check(
      'team_levels_requirements',
      sql`${t.ownHosting} >= 0 and ${t.directValidMembers} >= 0 and ${t.smallAreaPerformance} >= 0`,
    ),
  ],
);

/**
 * Each user's level as the team job last decided it (the figures at the end of local `day`), for
 * users at level 1 or above; a user without a row is at level 0.
 */
export const teamUserLevels = pgTable('team_user_levels', {
  userId: bigint('user_id', { mode: 'number' }).primaryKey(),
  level: integer('level').notNull(),
  day: text('day').notNull(),
  ownPerformance: bigint('own_performance', { mode: 'bigint' }).notNull(),
  directValidMembers: integer('direct_valid_members').notNull(),
  smallAreaPerformance: bigint('small_area_performance', { mode: 'bigint' }).notNull(),
  teamPerformance: bigint('team_performance', { mode: 'bigint' }).notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * One row per local day (COFFER_TIMEZONE) the team job has paid: the next run starts from the day
 * after the newest, so a missed day is caught up; `detail` is what the day paid.
 */
export const teamDays = pgTable('team_days', {
  day: text('day').primaryKey(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  createdAt: at('created_at').notNull(),
  rerunAt: at('rerun_at'),
});

/**
 * OTC orders (issue 14, docs/protocol.md section 24): a customer's offer to buy (`side` buy) or
 * sell (`side` sell) `volume` RAB at `price` USDT per RAB (minor units per whole RAB), its
 * escrow a ledger hold (`holdId`: USDT for a buy, RAB for a sell). `filled` RAB have been taken
 * so far, for `usdtFilled` USDT (floor(filled x price / 10^6): each fill pays the difference) and
 * `makerFeeFilled` of the maker's fee (floor(usdtFilled x makerFeeRate)). `status` is
 * pending_match until filled (completed) or cancelled (cancelled, or match_ended when partly
 * filled). The escrow still held is always escrow - what the fills posted.
 */
export const otcOrders = pgTable(
  'otc_orders',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    side: text('side').notNull(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    volume: bigint('volume', { mode: 'bigint' }).notNull(),
    splittable: boolean('splittable').notNull(),
    filled: bigint('filled', { mode: 'bigint' }).notNull(),
    usdtFilled: bigint('usdt_filled', { mode: 'bigint' }).notNull(),
    makerFeeFilled: bigint('maker_fee_filled', { mode: 'bigint' }).notNull(),
    makerFeeRate: text('maker_fee_rate').notNull(),
    takerFeeRate: text('taker_fee_rate').notNull(),
    escrow: bigint('escrow', { mode: 'bigint' }).notNull(),
    holdId: bigint('hold_id', { mode: 'number' }),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('otc_orders_account').on(t.accountId, t.id),
    index('otc_orders_open')
      .on(t.side, t.price, t.id)
      .where(sql`status = 'pending_match'`),
    check('otc_orders_side', sql`${t.side} in ('buy', 'sell')`),
    check(
      'otc_orders_status',
      sql`${t.status} in ('pending_match', 'match_ended', 'cancelled', 'completed')`,
    ),
    check(
      'otc_orders_amounts',
      sql`${t.price} > 0 and ${t.volume} > 0 and ${t.filled} >= 0 and ${t.filled} <= ${t.volume} and ${t.usdtFilled} >= 0 and ${t.makerFeeFilled} >= 0 and ${t.escrow} > 0`,
    ),
  ],
);

/**
 * One take of an OTC order: `volume` RAB for `usdt` USDT, the maker's and the taker's fees
 * (USDT). Its ledger transfers are keyed `otc:<orderId>:fill:<id>:<leg>`.
 */
export const otcFills = pgTable(
  'otc_fills',
  {
    id: id(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    makerAccountId: bigint('maker_account_id', { mode: 'number' }).notNull(),
    takerUserId: bigint('taker_user_id', { mode: 'number' }).notNull(),
    takerAccountId: bigint('taker_account_id', { mode: 'number' }).notNull(),
    volume: bigint('volume', { mode: 'bigint' }).notNull(),
    usdt: bigint('usdt', { mode: 'bigint' }).notNull(),
    makerFee: bigint('maker_fee', { mode: 'bigint' }).notNull(),
    takerFee: bigint('taker_fee', { mode: 'bigint' }).notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('otc_fills_order').on(t.orderId, t.id),
    index('otc_fills_taker').on(t.takerAccountId, t.id),
    check(
      'otc_fills_amounts',
      sql`${t.volume} > 0 and ${t.usdt} >= 0 and ${t.makerFee} >= 0 and ${t.takerFee} >= 0`,
    ),
  ],
);
