/** SQL about web push subscriptions (server/db/schema/push.ts). */
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { pushSubscriptions, sessions } from '../db/schema.js';
import { idIn } from './rows.js';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** The wire id of the live user session whose token hash is `tokenHash`, or undefined. */
export async function sessionIdOfToken(db: Executor, tokenHash: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  return row?.id;
}

/** Who holds the subscription of `endpoint`, and whether its session is live at `now`; undefined: nobody. */
export async function pushEndpointHolder(
  db: Executor,
  endpoint: string,
  now: Date,
): Promise<{ userId: number; live: boolean } | undefined> {
  const [row] = await db
    .select({ userId: pushSubscriptions.userId, live: liveSessionOf(now) })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.endpoint, endpoint));
  return row ? { userId: row.userId, live: row.live === true } : undefined;
}

/** SQL: whether the subscription row's session is live (its user's, not revoked, not expired) at `now`. */
function liveSessionOf(now: Date) {
  return sql<boolean>`exists (select 1 from ${sessions} where ${sessions.id} = ${pushSubscriptions.sessionId} and ${sessions.subjectKind} = 'user' and ${sessions.subjectId} = ${pushSubscriptions.userId} and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${now.toISOString()}::timestamptz)`;
}

/**
 * Stores a subscription, or, when its endpoint is stored already (for anyone), rebinds that row
 * to this user, session, keys and locale: one row per endpoint, whatever races.
 */
export async function upsertPushSubscription(
  db: Executor,
  row: Omit<typeof pushSubscriptions.$inferInsert, 'id'>,
): Promise<PushSubscriptionRow> {
  const [saved] = await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        userId: row.userId,
        sessionId: row.sessionId,
        p256dh: row.p256dh,
        auth: row.auth,
        locale: row.locale,
        updatedAt: row.updatedAt,
      },
    })
    .returning();
  if (!saved) throw new Error('push subscription upsert returned no row');
  return saved;
}

/** The user's subscriptions, oldest first. */
export function pushSubscriptionsOfUser(db: Executor, userId: number): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.updatedAt), asc(pushSubscriptions.id));
}

/** Deletes the subscriptions matching `where`; answers how many went. */
async function deleteSubscriptionsWhere(db: Executor, where: SQL | undefined): Promise<number> {
  const rows = await db.delete(pushSubscriptions).where(where).returning({ id: pushSubscriptions.id });
  return rows.length;
}

/** Deletes the subscriptions of `ids`; answers how many went. */
export async function deletePushSubscriptions(db: Executor, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return deleteSubscriptionsWhere(db, idIn(pushSubscriptions.id, ids));
}

/** Deletes the user's subscription of `endpoint`; false when the user has none there. */
export async function deletePushSubscriptionOfUser(db: Executor, userId: number, endpoint: string) {
  const where = and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint));
  return (await deleteSubscriptionsWhere(db, where)) > 0;
}

/** Deletes the subscription `id` if it still has `endpoint` (the push service said it is gone). */
export async function deleteGonePushSubscription(db: Executor, id: number, endpoint: string) {
  const where = and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.endpoint, endpoint));
  return (await deleteSubscriptionsWhere(db, where)) > 0;
}

/**
 * Deletes the user's subscriptions whose session ended (signed out, revoked, expired or purged),
 * then answers the rest: the subscriptions a push to the user goes to.
 */
export async function liveSubscriptionsOfUser(
  db: Executor,
  userId: number,
  now: Date,
): Promise<PushSubscriptionRow[]> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), sql`not ${liveSessionOf(now)}`));
  return pushSubscriptionsOfUser(db, userId);
}
