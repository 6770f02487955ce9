/** SQL about a user's authenticator, trade password and the time of their last security change. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { users } from '../db/schema.js';

export type SecurityChange = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'tradePasswordHash'
    | 'authenticatorSecret'
    | 'authenticatorPendingSecret'
    | 'authenticatorLastStep'
    | 'securityChangedAt'
    | 'antiPhishingCode'
  >
>;

export async function updateUserSecurity(
  db: Executor,
  userId: number,
  change: SecurityChange,
): Promise<void> {
  await db.update(users).set(change).where(eq(users.id, userId));
}

/** When the user last changed (not first bound) a password or the authenticator; null when never. */
export async function findSecurityChangedAt(db: Executor, userId: number): Promise<Date | null> {
  const [row] = await db
    .select({ securityChangedAt: users.securityChangedAt })
    .from(users)
    .where(eq(users.id, userId));
  return row?.securityChangedAt ?? null;
}
