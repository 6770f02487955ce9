/**
 * Operators, their audit log and the platform settings they set.
 */
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, at, createdAt, updatedAt } from './columns.js';

export const operators = pgTable(
  'operators',
  {
    id: id(),
    email: text('email').notNull(),
    role: text('role', { enum: ['superadmin', 'finance', 'compliance', 'support', 'content'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
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

/** Platform settings operators set (the RAB price, the newcomer incentive): text values, audited. */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
  updatedBy: text('updated_by').notNull(),
});
