/** The shell: hash routes of the spec, the launch rule, guards, headers, the tab bar. */
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { readStoredSession, useSession } from '../../client-db/use-session.js';
import { OfflineBanner } from '../ui/OfflineBanner.js';
import { ServiceButton } from '../ui/ServiceButton.js';
import { toast } from '../ui/toast.js';
import { drawnPageLaunch, rememberSignedIn } from './prerender.js';
import { ChunkErrorBoundary, PageLoading } from './loading.js';
import { PageHeader } from './PageHeader.js';
import { PageLookupContext } from './navigation.js';
import { ROUTES } from './paths.js';
import { hasPage, launchTarget, ROUTE_TABLE, type RouteEntry } from './routes.js';
import { AppUpdate } from './AppUpdate.js';
import { useSyncEngine } from './sync-boot.js';
import { useRefusalNotices } from '../features/outbox/use-refusal-notices.js';
import { TabBar } from './TabBar.js';

export function App() {
  return (
    <HashRouter>
      <PageLookupContext.Provider value={hasPage}>
        <Shell />
      </PageLookupContext.Provider>
    </HashRouter>
  );
}

function Shell() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const launched = useRef(false);
  const hadToken = useRef(false);
  const token = session?.token ?? null;
  useSyncEngine(token !== null);
  useRefusalNotices();

  // The launch rule runs once, when the stored session is known.
  useEffect(() => {
    if (session === undefined || launched.current) return;
    launched.current = true;
    // Where the document started: a first visit's drawn login page (src/app/prerender.ts) started
    // at login even when its links have moved the visitor on before the app arrived.
    const start = drawnPageLaunch() ?? (location.pathname === '/' ? ROUTES.login : location.pathname);
    const target = launchTarget(start, token !== null);
    if (target && target !== start && target !== location.pathname) navigate(target, { replace: true });
  }, [session, token, location.pathname, navigate]);

  // The gate of a first visit's drawn login page reads this mark (src/app/prerender.ts).
  useEffect(() => {
    if (session !== undefined) rememberSignedIn(token !== null);
  }, [session, token]);

  // A token that disappears (401, logout, another tab) relaunches at login.
  useEffect(() => {
    if (session === undefined) return;
    if (hadToken.current && token === null) navigate(ROUTES.login, { replace: true });
    hadToken.current = token !== null;
  }, [session, token, navigate]);

  if (session === undefined) return <PageLoading />;
  // `/` and an unknown path land where the launch rule sends a start: home with a token, else
  // login. Named here rather than left to the launch effect, whose order against a child's
  // effects differs between React and Preact.
  const landing = <Navigate to={token ? ROUTES.home : ROUTES.login} replace />;
  return (
    <div className="app">
      <OfflineBanner />
      <Routes>
        <Route path="/" element={landing} />
        {ROUTE_TABLE.map((entry) => (
          <Route
            key={entry.path}
            path={entry.path}
            element={<RoutePage entry={entry} loggedIn={token !== null} />}
          />
        ))}
        <Route path="*" element={landing} />
      </Routes>
      {token !== null && <ServiceButton />}
      <AppUpdate />
    </div>
  );
}

export function RoutePage({ entry, loggedIn }: { entry: RouteEntry; loggedIn: boolean }) {
  const { t } = useTranslation();
  if (entry.access === 'user' && !loggedIn) return <RequireStoredSession />;
  if (!entry.page) return <NotYetOpen />;
  const Page = entry.page;
  return (
    <div
      className={`page ${entry.header === 'standard' ? 'page--standard' : 'page--custom'} ${entry.tab ? 'page--tab' : ''}`}
    >
      {entry.header === 'standard' && entry.title && (
        <PageHeader title={t(entry.title as 'tabs.home')} back={!entry.tab} />
      )}
      <main className="page__body">
        {/* Keyed by route: <Routes> reuses this element from page to page, and a chunk that
            failed on one page must not leave the next page showing the failure. */}
        <ChunkErrorBoundary key={entry.path}>
          <Suspense fallback={<PageLoading />}>
            <Page />
          </Suspense>
        </ChunkErrorBoundary>
      </main>
      {entry.tab && <TabBar />}
    </div>
  );
}

/**
 * A user page opened while the live session says "logged out". The worker writes the session in
 * its own context and the window hears of it a moment later, so right after a log-in the live
 * value can lag: read the database itself before sending anyone to login.
 */
function RequireStoredSession() {
  const [stored, setStored] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void readStoredSession().then((session) => {
      if (live) setStored(session !== null);
    });
    return () => {
      live = false;
    };
  }, []);
  if (stored === false) return <Navigate to={ROUTES.login} replace />;
  return <PageLoading />;
}

/** A spec route whose page comes with a later feature: the spec's toast, then back. */
function NotYetOpen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    toast(t('common.not_yet_open'));
    if (window.history.length > 1) navigate(-1);
    else navigate(ROUTES.home, { replace: true });
  }, [navigate, t]);
  return null;
}
