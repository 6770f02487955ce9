/** The logged-in user's own profile. */
import type { UserInfo } from '../../contract/api/user.js';
import { invalidField, notLoggedIn } from '../core/errors.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import {
  findUserWithReferrerCode,
  listAccounts,
  updateUserProfile,
} from '../repositories/user.repository.js';
import { ReadCache } from './read-cache.js';
import type { SessionService } from './session.service.js';
import { AVATARS } from './common.service.js';
import { toProfileRecord } from './records.js';
import { profileChanged } from './user.collections.js';
import { CoreService, type ServiceCore } from './service-core.js';

export class UserService extends CoreService {
  /**
   * user/info's answer per user, read on every screen (read-cache.ts). Whatever changes a field it
   * shows (the users row, the user's accounts: KYC reviews and operators' edits to come included)
   * must call `sessions.forgetUsers` once its transaction has committed; tests/api/session-cache
   * checks each such path.
   */
  readonly #infos = new ReadCache<number, UserInfo>();

  constructor(
    core: ServiceCore,
    private readonly sessions: SessionService,
  ) {
    super(core);
    sessions.onUserEvictions((userIds) => this.#infos.evict(userIds));
  }

  /** Sets the nickname (spec: required); the profile reaches the user's other devices by sync. */
  updateNickname(ctx: RequestContext, nickname: string) {
    return this.updateProfile(ctx, { nickname });
  }

  /** Sets the avatar: one of common/avatarList. */
  updateAvatar(ctx: RequestContext, avatar: string) {
    if (!AVATARS.includes(avatar)) throw invalidField('avatar');
    return this.updateProfile(ctx, { avatar });
  }

  private async updateProfile(ctx: RequestContext, change: { nickname?: string; avatar?: string }) {
    const userId = userIdOf(ctx);
    const profile = await this.commands.run(ctx, async (tx) => {
      const now = this.clock.now();
      const user = await updateUserProfile(tx, userId, { ...change, updatedAt: now });
      if (!user) throw notLoggedIn();
      await profileChanged(tx, userId, now);
      return toProfileRecord(user);
    });
    await this.sessions.forgetUsers([userId]);
    return profile;
  }

  /**
   * The caller's full profile (CONTRACT.md: email, nickname, avatar, inviteCode, KYC, trade password,
   * authenticator). Read on every screen, so kept for a few seconds; every change to it evicts it.
   */
  async info(ctx: RequestContext): Promise<UserInfo> {
    const userId = userIdOf(ctx);
    const now = this.clock.now();
    const cached = this.#infos.get(userId, now);
    if (cached) return cached;
    const epoch = this.#infos.epoch;
    const info = await this.readInfo(userId);
    if (this.sessions.evictionsHeard) this.#infos.put(userId, info, now, epoch);
    return info;
  }

  private async readInfo(userId: number): Promise<UserInfo> {
    const [found, accountRows] = await Promise.all([
      findUserWithReferrerCode(this.db, userId),
      listAccounts(this.db, userId),
    ]);
    if (!found) throw notLoggedIn();
    const { user, referrerInviteCode } = found;
    return {
      id: String(user.id),
      email: user.email,
      nickname: user.nickname,
      avatar: user.avatar,
      inviteCode: user.inviteCode,
      referrerInviteCode,
      kycStatus: user.kycStatus as UserInfo['kycStatus'], // the column only ever holds kycStatusSchema values
      tradePasswordSet: user.tradePasswordHash !== null,
      authenticatorBound: user.authenticatorSecret !== null,
      antiPhishingSet: user.antiPhishingCode !== null,
      frozen: user.frozen,
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
