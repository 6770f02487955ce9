/**
 * Which Coffer account a call is about, and the refusal when it is not the caller's; the accounts
 * an operator's call names (an airdrop's, a ticket issue's).
 */
import { BodyCode } from '../../contract/codes.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notLoggedIn } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { accountBalances, type AccountBalances } from '../ledger/ledger.js';
import { accountsByIds, findOwnAccountId } from '../repositories/user.repository.js';
import { rabPrice, type RabPrice } from './settings.service.js';

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

/**
 * The caller's account as `ownAccount` names it (403 likewise), its balances from the ledger and
 * the RAB price, read together. Read-only.
 */
export async function ownBalances(
  db: Executor,
  ctx: RequestContext,
  accountId: string | undefined,
): Promise<{ accountId: number; own: AccountBalances; price: RabPrice }> {
  const own = await ownAccount(db, ctx, accountId);
  const [balances, price] = await Promise.all([accountBalances(db, [own.accountId]), rabPrice(db)]);
  const found = balances.get(own.accountId);
  if (!found) throw new Error('balances of a listed account are missing');
  return { accountId: own.accountId, own: found, price };
}

/** The accounts `accountIds` names; 400 naming `accountIds` (the first five missing) when any does not exist. */
export async function namedAccounts(db: Executor, accountIds: readonly number[]) {
  const found = await accountsByIds(db, accountIds);
  const missing = accountIds.filter((id) => !found.some((account) => account.id === id));
  if (missing.length > 0)
    throw invalidField('accountIds', 'server.airdrop_account_unknown', {
      ids: missing.slice(0, 5).join(', '),
    });
  return found;
}
