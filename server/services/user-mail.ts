/**
 * E-mail to a user that no request of theirs caused (the outcome of an operator's review, a
 * notice): written in the language they last used, with their anti-phishing code at the top, as
 * every mail (server/mail/letters.ts). Mail a request causes is written in that request's
 * language: build its recipient with recipientOf(…, ctx.locale).
 */
import type { Database, Executor } from '../db/database.js';
import type { Locale } from '../i18n/i18n.js';
import type { Letter, Letters } from '../mail/letters.js';
import { findUserById } from '../repositories/user.repository.js';
import type { SecretBox } from '../security/secret-box.js';
import { recipientOf } from './mail-recipients.js';

export class UserMail {
  constructor(
    private readonly db: Database,
    private readonly letters: Letters,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Sends `letter` to the user's address, in `locale` or else their last language; false when
   * there is no such user. Throws when the transport refuses it (after a commit: catch and log).
   */
  async send(userId: number, letter: Letter, locale?: Locale, db: Executor = this.db): Promise<boolean> {
    const user = await findUserById(db, userId);
    if (!user) return false;
    await this.letters.send(recipientOf(this.secrets, user, locale), letter);
    return true;
  }
}
