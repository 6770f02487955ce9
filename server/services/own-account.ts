/** Which Coffer account a call is about, and the refusal when it is not the caller's. */
import { BodyCode } from '../../contract/codes.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, notLoggedIn } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { findUserById, listAccounts } from '../repositories/users.repository.js';

/** 403 naming the field: the account is not the caller's (or does not exist: the same answer). */
export const notYourAccount = (field: string) =>
  new BusinessError(BodyCode.forbidden, 'server.forbidden', {}, { field });

/** The account named by `accountId` when it is the caller's (403 otherwise); absent: the default account. */
export async function ownAccount(
  db: Executor,
  ctx: RequestContext,
  accountId: string | undefined,
): Promise<{ accountId: number; userId: number }> {
  const userId = userIdOf(ctx);
  const accounts = await listAccounts(db, userId);
  if (accountId === undefined) {
    const user = await findUserById(db, userId);
    const account = accounts.find((candidate) => candidate.id === user?.defaultAccountId) ?? accounts[0];
    if (!account) throw notLoggedIn();
    return { accountId: account.id, userId };
  }
  const account = accounts.find((candidate) => String(candidate.id) === accountId);
  if (!account) throw notYourAccount('accountId');
  return { accountId: account.id, userId };
}
