/**
 * Every route of spec section 2. A route with a page is built; one without shows the spec's
 * "not yet open" toast when opened. Route names are the spec's and live only in this table.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { FirstPageShown } from './first-page.js';
import { ROUTES } from './paths.js';

export type HeaderKind = 'standard' | 'custom';
export type Access = 'anyone' | 'user';

export interface RouteEntry {
  path: string;
  /** Standard pages draw a 44 px header with the page title; custom-header pages draw their own (offset 0). */
  header: HeaderKind;
  access: Access;
  /** Locale key of the page title (the page's one heading). */
  title?: string;
  page?: LazyExoticComponent<ComponentType>;
  tab?: boolean;
}

/** Each lazy page's one load, so that a start can fetch its first page's chunk early (`preloadPage`). */
const loads = new WeakMap<LazyExoticComponent<ComponentType>, () => Promise<unknown>>();

/**
 * The page with `FirstPageShown` in its own first commit. Not a sibling after the lazy page in the
 * Suspense: Preact mounts those (and runs their layout effects) before the page has resolved.
 */
function withFirstPageShown(Page: ComponentType): ComponentType {
  return function ShownPage() {
    return (
      <>
        <Page />
        <FirstPageShown />
      </>
    );
  };
}

/** The spec's bound on a page's chunk. */
const CHUNK_TIMEOUT_MS = 120_000;

