/** The logged-in user's own profile. */
import type { UserInfo } from '../../contract/api/user.js';
import type { Database } from '../db/database.js';
import { notLoggedIn } from '../http/answer.js';
import { userIdOf, type RequestContext } from '../http/context.js';
import { findUserById, listAccounts } from '../repositories/users.repository.js';

export class UserService {
  constructor(private readonly db: Database) {}

  /** The caller's full profile (CONTRACT.md: email, nickname, avatar, inviteCode, KYC, trade password, authenticator). */
  async info(ctx: RequestContext): Promise<UserInfo> {
    const user = await findUserById(this.db, userIdOf(ctx));
    if (!user) throw notLoggedIn();
    const [accountRows, referrer] = await Promise.all([
      listAccounts(this.db, user.id),
      user.referrerId === null ? undefined : findUserById(this.db, user.referrerId),
    ]);
    return {
      id: String(user.id),
      email: user.email,
      nickname: user.nickname,
      avatar: user.avatar,
      inviteCode: user.inviteCode,
      referrerInviteCode: referrer?.inviteCode ?? null,
      kycStatus: user.kycStatus as UserInfo['kycStatus'], // the column only ever holds kycStatusSchema values
      tradePasswordSet: user.tradePasswordHash !== null,
      authenticatorBound: user.authenticatorSecret !== null,
      lang: user.lang,
      defaultAccountId: String(user.defaultAccountId ?? accountRows[0]?.id ?? ''),
      accounts: accountRows.map((account) => ({
        id: String(account.id),
        kind: account.kind,
        name: account.name,
        createdAt: account.createdAt.toISOString(),
      })),
      createdAt: user.createdAt.toISOString(),
    };
  }
}
