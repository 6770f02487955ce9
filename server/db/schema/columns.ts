/**
 * Column builders the tables share, so each column kind is spelled once: identity keys,
 * references to other rows, money in minor units, timestamps (with time zone, read as Date) and
 * the column groups many tables carry. Each builder must produce exactly the SQL it replaced:
 * `npm run db:generate` reports no schema change.
 */
import { sql } from 'drizzle-orm';
import { bigint, jsonb, text, timestamp } from 'drizzle-orm/pg-core';

/** A bigint identity primary key named `id`. */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
/** A timestamp with time zone, read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A required reference to another row's bigint id, read as a number. */
export const ref = (name: string) => bigint(name, { mode: 'number' }).notNull();
/** An optional reference to another row's bigint id, read as a number. */
export const optionalRef = (name: string) => bigint(name, { mode: 'number' });
/** The required `user_id` of the user a row belongs to. */
export const userRef = () => ref('user_id');
/** The required `account_id` of the account a row belongs to. */
export const accountRef = () => ref('account_id');
/** The user and the account a row belongs to (`user_id`, `account_id`), both required. */
export const owner = () => ({ userId: userRef(), accountId: accountRef() });

/** A required amount of money in minor units, read as a bigint. */
export const money = (name: string) => bigint(name, { mode: 'bigint' }).notNull();
/** An optional amount of money in minor units, read as a bigint. */
export const optionalMoney = (name: string) => bigint(name, { mode: 'bigint' });
/** A running total of money in minor units, starting at 0. */
export const total = (name: string) => money(name).default(sql`0`);

/** A required text column. */
export const label = (name: string) => text(name).notNull();
/** The required `status` word of a row (its allowed values are the table's check). */
export const status = () => label('status');

/** The required `created_at` time. */
export const createdAt = () => at('created_at').notNull();
/** The required `updated_at` time. */
export const updatedAt = () => at('updated_at').notNull();
/** `created_at` and `updated_at`, both required. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** `updated_at` and `updated_by` (the operator's name): an operator's last edit of a row. */
export const lastEdit = () => ({ updatedAt: updatedAt(), updatedBy: label('updated_by') });
/** `created_at`, `updated_at` and `updated_by` (the operator's name) of a row operators edit. */
export const edited = () => ({ createdAt: createdAt(), ...lastEdit() });
/** `created_at` and `created_by` (the operator's name) of a row an operator made. */
export const madeBy = () => ({ createdAt: createdAt(), createdBy: label('created_by') });
/** An operator's grant to chosen accounts (`reason`, `account_ids`), audited with who made it and when. */
export const grant = () => ({
  reason: label('reason'),
  accountIds: jsonb('account_ids').$type<number[]>().notNull(),
  ...madeBy(),
});
/**
 * One item's payout for one local `day` (YYYY-MM-DD in COFFER_TIMEZONE): the account paid, the
 * `amount` (minor units) and its income line once written (`income_id`).
 */
export const dayPayout = () => ({
  day: label('day'),
  accountId: accountRef(),
  amount: money('amount'),
  incomeId: optionalRef('income_id'),
  createdAt: createdAt(),
});
/** A text per locale (`{ en: ..., zh: ... }`), required. */
export const localized = (name: string) => jsonb(name).$type<Record<string, string>>().notNull();
/**
 * Where a withdrawal goes: a chain `network` and `address`, or a bank card (`bank_name`,
 * `card_number`, `holder_name`, `branch`); the columns of the other kind stay null.
 */
export const destination = () => ({
  network: text('network'),
  address: text('address'),
  bankName: text('bank_name'),
  cardNumber: text('card_number'),
  holderName: text('holder_name'),
  branch: text('branch'),
});
