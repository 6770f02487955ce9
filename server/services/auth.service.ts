/** Registration, login, logout and password recovery (spec sections 5 and 7, CONTRACT.md). */
import { BodyCode } from '../../contract/codes.js';
import type {
  CheckForgetCodeParams,
  CheckRegisterInfoParams,
  EmailLoginParams,
  ForgotParams,
  RegisterParams,
  SendCodeParams,
  SessionData,
} from '../../contract/api/sso.js';
import type { PasskeyLoginOptionsData, PasskeyLoginParams } from '../../contract/api/passkeys.js';
import { NICKNAME_MAX_LENGTH } from '../../contract/constants.js';
import type { Clock } from '../clock.js';
import { type CommandRunner, Refusal } from '../core/command-runner.js';
import type { Transaction } from '../db/database.js';
import { BusinessError } from '../core/errors.js';
import type { RequestContext } from '../core/context.js';
import { updateUserSecurity } from '../repositories/security.repository.js';
import {
  findInvite,
  findUserByEmail,
  insertInvite,
  insertReferralChain,
  insertUser,
  setPasswordHash,
  type UserRow,
} from '../repositories/user.repository.js';
import type { Limits } from '../security/limits.js';
import { decoyHash, hashPassword, verifyPassword } from '../security/passwords.js';
import { newInviteCode } from '../security/tokens.js';
import type { CodeService } from './codes.service.js';
import type { SessionService } from './session.service.js';
import type { AccountService } from './account.service.js';
import { AVATARS } from './common.service.js';
import type { SecurityCentreService, SignInNote } from './security-centre.service.js';
import type { PasskeyService } from './passkey.service.js';
import { profileChanged } from './user.collections.js';

const emailTaken = () =>
  new BusinessError(BodyCode.conflict, 'server.email_taken', { field: 'email' }, { field: 'email' });
const emailUnknown = () =>
  new BusinessError(BodyCode.notFound, 'server.email_unknown', { field: 'email' }, { field: 'email' });
const inviteUnknown = () =>
  new BusinessError(
    BodyCode.invalidInput,
    'server.invite_unknown',
    { field: 'inviteCode' },
    { field: 'inviteCode' },
  );
const wrongCredentials = () =>
  new BusinessError(BodyCode.invalidInput, 'server.wrong_credentials', {}, { field: 'password' });

/** What a session remembers of the client that signed in. */
const clientOf = (ctx: RequestContext) => ({ userAgent: ctx.userAgent, ip: ctx.ip });

/** Invite codes are typed by hand: compared without case or surrounding spaces. */
const normalizeInvite = (code: string) => code.trim().toUpperCase();

export class AuthService {
  #decoy: Promise<string> | undefined;

  constructor(
    private readonly commands: CommandRunner,
    private readonly clock: Clock,
    private readonly codes: CodeService,
    private readonly sessions: SessionService,
    private readonly limits: Limits,
    private readonly scryptCost: number,
    private readonly accounts: AccountService,
    private readonly centre: SecurityCentreService,
    private readonly passkeys: PasskeyService,
  ) {}

  /** Mails a registration code; 409 when the address already has an account. */
  sendRegisterCode(ctx: RequestContext, params: SendCodeParams) {
    return this.commands.run(ctx, async (tx) => {
      if (await findUserByEmail(tx, params.email)) throw emailTaken();
      return this.codes.send(ctx, tx, params.email, 'register');
    });
  }

  /** Checks the address is free and the invite exists, without registering anything. */
  checkRegisterInfo(ctx: RequestContext, params: CheckRegisterInfoParams) {
    return this.commands.run(ctx, async (tx) => {
      await this.assertRegistrable(tx, params.email, params.inviteCode);
      return { valid: true as const };
    });
  }

  /**
   * Creates the user, their main account and own invite code, stores the referral chain and
   * starts a session. One account per address, also when registrations race. Once committed it
   * mails the welcome (how to set an anti-phishing code); a replayed answer mails nothing.
   */
  async register(ctx: RequestContext, params: RegisterParams): Promise<SessionData> {
    const notes: SignInNote[] = [];
    const registered = await this.commands.run(ctx, async (tx) => {
      const invite = await this.assertRegistrable(tx, params.email, params.inviteCode);
      const refusal = await this.codes.check(ctx, tx, params.email, 'register', params.code, true);
      if (refusal) return new Refusal(refusal);
      const now = this.clock.now();
      const passwordHash = await hashPassword(params.password, this.scryptCost);
      const nickname = (params.email.split('@')[0] ?? 'user').slice(0, NICKNAME_MAX_LENGTH);
      let user;
      for (let attempt = 0; !user && attempt < 5; attempt += 1) {
        user = await insertUser(tx, {
          email: params.email,
          passwordHash,
          nickname,
          avatar: AVATARS[0] ?? '',
          inviteCode: newInviteCode(),
          referrerId: invite.ownerUserId,
          lang: ctx.locale,
          createdAt: now,
          passwordChangedAt: now,
        });
        if (!user && (await findUserByEmail(tx, params.email))) throw emailTaken();
      }
      if (!user) throw new Error('could not find a free invite code');
      await this.accounts.openMainAccount(tx, user.id, now);
      if (
        !(await insertInvite(tx, {
          code: user.inviteCode,
          ownerUserId: user.id,
          createdBy: `user:${user.id}`,
          createdAt: now,
        }))
      ) {
        throw new Error('invite code collided with an operator invite');
      }
      if (invite.ownerUserId !== null) await insertReferralChain(tx, invite.ownerUserId, user.id);
      await profileChanged(tx, user.id, now);
      // Its first device: remembered, no alert; its language: the request's; a welcome once committed.
      notes.push(await this.centre.noteSignIn(ctx, tx, user, true));
      const session = await this.sessions.start(tx, 'user', user.id, false, clientOf(ctx));
      return { ...session, userId: String(user.id) };
    });
    for (const note of notes) await this.centre.afterSignIn(note);
    return registered;
  }

