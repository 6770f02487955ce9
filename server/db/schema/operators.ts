/**
 * Operators, their audit log and the platform settings they set.
 */
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, createdAt, optionalRef, lastEdit } from './columns.js';

export const operators = pgTable(
  'operators',
  {
    id: id(),
    email: text('email').notNull(),
    role: text('role', { enum: ['superadmin', 'finance', 'compliance', 'support', 'content'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    /** A one-time password (the first start's, a new operator's, a reset): changed at the next sign-in. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** The bound authenticator's TOTP secret, sealed under COFFER_SECRET_KEY (as customers' are). */
    authenticatorSecret: text('authenticator_secret'),
    /** The latest secret shown by auth/authenticator, sealed, until it is bound. */
    authenticatorPendingSecret: text('authenticator_pending_secret'),
    /** The last accepted TOTP time step: a code of this step or an older one is a replay (472). */
    authenticatorLastStep: optionalRef('authenticator_last_step'),
    /** The name customers see on chat replies (never the e-mail); null until set. */
    displayName: text('display_name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_email_key').on(t.email)],
);

/**
 * Append-only (a trigger refuses UPDATE and DELETE): who did what, when. Tamper-evident: `hash` is
 * SHA-256 of the previous row's hash and this row's canonical JSON (server/security/audit-chain.ts).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    at: at('at').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [index('audit_log_at').on(t.at)],
);

/** Platform settings operators set (the RAB price, the newcomer incentive): text values, audited. */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  ...lastEdit(),
});
