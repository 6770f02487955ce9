/** SQL of RAB/USDT exchanges. */
import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { exchanges } from '../db/schema.js';

export type ExchangeRow = typeof exchanges.$inferSelect;

export async function insertExchange(db: Executor, row: typeof exchanges.$inferInsert): Promise<ExchangeRow> {
  const [saved] = await db.insert(exchanges).values(row).returning();
  if (!saved) throw new Error('exchanges: insert returned no row');
  return saved;
}

/** Exchanges newest first: of one account, or (accountId undefined) of everyone, for operators. */
export async function listExchanges(
  db: Executor,
  filter: { accountId: number | undefined; beforeId: number | undefined; limit: number },
): Promise<ExchangeRow[]> {
  const where: SQL[] = [];
  if (filter.accountId !== undefined) where.push(eq(exchanges.accountId, filter.accountId));
  if (filter.beforeId !== undefined) where.push(lt(exchanges.id, filter.beforeId));
  return db
    .select()
    .from(exchanges)
    .where(and(...where))
    .orderBy(desc(exchanges.id))
    .limit(filter.limit);
}

export async function exchangesByIds(db: Executor, accountId: number, ids: number[]): Promise<ExchangeRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(exchanges)
    .where(and(eq(exchanges.accountId, accountId), inArray(exchanges.id, ids)));
}
