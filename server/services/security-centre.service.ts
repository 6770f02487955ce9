/**
 * The security centre (pages/setting/setting5, docs/protocol.md): the user's signed-in sessions
 * and ending them, the anti-phishing code, the e-mail address change, and the sign-in alert.
 *
 * Rules that must stay true:
 * - a revoked session's token is refused at once on every instance: the revocation commits, then
 *   SessionService.forget drops it from every caller cache (Redis when shared);
 * - the anti-phishing code is stored only sealed and never sent back (user/info says whether one is set);
 * - an e-mail change needs a code mailed to the current address and one mailed to the new one;
 *   then the user's other sessions end and withdrawals wait 24 hours (a security change);
 * - an address that is taken is refused with the same answer as the user's own address: whose it is is never said;
 * - a sign-in from a device the user has not signed in from before mails an alert (the device,
 *   the address, the time, and how to end the session); its failure never fails the sign-in;
 * - a registration mails a welcome once (not on a replay) saying how to set an anti-phishing
 *   code, which its code mail could not carry; its failure never fails the registration.
 */
import { DateTime } from 'luxon';
import { BodyCode } from '../../contract/codes.js';
import { SECURITY_CHANGE_LOCK_HOURS } from '../../contract/constants.js';
import type {
  AntiPhishingParams,
  EmailUpdateData,
  EmailUpdateParams,
  SendEmailUpdateCodeParams,
  SessionRevokeData,
  SessionRevokeParams,
  UserSessionsData,
} from '../../contract/api/security-centre.js';
import type { SendCodeData } from '../../contract/api/sso.js';
import { Refusal } from '../core/command-runner.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import type { Transaction } from '../db/database.js';
import { BusinessError, invalidField, notFound, notLoggedIn } from '../core/errors.js';
import { existingRowId } from '../core/params.js';
import type { Letters, Paragraph, Recipient } from '../mail/letters.js';
import { rememberDevice, setUserEmail, setUserLang } from '../repositories/device.repository.js';
import { updateUserSecurity } from '../repositories/security.repository.js';
import { findUserByEmail, type UserRow } from '../repositories/user.repository.js';
import { deviceKeyOf, deviceOf } from '../security/device.js';
import type { SecretBox } from '../security/secret-box.js';
import type { CodeService } from './codes.service.js';
import { antiPhishingContext, recipientOf, SECURITY_CENTRE_PAGE } from './mail-recipients.js';
import { tradePasswordNotSet, type SecurityService } from './security.service.js';
import { changeOwnUser, lockOwnUser } from './own-user.js';
import type { SessionService } from './session.service.js';
import { profileChanged } from './user.collections.js';
import { CoreService, type ServiceCore } from './service-core.js';

const LOCK_MS = SECURITY_CHANGE_LOCK_HOURS * 3600 * 1000;

/** The same answer for a taken address, the user's own, or any other that cannot be used. */
const emailUnavailable = () =>
  new BusinessError(
    BodyCode.invalidInput,
    'server.email_unavailable',
    { field: 'newEmail' },
    { field: 'newEmail' },
  );

/** A sign-in alert to send once the sign-in committed. */
interface SignInAlert {
  recipient: Recipient;
  device: string;
  ip: string;
  at: Date;
}

/** What a sign-in's transaction noted, for `afterSignIn`. */
export interface SignInNote {
  userId: number;
  langChanged: boolean;
  alert: SignInAlert | null;
  /** A registration's: the new user, to be welcomed. */
  welcome: Recipient | null;
}