  /**
   * Logs in with e-mail and password; repeated wrong passwords lock the address and the client
   * (423). A sign-in from a device not seen before for the user mails an alert once committed.
   */
  async emailLogin(ctx: RequestContext, params: EmailLoginParams): Promise<SessionData> {
    const notes: SignInNote[] = [];
    const signedIn = await this.commands.run(ctx, async (tx) => {
      await this.limits.assertNotLocked(params.email, ctx.ip);
      const user = await findUserByEmail(tx, params.email);
      const matches = await verifyPassword(params.password, user?.passwordHash ?? (await this.decoy()));
      if (!user || !matches) {
        await this.limits.recordFailure(params.email, ctx.ip);
        throw wrongCredentials();
      }
      await this.limits.clearAccount(params.email);
      return this.signIn(ctx, tx, user, notes);
    });
    for (const note of notes) await this.centre.afterSignIn(note);
    return signedIn;
  }

  /** A challenge for signing in with a passkey (docs/protocol.md section 33). */
  passkeyOptions(): Promise<PasskeyLoginOptionsData> {
    return this.passkeys.loginOptions();
  }

  /**
   * Signs in with a passkey, no e-mail typed: the same session, sign-in alert and language as
   * the e-mail login. Refused responses count against the client address like wrong passwords.
   */
  async passkeyLogin(ctx: RequestContext, params: PasskeyLoginParams): Promise<SessionData> {
    const notes: SignInNote[] = [];
    const signedIn = await this.commands.run(ctx, async (tx) => {
      await this.limits.assertNotLocked(null, ctx.ip);
      let user: UserRow;
      try {
        user = await this.passkeys.verifyLogin(tx, params);
      } catch (error) {
        if (error instanceof BusinessError) await this.limits.recordFailure(null, ctx.ip);
        throw error;
      }
      return this.signIn(ctx, tx, user, notes);
    });
    for (const note of notes) await this.centre.afterSignIn(note);
    return signedIn;
  }

  /** Revokes the caller's token; once committed, no instance accepts it any more. */
  async logout(ctx: RequestContext) {
    const revoked = 'tokenHash' in ctx.caller ? [ctx.caller.tokenHash] : [];
    try {
      return await this.commands.run(ctx, async (tx) => {
        for (const tokenHash of revoked) await this.sessions.revoke(tx, tokenHash);
        return { done: true as const };
      });
    } finally {
      // Also after a replayed answer or a failure: dropping a cached caller is always safe.
      await this.sessions.forget(revoked);
    }
  }

  /** Mails a password reset code; 404 when no account uses the address. */
  sendForgetCode(ctx: RequestContext, params: SendCodeParams) {
    return this.commands.run(ctx, async (tx) => {
      if (!(await findUserByEmail(tx, params.email))) throw emailUnknown();
      return this.codes.send(ctx, tx, params.email, 'forget');
    });
  }

  /** Verifies a reset code without using it up (a wrong try still counts). */
  checkForgetCode(ctx: RequestContext, params: CheckForgetCodeParams) {
    return this.commands.run(ctx, async (tx) => {
      if (!(await findUserByEmail(tx, params.email))) throw emailUnknown();
      const refusal = await this.codes.check(ctx, tx, params.email, 'forget', params.code, false);
      return refusal ? new Refusal(refusal) : { valid: true as const };
    });
  }

  /** Sets a new password with a reset code, uses the code up and revokes every session. */
  async forgot(ctx: RequestContext, params: ForgotParams) {
    let revoked: string[] = [];
    const done = await this.commands.run(ctx, async (tx) => {
      const user = await findUserByEmail(tx, params.email);
      if (!user) throw emailUnknown();
      const refusal = await this.codes.check(ctx, tx, params.email, 'forget', params.code, true);
      if (refusal) return new Refusal(refusal);
      const now = this.clock.now();
      await setPasswordHash(tx, user.id, await hashPassword(params.password, this.scryptCost), now);
      // A reset is a change of the login password: withdrawals wait 24 hours (security.service.ts).
      await updateUserSecurity(tx, user.id, { securityChangedAt: now });
      revoked = await this.sessions.revokeAll(tx, 'user', user.id);
      await this.limits.clearAccount(params.email);
      return { done: true as const };
    });
    await this.sessions.forget(revoked);
    return done;
  }

  /** The end of every sign-in: notes the device and language (for `afterSignIn`) and starts a session. */
  private async signIn(
    ctx: RequestContext,
    tx: Transaction,
    user: UserRow,
    notes: SignInNote[],
  ): Promise<SessionData> {
    notes.push(await this.centre.noteSignIn(ctx, tx, user));
    const session = await this.sessions.start(tx, 'user', user.id, false, clientOf(ctx));
    return { ...session, userId: String(user.id) };
  }

  private async assertRegistrable(tx: Transaction, email: string, inviteCode: string) {
    const invite = await findInvite(tx, normalizeInvite(inviteCode));
    if (!invite) throw inviteUnknown();
    if (await findUserByEmail(tx, email)) throw emailTaken();
    return invite;
  }

  private decoy(): Promise<string> {
    this.#decoy ??= decoyHash(this.scryptCost);
    return this.#decoy;
  }
}
