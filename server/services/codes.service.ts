/**
 * E-mail verification codes (spec section 9, CONTRACT.md): 6 digits, a 60 s resend countdown per
 * address and purpose, 10 minutes of life, dead after 5 wrong tries, used once.
 */
import crypto from 'node:crypto';
import { BodyCode } from '../../contract/codes.js';
import { CODE_MAX_WRONG_TRIES, CODE_RESEND_SECONDS, CODE_TTL_SECONDS } from '../../contract/constants.js';
import type { SendCodeData } from '../../contract/api/sso.js';
import type { Clock } from '../clock.js';
import type { Transaction } from '../db/database.js';
import { BusinessError } from '../core/errors.js';
import type { RequestContext } from '../core/context.js';
import type { Letters } from '../mail/letters.js';
import {
  countWrongTry,
  insertCode,
  latestCodeForUpdate,
  markCodeUsed,
  type CodePurpose,
} from '../repositories/code.repository.js';
import { findUserByEmail, type UserRow } from '../repositories/user.repository.js';
import type { Limits } from '../security/limits.js';
import type { SecretBox } from '../security/secret-box.js';
import { newVerificationCode, sha256Hex } from '../security/tokens.js';
import { recipientOf, SECURITY_CENTRE_PAGE } from './mail-recipients.js';

const codeHashOf = (email: string, purpose: CodePurpose, code: string) =>
  sha256Hex(`${purpose}:${email}:${code}`);
const codeError = (key: string) =>
  new BusinessError(BodyCode.oneTimeCodeRejected, key, { field: 'code' }, { field: 'code' });

export class CodeService {
  constructor(
    private readonly clock: Clock,
    private readonly letters: Letters,
    private readonly secrets: SecretBox,
    private readonly limits: Limits,
  ) {}

  /**
   * Makes a new code and mails it, in the caller's transaction (no code without its mail), in the
   * request's language, with the anti-phishing code of `user` (by default the account that uses
   * `email`, if any). A code to an address with no account (a registration's) cannot carry one:
   * it says so, and where to set one once registered.
   * Throws 429 within the 60 s countdown or past the client address's hourly limit.
   */
  async send(
    ctx: RequestContext,
    tx: Transaction,
    email: string,
    purpose: CodePurpose,
    user?: UserRow,
  ): Promise<SendCodeData> {
    const now = this.clock.now();
    const latest = await latestCodeForUpdate(tx, email, purpose);
    const waited = latest ? (now.getTime() - latest.createdAt.getTime()) / 1000 : Infinity;
    if (waited < CODE_RESEND_SECONDS) {
      const seconds = Math.ceil(CODE_RESEND_SECONDS - waited);
      throw new BusinessError(
        BodyCode.tooManyRequests,
        'server.code_countdown',
        { seconds },
        { retryAfter: seconds },
      );
    }
    await this.limits.countCodeSend(ctx.ip);
    const code = newVerificationCode();
    const expiresAt = new Date(now.getTime() + CODE_TTL_SECONDS * 1000);
    await insertCode(tx, {
      email,
      purpose,
      codeHash: codeHashOf(email, purpose, code),
      createdAt: now,
      expiresAt,
    });
    const owner = user ?? (await findUserByEmail(tx, email));
    await this.letters.send(
      owner
        ? recipientOf(this.secrets, owner, ctx.locale, email)
        : { email, locale: ctx.locale, antiPhishingCode: null },
      {
        subjectKey: `mail.${purpose}_subject`,
        paragraphs: [
          { key: `mail.${purpose}_body`, vars: { code } },
          ...(owner
            ? []
            : [{ key: 'mail.no_account_no_anti_phishing', vars: { page: SECURITY_CENTRE_PAGE } }]),
        ],
      },
    );
    return { resendAfter: CODE_RESEND_SECONDS, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Checks the newest code for the address and purpose. Returns the refusal (472) or null.
   * A wrong try is counted in `tx` (the caller must commit it even when refusing); `consume`
   * marks a right code used. Never throws for a wrong code.
   */
  async check(
    ctx: RequestContext,
    tx: Transaction,
    email: string,
    purpose: CodePurpose,
    code: string,
    consume: boolean,
  ): Promise<BusinessError | null> {
    await this.limits.assertNotLocked(null, ctx.ip);
    const now = this.clock.now();
    const latest = await latestCodeForUpdate(tx, email, purpose);
    if (!latest) return codeError('server.code_wrong');
    if (latest.usedAt) return codeError('server.code_used');
    if (latest.wrongTries >= CODE_MAX_WRONG_TRIES) return codeError('server.code_dead');
    if (latest.expiresAt <= now) return codeError('server.code_expired');
    const given = Buffer.from(codeHashOf(email, purpose, code));
    if (!crypto.timingSafeEqual(given, Buffer.from(latest.codeHash))) {
      await this.limits.recordFailure(null, ctx.ip);
      const tries = await countWrongTry(tx, latest.id);
      return codeError(tries >= CODE_MAX_WRONG_TRIES ? 'server.code_dead' : 'server.code_wrong');
    }
    if (consume) await markCodeUsed(tx, latest.id, now);
    return null;
  }
}
