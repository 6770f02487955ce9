/** The local session and preferences (`coffer-session`); nothing here goes to the network. */
import { BodyCode } from '../../contract/codes.js';
import { isLocale, type Locale } from '../../contract/locales.js';
import type { Outcome } from '../transport.js';
import type { HandlerDeps } from './deps.js';

/** The stored session as the UI sees it; every field but `locale` is null when logged out. */
export interface SessionView {
  token: string | null;
  userId: string | null;
  email: string | null;
  /** The locale the user chose; null when none was ever chosen (the UI then picks one). */
  locale: Locale | null;
}

export function sessionHandlers({ session }: HandlerDeps) {
  return {
    /**
     * Stores the user's locale; every later call's `lang` header follows it. An unknown
     * locale is refused with 400 on `locale` and changes nothing.
     */
    async 'session-set-locale'({ locale }: { locale: string }): Promise<Outcome<{ locale: Locale }>> {
      if (!isLocale(locale)) {
        return {
          kind: 'refused',
          code: BodyCode.invalidInput,
          message: 'unknown locale',
          data: { field: 'locale' },
        };
      }
      await session.setLocale(locale);
      return { kind: 'ok', message: '', data: { locale } };
    },

    async 'session-get'(): Promise<SessionView> {
      const [stored, locale] = await Promise.all([session.getSession(), session.getLocale()]);
      return {
        token: stored?.token ?? null,
        userId: stored?.userId ?? null,
        email: stored?.email ?? null,
        locale,
      };
    },
  };
}