export class SecurityCentreService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly sessions: SessionService,
    private readonly security: SecurityService,
    private readonly codes: CodeService,
    private readonly letters: Letters,
    private readonly secrets: SecretBox,
  ) {
    super(core);
  }

  // ---- for the sign-in (auth.service.ts) ----

  /**
   * In the sign-in's (or registration's) transaction: stores the request's language as the user's
   * last one and remembers the device; a registration's note also carries the welcome mail's
   * recipient. Hand the note to `afterSignIn` once committed.
   */
  async noteSignIn(
    ctx: RequestContext,
    tx: Transaction,
    user: UserRow,
    registered = false,
  ): Promise<SignInNote> {
    const now = this.clock.now();
    const langChanged = await setUserLang(tx, user.id, ctx.locale);
    const device = deviceOf(ctx.userAgent);
    const { isNew, hadOthers } = await rememberDevice(tx, user.id, deviceKeyOf(user.id, device), now);
    // A new device alerts unless it is the first one remembered (the registration's, or an older account's first).
    const alert =
      isNew && hadOthers
        ? {
            recipient: recipientOf(this.secrets, user, ctx.locale),
            device: device.label,
            ip: ctx.ip,
            at: now,
          }
        : null;
    const welcome = registered ? recipientOf(this.secrets, user, ctx.locale) : null;
    return { userId: user.id, langChanged, alert, welcome };
  }

  /**
   * After the sign-in committed: drops the cached profile when the language changed (user/info
   * shows it) and mails the alert or the welcome, if any; a mail failure is logged, never thrown.
   */
  async afterSignIn(note: SignInNote): Promise<void> {
    if (note.langChanged) await this.sessions.forgetUsers([note.userId]);
    if (note.alert !== null) await this.sendSignInAlert(note.alert);
    if (note.welcome !== null) await this.sendWelcome(note.welcome);
  }

  /** The welcome after a registration: how to set the anti-phishing code its code mail lacked. */
  private sendWelcome(recipient: Recipient): Promise<void> {
    return this.sendNotice(recipient, 'the welcome mail', {
      subjectKey: 'mail.welcome_subject',
      body: { key: 'mail.welcome_body', vars: { email: recipient.email } },
      closingKey: 'mail.welcome_anti_phishing',
    });
  }

  private sendSignInAlert(alert: SignInAlert): Promise<void> {
    const time = DateTime.fromJSDate(alert.at, { zone: 'utc' }).toFormat("yyyy-MM-dd HH:mm 'UTC'");
    return this.sendNotice(alert.recipient, 'the sign-in alert', {
      subjectKey: 'mail.sign_in_alert_subject',
      body: { key: 'mail.sign_in_alert_body', vars: { device: alert.device, ip: alert.ip, time } },
      closingKey: 'mail.sign_in_alert_not_you',
    });
  }

  // ---- sessions ----

  /** The caller's live sessions, the most recently used first. */
  async listSessions(ctx: RequestContext): Promise<UserSessionsData> {
    const userId = userIdOf(ctx);
    const current = ctx.caller.kind === 'user' ? ctx.caller.tokenHash : '';
    const rows = await this.sessions.listOfUser(this.db, userId);
    return {
      items: rows.map((row) => ({
        id: String(row.id),
        device: deviceOf(row.userAgent).label,
        ip: row.ip ?? '',
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.tokenHash === current,
      })),
    };
  }

  /**
   * Ends one of the caller's sessions (404 when it names none of their live ones) or every other
   * one; once committed, no instance accepts their tokens any more.
   */
  async revokeSession(ctx: RequestContext, params: SessionRevokeParams): Promise<SessionRevokeData> {
    const userId = userIdOf(ctx);
    if (ctx.caller.kind !== 'user') throw notLoggedIn();
    const keepToken = ctx.caller.tokenHash;
    let revoked: string[] = [];
    try {
      return await this.commands.run(ctx, async (tx) => {
        if (params.others) {
          revoked = await this.sessions.revokeOthers(tx, 'user', userId, keepToken);
        } else {
          const tokenHash = await this.sessions.revokeOfUser(
            tx,
            userId,
            existingRowId(params.sessionId ?? ''),
          );
          if (tokenHash === undefined) throw notFound();
          revoked = [tokenHash];
        }
        return { revoked: revoked.length };
      });
    } finally {
      await this.sessions.forget(revoked);
    }
  }

  // ---- the anti-phishing code ----

  /**
   * Sets or changes the anti-phishing code, proved with an authenticator code (`googleCode`) when
   * one is bound, else with the trade password (300 when none is set).
   */
  setAntiPhishing(ctx: RequestContext, params: AntiPhishingParams): Promise<{ done: true }> {
    return changeOwnUser(this.commands, this.sessions, ctx, async (tx, user) => {
      if (user.authenticatorSecret !== null) {
        if (params.googleCode === undefined) throw invalidField('googleCode', 'server.field_required');
        await this.security.verifyAuthenticatorCode(tx, user.id, params.googleCode);
      } else {
        if (user.tradePasswordHash === null) throw tradePasswordNotSet();
        if (params.tradePassword === undefined) throw invalidField('tradePassword', 'server.field_required');
        await this.security.verifyTradePassword(tx, user.id, params.tradePassword);
      }
      await updateUserSecurity(tx, user.id, {
        antiPhishingCode: this.secrets.seal(params.code, antiPhishingContext(user.id)),
      });
      return { done: true as const };
    });
  }

  // ---- the e-mail address ----

  /**
   * Mails a code to the caller's address and one to `newEmail` (each with the 60 s countdown);
   * 400 `server.email_unavailable` when the new address is the caller's or anyone's.
   */
  sendEmailUpdateCode(ctx: RequestContext, params: SendEmailUpdateCodeParams): Promise<SendCodeData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const user = await lockOwnUser(tx, userId);
      await this.assertEmailFree(tx, user, params.newEmail);
      const sent = await this.codes.send(ctx, tx, user.email, 'update_email_old', user);
      await this.codes.send(ctx, tx, params.newEmail, 'update_email_new', user);
      return sent;
    });
  }

  /**
   * Changes the caller's address with both codes: ends every other session, starts the 24-hour
   * withdrawal lock, and tells the old address.
   */
  async updateEmail(ctx: RequestContext, params: EmailUpdateParams): Promise<EmailUpdateData> {
    const userId = userIdOf(ctx);
    if (ctx.caller.kind !== 'user') throw notLoggedIn();
    const keepToken = ctx.caller.tokenHash;
    let revoked: string[] = [];
    const notices: Array<{ recipient: Recipient; newEmail: string }> = [];
    const changed = await this.commands.run(ctx, async (tx) => {
      const user = await lockOwnUser(tx, userId);
      await this.assertEmailFree(tx, user, params.newEmail);
      // A refusal names the field of its code (codes.check names `code`).
      const check = async (
        email: string,
        purpose: 'update_email_old' | 'update_email_new',
        code: string,
        consume: boolean,
      ) => {
        const refused = await this.codes.check(ctx, tx, email, purpose, code, consume);
        const field = purpose === 'update_email_old' ? 'oldCode' : 'newCode';
        return (
          refused &&
          new BusinessError(refused.code, refused.messageKey, { ...refused.vars, field }, { field })
        );
      };
      const refusal =
        (await check(user.email, 'update_email_old', params.oldCode, false)) ??
        (await check(params.newEmail, 'update_email_new', params.newCode, true)) ??
        (await check(user.email, 'update_email_old', params.oldCode, true));
      if (refusal) return new Refusal(refusal);
      const now = this.clock.now();
      await setUserEmail(tx, userId, params.newEmail, now);
      await updateUserSecurity(tx, userId, { securityChangedAt: now });
      revoked = await this.sessions.revokeOthers(tx, 'user', userId, keepToken);
      await profileChanged(tx, userId, now);
      notices.push({ recipient: recipientOf(this.secrets, user, ctx.locale), newEmail: params.newEmail });
      return {
        email: params.newEmail,
        withdrawalsLockedUntil: new Date(now.getTime() + LOCK_MS).toISOString(),
      };
    });
    await this.sessions.forget(revoked);
    await this.sessions.forgetUsers([userId]);
    for (const notice of notices) await this.sendEmailChangedNotice(notice);
    return changed;
  }

  // ---- helpers ----

  /** Tells the old address that the account moved to another one; logged, never thrown. */
  private sendEmailChangedNotice(notice: { recipient: Recipient; newEmail: string }): Promise<void> {
    return this.sendNotice(notice.recipient, 'the e-mail change notice', {
      subjectKey: 'mail.email_changed_subject',
      body: { key: 'mail.email_changed_body', vars: { email: notice.newEmail } },
      closingKey: 'mail.email_changed_not_you',
    });
  }

  /**
   * Mails a security notice: its subject, its body, and a closing paragraph that points at the
   * security centre; a failure is logged (`what` could not be sent), never thrown.
   */
  private async sendNotice(
    recipient: Recipient,
    what: string,
    notice: { subjectKey: string; body: Paragraph; closingKey: string },
  ): Promise<void> {
    try {
      await this.letters.send(recipient, {
        subjectKey: notice.subjectKey,
        paragraphs: [notice.body, { key: notice.closingKey, vars: { page: SECURITY_CENTRE_PAGE } }],
      });
    } catch (error) {
      this.logError(`${what} could not be sent`, error);
    }
  }

  private async assertEmailFree(tx: Transaction, user: UserRow, newEmail: string): Promise<void> {
    if (newEmail === user.email || (await findUserByEmail(tx, newEmail))) throw emailUnavailable();
  }
}