/** A lazy page whose chunk must arrive within the spec's 120 s, or fail visibly (the bound's timer goes once it has). */
function page(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const once = () => {
    if (loading) return loading;
    let timer: ReturnType<typeof setTimeout> | undefined;
    loading = Promise.race([
      load(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('chunk load timeout')), CHUNK_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    return loading;
  };
  const component = lazy(() => once().then(({ default: Page }) => ({ default: withFirstPageShown(Page) })));
  loads.set(component, once);
  return component;
}

const built: RouteEntry[] = [
  {
    path: ROUTES.login,
    header: 'custom',
    access: 'anyone',
    page: page(() => import('../features/auth/LoginPage.js')),
  },
  {
    path: ROUTES.register,
    header: 'custom',
    access: 'anyone',
    page: page(() => import('../features/auth/RegisterPage.js')),
  },
  {
    path: ROUTES.registerVerify,
    header: 'standard',
    access: 'anyone',
    title: 'auth.verify_title',
    page: page(() => import('../features/auth/RegisterVerifyPage.js')),
  },
  {
    path: ROUTES.forgot,
    header: 'standard',
    access: 'anyone',
    title: 'auth.forgot_title',
    page: page(() => import('../features/auth/ForgotPage.js')),
  },
  {
    path: ROUTES.forgotVerify,
    header: 'standard',
    access: 'anyone',
    title: 'auth.verify_title',
    page: page(() => import('../features/auth/ForgotVerifyPage.js')),
  },
  {
    path: ROUTES.forgotReset,
    header: 'standard',
    access: 'anyone',
    title: 'auth.reset_title',
    page: page(() => import('../features/auth/ForgotResetPage.js')),
  },
  {
    path: ROUTES.download,
    header: 'custom',
    access: 'anyone',
    page: page(() => import('../features/download/DownloadPage.js')),
  },
  {
    path: ROUTES.home,
    header: 'standard',
    access: 'user',
    title: 'tabs.home',
    tab: true,
    page: page(() => import('../features/home/HomePage.js')),
  },
  {
    path: ROUTES.hosting,
    header: 'standard',
    access: 'user',
    title: 'tabs.hosting',
    tab: true,
    page: page(() => import('../features/hosting/HostingPage.js')),
  },
  {
    path: ROUTES.team,
    header: 'standard',
    access: 'user',
    title: 'tabs.team',
    tab: true,
    page: page(() => import('../features/team/TeamPage.js')),
  },
  {
    path: ROUTES.my,
    header: 'standard',
    access: 'anyone',
    title: 'tabs.assets',
    tab: true,
    page: page(() => import('../features/assets/MyPage.js')),
  },
  {
    path: ROUTES.trading,
    header: 'standard',
    access: 'user',
    title: 'tabs.trading',
    tab: true,
    page: page(() => import('../features/otc/TradingPage.js')),
  },
  {
    path: ROUTES.settings,
    header: 'custom',
    access: 'user',
    page: page(() => import('../features/settings/SettingsPage.js')),
  },
  {
    // A news article, the id in the query string (see ROUTES.article).
    path: ROUTES.article,
    header: 'standard',
    access: 'user',
    title: 'home.article_title',
    page: page(() => import('../features/home/ArticlePage.js')),
  },
  {
    // The outbox: commands waiting to be sent or refused (see ROUTES.outbox).
    path: ROUTES.outbox,
    header: 'standard',
    access: 'user',
    title: 'outbox.title',
    page: page(() => import('../features/outbox/OutboxPage.js')),
  },
  {
    path: ROUTES.profile,
    header: 'standard',
    access: 'user',
    title: 'profile.title',
    page: page(() => import('../features/settings/ProfilePage.js')),
  },
  {
    path: ROUTES.identity,
    header: 'standard',
    access: 'user',
    title: 'identity.title',
    page: page(() => import('../features/identity/IdentityPage.js')),
  },
  {
    path: ROUTES.feedback,
    header: 'standard',
    access: 'user',
    title: 'feedback.title',
    page: page(() => import('../features/settings/FeedbackPage.js')),
  },
  {
    path: ROUTES.walletRecords,
    header: 'standard',
    access: 'user',
    title: 'records.title',
    page: page(() => import('../features/records/RecordsPage.js')),
  },
  {
    path: ROUTES.accounts,
    header: 'standard',
    access: 'user',
    title: 'accounts.title',
    page: page(() => import('../features/account/AccountsPage.js')),
  },
  {
    path: ROUTES.recharge,
    header: 'standard',
    access: 'user',
    title: 'recharge.title',
    page: page(() => import('../features/recharge/RechargePage.js')),
  },
  {
    path: ROUTES.updatePassword,
    header: 'standard',
    access: 'user',
    title: 'settings.login_password',
    page: page(() => import('../features/security/LoginPasswordPage.js')),
  },
  {
    path: ROUTES.updatePassword1,
    header: 'standard',
    access: 'user',
    title: 'settings.trade_password',
    page: page(() => import('../features/security/TradePasswordPage.js')),
  },
  {
    path: ROUTES.updatePassword2,
    header: 'standard',
    access: 'user',
    title: 'settings.trade_password',
    page: page(() => import('../features/security/TradePasswordPage.js')),
  },
  {
    path: ROUTES.updatePassword3,
    header: 'standard',
    access: 'user',
    title: 'settings.authenticator',
    page: page(() => import('../features/security/AuthenticatorPage.js')),
  },
  {
    path: ROUTES.securityCentre,
    header: 'standard',
    access: 'user',
    title: 'settings.security_centre',
    page: page(() => import('../features/security/SecurityCentrePage.js')),
  },
  {
    path: ROUTES.withdraw2,
    header: 'standard',
    access: 'user',
    title: 'payments.title',
    page: page(() => import('../features/payment/PaymentMethodsPage.js')),
  },
  {
    path: ROUTES.exchange,
    header: 'standard',
    access: 'user',
    title: 'exchange.title',
    page: page(() => import('../features/exchange/ExchangePage.js')),
  },
  {
    path: ROUTES.withdraw,
    header: 'standard',
    access: 'user',
    title: 'withdraw.title',
    page: page(() => import('../features/withdraw/WithdrawPage.js')),
  },
  {
    path: ROUTES.withdrawRecords,
    header: 'standard',
    access: 'user',
    title: 'withdraw.records_title',
    page: page(() => import('../features/withdraw/WithdrawRecordsPage.js')),
  },
  {
    path: ROUTES.delivery,
    header: 'standard',
    access: 'user',
    title: 'delivery.title',
    page: page(() => import('../features/delivery/DeliveryPage.js')),
  },
  {
    path: ROUTES.machines,
    header: 'standard',
    access: 'user',
    title: 'machine.title',
    page: page(() => import('../features/machine/MachinesPage.js')),
  },
  {
    path: ROUTES.myMachines,
    header: 'standard',
    access: 'user',
    title: 'machine.mine_title',
    page: page(() => import('../features/machine/MyMachinesPage.js')),
  },
  {
    path: ROUTES.miningRecords,
    header: 'standard',
    access: 'user',
    title: 'machine.records_title',
    page: page(() => import('../features/machine/MiningRecordsPage.js')),
  },
  {
    path: ROUTES.tickets,
    header: 'standard',
    access: 'user',
    title: 'machine.tickets_title',
    page: page(() => import('../features/machine/TicketsPage.js')),
  },
  {
    path: ROUTES.dividends,
    header: 'standard',
    access: 'user',
    title: 'dividends.title',
    page: page(() => import('../features/dividend/DividendsPage.js')),
  },
  {
    path: ROUTES.sharePoster,
    header: 'standard',
    access: 'user',
    title: 'team.poster_title',
    page: page(() => import('../features/team/SharePosterPage.js')),
  },
  {
    path: ROUTES.reserves,
    header: 'standard',
    access: 'user',
    title: 'reserves.title',
    page: page(() => import('../features/reserves/ReservesPage.js')),
  },
  {
    path: ROUTES.kefu,
    header: 'standard',
    access: 'user',
    title: 'chat.kefu_title',
    page: page(() => import('../features/chat/KefuPage.js')),
  },
  {
    path: ROUTES.chatRoom,
    header: 'standard',
    access: 'user',
    title: 'chat.room_title',
    page: page(() => import('../features/chat/RoomPage.js')),
  },
  {
    path: ROUTES.passkeys,
    header: 'standard',
    access: 'user',
    title: 'passkeys.title',
    page: page(() => import('../features/passkeys/PasskeysPage.js')),
  },
];

const numbered = (base: string, numbers: number[]) => numbers.map((n) => `${base}${n}`);
const CUSTOM_HEADER = new Set(['/pages/index/index3', '/pages/index/index4', '/pages/index/index5']);

/** Routes of the spec whose pages come with later features. */
const notYetOpen: string[] = [
  ...numbered('/pages/index/index', [3, 4, 5]),
  '/pages/pdf/pdf',
  ...numbered('/pages/login/login', [1, 2]),
  '/pages/register/register1',
  '/pages/register/verify_code1',
  ...numbered('/pages/blance_record/blance_record', [1, 3, 4, 5, 7, 8, 9]),
  ...numbered('/pages/withdraw/withdraw', [4, 5, 6]),
  ...numbered('/pages/withdraw_record/withdraw_record', [1, 2, 6, 7]),
  '/choose-location',
  '/open-location',
];

export const ROUTE_TABLE: readonly RouteEntry[] = [
  ...built,
  ...notYetOpen.map((path): RouteEntry => ({
    path,
    header: CUSTOM_HEADER.has(path) ? 'custom' : 'standard',
    access: 'user',
  })),
];

const byPath = new Map(ROUTE_TABLE.map((entry) => [entry.path, entry]));

/** The route of a path; a query string (`?id=`, `?section=`) is not part of it. */
export function routeOf(path: string): RouteEntry | undefined {
  const bare = path.split('?')[0] ?? path;
  return byPath.get(bare === '/' ? ROUTES.login : bare);
}

/**
 * Starts fetching the chunk of `path`'s page, if it has one, before React asks for it: the start
 * overlaps it with reading the session and the language. A failure shows when the page renders.
 */
export function preloadPage(path: string): void {
  const component = routeOf(path)?.page;
  if (component)
    loads
      .get(component)?.()
      .catch(() => undefined);
}

/** Whether a path has a built page (the shell hands this to useGo through PageLookupContext). */
export function hasPage(path: string): boolean {
  return routeOf(path)?.page !== undefined;
}

/** Pages the launch rule leaves alone (spec section 2). */
const LAUNCH_EXEMPT = new Set<string>([ROUTES.download, ROUTES.register, ROUTES.registerVerify, ROUTES.my]);

/**
 * The spec's launch rule: unless the launch page is download, register, register verify_code
 * or my, a stored token goes to the home tab and none goes to login. Null: stay.
 */
export function launchTarget(launchPath: string, hasToken: boolean): string | null {
  if (LAUNCH_EXEMPT.has(launchPath)) return null;
  return hasToken ? ROUTES.home : ROUTES.login;
}

/** Where an anonymous visitor may go: login, forgot password, download, register, register verify-code, and my. */
export function allowedAnonymously(path: string): boolean {
  return routeOf(path)?.access === 'anyone';
}
