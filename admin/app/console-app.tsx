/**
 * The console's session: the token in sessionStorage (gone with the tab), the operator read from
 * /auth/me, and the way through setup (password, then authenticator) to the shell. A 401 goes
 * back to sign-in, a 403 `setup_required` back to setup.
 */
import { LoadingOutlined } from '@ant-design/icons';
import { App, ConfigProvider, Spin } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { adminMeDataSchema, doneDataSchema } from '../../contract/api/admin.js';
import { consoleApi } from '../api.js';
import { I18nProvider, langHeaderOf, storedLocale, useI18n, type ConsoleLocale } from '../i18n/i18n.js';
import { BindAuthenticatorPage } from '../pages/bind-authenticator-page.js';
import { ChangePasswordPage } from '../pages/change-password-page.js';
import { SignInPage } from '../pages/sign-in-page.js';
import { ConsoleContext, type ConsoleContextValue, type Me } from './context.js';
import { Shell } from './shell.js';
import { StepUpDialog, type StepUpRequest } from './step-up-dialog.js';

/**
 * A busy button keeps its name ("Sign in", not "loading Sign in"): its spinner is hidden from
 * assistive technology, and it goes the moment the work ends (antd's own spinner leaves through
 * a width transition whose end a busy browser may never report, leaving the name changed).
 */
const BUTTON = { autoInsertSpace: false, loadingIcon: <LoadingOutlined aria-hidden /> };

const TOKEN_KEY = 'coffer-console-token';

/** The console's theme: the app's green, with text colours dark enough for WCAG AA on their backgrounds. */
const THEME = {
  token: {
    colorPrimary: '#0f5f57',
    colorLink: '#0f5f57',
    colorLinkHover: '#0b4a44',
    colorTextDescription: '#595959',
    colorTextTertiary: '#595959',
    colorError: '#cf1322',
    borderRadius: 6,
  },
  components: { Menu: { itemSelectedBg: '#e3efed', itemSelectedColor: '#0b4a44' } },
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** True while the operator's system asks for less motion (WCAG 2.3.3): antd then animates nothing. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}

export function ConsoleRoot({ nonce }: { nonce: string }) {
  const reducedMotion = usePrefersReducedMotion();
  const theme = useMemo(
    () => ({ ...THEME, token: { ...THEME.token, motion: !reducedMotion } }),
    [reducedMotion],
  );
  const language = useRef<ConsoleLocale>(storedLocale());
  const [locale, setLocale] = useState(language.current);
  const onLanguage = useCallback((next: ConsoleLocale) => {
    language.current = next;
    setLocale(next);
  }, []);
  return (
    <ConfigProvider csp={{ nonce }} theme={theme} button={BUTTON} locale={locale === 'en' ? enUS : zhCN}>
      <App>
        <I18nProvider onChange={onLanguage}>
          <ConsoleSession language={language} />
        </I18nProvider>
      </App>
    </ConfigProvider>
  );
}

function ConsoleSession({ language }: { language: { current: ConsoleLocale } }) {
  const { t } = useI18n();
  const [me, setMe] = useState<Me | null>(null);
  const [loading, setLoading] = useState(() => sessionStorage.getItem(TOKEN_KEY) !== null);
  const [stepUpRequest, setStepUpRequest] = useState<StepUpRequest | null>(null);
  const refreshRef = useRef<() => Promise<void>>(async () => undefined);

  const forget = useCallback(() => {
    sessionStorage.removeItem(TOKEN_KEY);
    setMe(null);
  }, []);

  const api = useMemo(
    () =>
      consoleApi({
        fetch: (input, init) => fetch(input, init),
        token: () => sessionStorage.getItem(TOKEN_KEY),
        lang: () => langHeaderOf(language.current),
        newKey: () => crypto.randomUUID(),
        onSignedOut: forget,
        onSetupRequired: () => void refreshRef.current(),
        stepUp: () =>
          new Promise<boolean>((resolve) =>
            setStepUpRequest({
              resolve: (steppedUp) => {
                setStepUpRequest(null);
                resolve(steppedUp);
              },
            }),
          ),
      }),
    [forget, language],
  );

  const refreshMe = useCallback(async () => {
    try {
      setMe(await api.read('/api/admin/auth/me', {}, adminMeDataSchema));
    } catch {
      // a 401 has already signed the console out; anything else leaves the page as it is
    } finally {
      setLoading(false);
    }
  }, [api]);
  refreshRef.current = refreshMe;

  useEffect(() => {
    if (sessionStorage.getItem(TOKEN_KEY) !== null) void refreshMe();
  }, [refreshMe]);

  const signOut = useCallback(async () => {
    await api.command('/api/admin/auth/logout', {}, doneDataSchema).catch(() => undefined);
    forget();
  }, [api, forget]);

  const context = useMemo<ConsoleContextValue | null>(
    () => (me ? { api, me, refreshMe, signOut } : null),
    [api, me, refreshMe, signOut],
  );

  let screen;
  if (loading) screen = <Spin className="console-loading" aria-label={t('app.title')} />;
  else if (!context)
    screen = (
      <SignInPage
        api={api}
        onSignedIn={async (session) => {
          sessionStorage.setItem(TOKEN_KEY, session.token);
          await refreshMe();
        }}
      />
    );
  else if (context.me.mustChangePassword) screen = <ChangePasswordPage />;
  else if (!context.me.authenticatorBound) screen = <BindAuthenticatorPage />;
  else screen = <Shell />;

  return (
    <ConsoleContext.Provider value={context}>
      {screen}
      <StepUpDialog api={api} request={stepUpRequest} />
    </ConsoleContext.Provider>
  );
}
