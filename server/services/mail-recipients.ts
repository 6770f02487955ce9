/**
 * Who a user's e-mail goes to and how it is written: their address, the language (the request's
 * that caused the mail, else the one they last used), and their anti-phishing code, opened from
 * its seal (shown at the top of every e-mail to them, server/mail/letters.ts).
 */
import { DEFAULT_LOCALE, isLocale } from '../../contract/locales.js';
import type { Locale } from '../i18n/i18n.js';
import type { Recipient } from '../mail/letters.js';
import type { UserRow } from '../repositories/user.repository.js';
import type { SecretBox } from '../security/secret-box.js';

/**
 * The security centre's page in the app, which mail names: where a customer ends a session and
 * sets the anti-phishing code.
 */
export const SECURITY_CENTRE_PAGE = 'pages/setting/setting5';

/** The sealed anti-phishing code's associated data: a code sealed for one user never opens for another. */
export const antiPhishingContext = (userId: number) => `anti-phishing:${userId}`;

/** The language a user last used (users.lang), or the default one. */
export const lastLocaleOf = (user: Pick<UserRow, 'lang'>): Locale =>
  isLocale(user.lang) ? user.lang : DEFAULT_LOCALE;

/**
 * The recipient for a mail to `user` (at `email` when given: the new address during an e-mail
 * change), in `locale` when a request of theirs caused it, else in their last language.
 */
export function recipientOf(
  secrets: SecretBox,
  user: Pick<UserRow, 'id' | 'email' | 'lang' | 'antiPhishingCode'>,
  locale: Locale = lastLocaleOf(user),
  email: string = user.email,
): Recipient {
  return {
    email,
    locale,
    antiPhishingCode:
      user.antiPhishingCode === null
        ? null
        : secrets.open(user.antiPhishingCode, antiPhishingContext(user.id)),
  };
}
