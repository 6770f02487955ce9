/** Which Coffer account a call is about, and the refusal when it is not the caller's. */
import { BodyCode } from '../../contract/codes.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, notLoggedIn } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { findOwnAccountId } from '../repositories/users.repository.js';

/** 403 naming the field: the account is not the caller's (or does not exist: the same answer). */
export const notYourAccount = (field: string) =>
  new BusinessError(BodyCode.forbidden, 'server.forbidden', {}, { field });

/** The account named by `accountId` when it is the caller's (403 otherwise); absent: the default account. One query. */
export async function ownAccount(
  db: Executor,
  ctx: RequestContext,
  accountId: string | undefined,
): Promise<{ accountId: number; userId: number }> {
  const userId = userIdOf(ctx);
  if (accountId === undefined) {
    const id = await findOwnAccountId(db, userId, null);
    if (id === undefined) throw notLoggedIn();
    return { accountId: id, userId };
  }
  // Ids are written in decimal without leading zeros; any other spelling names no account.
  const wanted = /^[1-9][0-9]{0,15}$/.test(accountId) ? Number(accountId) : NaN;
  const id = Number.isSafeInteger(wanted) ? await findOwnAccountId(db, userId, wanted) : undefined;
  if (id === undefined) throw notYourAccount('accountId');
  return { accountId: id, userId };
}
