/**
 * The one database schema (PostgreSQL dialect) for PGlite and PostgreSQL alike, one file per
 * domain under ./schema/. Migrations under ./migrations are generated from it with
 * `npm run db:generate`.
 */
export * from './schema/users.js';
export * from './schema/commands.js';
export * from './schema/operators.js';
export * from './schema/content.js';
export * from './schema/sync.js';
export * from './schema/ledger.js';
export * from './schema/deposits.js';
export * from './schema/payments.js';
export * from './schema/withdrawals.js';
export * from './schema/exchange.js';
export * from './schema/delivery.js';
export * from './schema/hosting.js';
export * from './schema/income.js';
export * from './schema/dividends.js';
export * from './schema/machines.js';
export * from './schema/team.js';
export * from './schema/otc.js';
export * from './schema/identity.js';
export * from './schema/reserves.js';
export * from './schema/passkeys.js';
export * from './schema/chat.js';
