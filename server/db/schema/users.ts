/**
 * Users and what belongs to them: the referral chain, accounts, invite and verification codes, sessions and uploads.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, ref, optionalRef, userRef, createdAt, updatedAt } from './columns.js';

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
    referrerId: optionalRef('referrer_id'),
    lang: text('lang').notNull(),
    kycStatus: text('kyc_status').notNull().default('not_verified'),
    tradePasswordHash: text('trade_password_hash'),
    /** The bound authenticator's TOTP secret, AES-256-GCM under COFFER_SECRET_KEY (server/security/secret-box.ts). */
    authenticatorSecret: text('authenticator_secret'),
    /** The latest secret shown by getGoogle2Fa, encrypted like the bound one, until it is bound. */
    authenticatorPendingSecret: text('authenticator_pending_secret'),
    /** The last accepted TOTP time step: a code of this step or an older one is a replay (472). */
    authenticatorLastStep: optionalRef('authenticator_last_step'),
    /** Last change (not first binding) of the login password, trade password, authenticator or e-mail address: withdrawals wait 24 h. */
    securityChangedAt: at('security_changed_at'),
    defaultAccountId: optionalRef('default_account_id'),
    /** The anti-phishing code shown at the top of every e-mail to this user, sealed like the authenticator secret; null: none set. */
    antiPhishingCode: text('anti_phishing_code'),
    /** Frozen by an operator: the user signs in and reads, every money command is refused (403). */
    frozen: boolean('frozen').notNull().default(false),
    frozenReason: text('frozen_reason'),
    createdAt: createdAt(),
    passwordChangedAt: at('password_changed_at').notNull(),
    /** Last change of the synced profile (nickname, avatar). */
    updatedAt: updatedAt().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_invite_code_key').on(t.inviteCode)],
);

/** The whole referral chain, stored at registration: one row per (ancestor, descendant). */
export const referralPaths = pgTable(
  'referral_paths',
  {
    ancestorId: ref('ancestor_id'),
    descendantId: ref('descendant_id'),
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
    userId: userRef(),
    kind: text('kind', { enum: ['main', 'sub'] }).notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
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
  ownerUserId: optionalRef('owner_user_id'),
  ownerOperatorId: optionalRef('owner_operator_id'),
  root: boolean('root').notNull().default(false),
  createdBy: text('created_by').notNull(),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
});

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', {
      enum: [
        'register',
        'forget',
        'update_login_password',
        'update_trade_password',
        'update_email_old',
        'update_email_new',
      ],
    }).notNull(),
    codeHash: text('code_hash').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    createdAt: createdAt(),
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
    /** The session's id on the wire (user/sessions, session-revoke): never its token's hash. */
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    subjectKind: text('subject_kind', { enum: ['user', 'operator'] }).notNull(),
    subjectId: ref('subject_id'),
    createdAt: createdAt(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    /** An operator's step-up (a fresh authenticator code): money and access actions until then. */
    elevatedUntil: at('elevated_until'),
    /** The User-Agent and client address of the sign-in that started it (the security centre lists them). */
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('sessions_id_key').on(t.id),
    index('sessions_subject').on(t.subjectKind, t.subjectId),
    index('sessions_expires').on(t.expiresAt),
  ],
);

/**
 * The devices a user has signed in from (server/security/device.ts: the browser, the system and the
 * kind of device, hashed): a sign-in from one not listed sends an alert.
 */
export const userDevices = pgTable(
  'user_devices',
  {
    userId: userRef(),
    deviceKey: text('device_key').notNull(),
    firstSeenAt: at('first_seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceKey] })],
);

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  ownerUserId: optionalRef('owner_user_id'),
  ownerOperatorId: optionalRef('owner_operator_id'),
  mime: text('mime').notNull(),
  bytes: integer('bytes').notNull(),
  /** `general`, or `identity` once submitted as a document image: then served only by signed link. */
  purpose: text('purpose').notNull().default('general'),
  createdAt: createdAt(),
});
