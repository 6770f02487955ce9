/** The caller's own user row, as the services that change it take it. */
import type { CommandRunner } from '../core/command-runner.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { notLoggedIn } from '../core/errors.js';
import type { Executor, Transaction } from '../db/database.js';
import { lockUser, type UserRow } from '../repositories/user.repository.js';
import type { SessionService } from './session.service.js';

/** The user's row, locked until the transaction ends; 401 when it is gone. */
export async function lockOwnUser(tx: Executor, userId: number): Promise<UserRow> {
  const user = await lockUser(tx, userId);
  if (!user) throw notLoggedIn();
  return user;
}

/**
 * Runs `change` as the caller's exactly-once command on their locked row, then forgets their
 * cached session info once it has committed (user/info shows what changed).
 */
export async function changeOwnUser<T>(
  commands: CommandRunner,
  sessions: SessionService,
  ctx: RequestContext,
  change: (tx: Transaction, user: UserRow) => Promise<T>,
): Promise<T> {
  const userId = userIdOf(ctx);
  const changed = await commands.run(ctx, async (tx) => change(tx, await lockOwnUser(tx, userId)));
  await sessions.forgetUsers([userId]);
  return changed;
}
