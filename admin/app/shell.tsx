/**
 * The shell: a side menu of the screens the operator's role may use (a drawer at phone width),
 * a header with the operator, the language picker and sign-out, and the screen itself.
 */
import { LogoutOutlined, MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid, Layout, Menu, Spin } from 'antd';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { screensFor, type ConsoleScreenKey } from '../../contract/admin-menu.js';
import { CONSOLE_BASE_PATH } from '../../contract/console.js';
import { useI18n } from '../i18n/i18n.js';
import { LanguagePicker } from '../ui/language-picker.js';
import { useConsole } from './context.js';
import { StatusTag } from '../ui/status-tag.js';
import { HomePage } from '../pages/home-page.js';

/**
 * Each screen's page, loaded when first opened (its own chunk: the sign-in page does not wait for
 * every screen); a screen without one yet is left out of the menu.
 */
const PAGES: Partial<Record<ConsoleScreenKey, ComponentType>> = {
  dashboard: lazy(() =>
    import('../pages/dashboard-page.js').then((page) => ({ default: page.DashboardPage })),
  ),
  users: lazy(() => import('../pages/users-page.js').then((page) => ({ default: page.UsersPage }))),
  deposits: lazy(() => import('../pages/deposits-page.js').then((page) => ({ default: page.DepositsPage }))),
  withdrawals: lazy(() =>
    import('../pages/withdrawals-page.js').then((page) => ({ default: page.WithdrawalsPage })),
  ),
  ledger: lazy(() => import('../pages/ledger-page.js').then((page) => ({ default: page.LedgerPage }))),
  feedback: lazy(() => import('../pages/feedback-page.js').then((page) => ({ default: page.FeedbackPage }))),
  content: lazy(() => import('../pages/content-page.js').then((page) => ({ default: page.ContentPage }))),
  products: lazy(() => import('../pages/products-page.js').then((page) => ({ default: page.ProductsPage }))),
  invites: lazy(() => import('../pages/invites-page.js').then((page) => ({ default: page.InvitesPage }))),
  operators: lazy(() =>
    import('../pages/operators-page.js').then((page) => ({ default: page.OperatorsPage })),
  ),
  audit: lazy(() => import('../pages/audit-page.js').then((page) => ({ default: page.AuditPage }))),
  identity: lazy(() => import('../pages/identity-page.js').then((page) => ({ default: page.IdentityPage }))),
  chat: lazy(() => import('../pages/chat-page.js').then((page) => ({ default: page.ChatPage }))),
};

export function Shell() {
  return (
    <BrowserRouter basename={CONSOLE_BASE_PATH}>
      <ShellLayout />
    </BrowserRouter>
  );
}

function ShellLayout() {
  const { t } = useI18n();
  const { me, signOut } = useConsole();
  const screens = Grid.useBreakpoint();
  const wide = screens.md !== false;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();
  const mine = screensFor(me.role).filter((screen) => PAGES[screen.key] !== undefined);
  const items = [
    { key: '/', label: t('nav.home') },
    ...mine.map((screen) => ({ key: `/${screen.key}`, label: t(`nav.${screen.key}`) })),
  ];
  const current = `/${location.pathname.split('/')[1] ?? ''}`;
  const menu = (
    <nav aria-label={t('shell.menu')} className="console-nav">
      <Menu
        mode="inline"
        items={items}
        selectedKeys={[current]}
        onClick={({ key }) => {
          setDrawerOpen(false);
          void navigate(key);
        }}
      />
    </nav>
  );

  return (
    <Layout className="console-shell">
      {wide ? (
        <Layout.Sider width={220} theme="light" className="console-sider">
          <div className="console-brand">{t('app.title')}</div>
          {menu}
        </Layout.Sider>
      ) : (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={t('app.title')}
          size={260}
          closable={{ 'aria-label': t('common.close') }}
        >
          <p className="console-drawer-me">
            {me.email} <StatusTag tone="plain">{t(`role.${me.role}`)}</StatusTag>
          </p>
          {menu}
        </Drawer>
      )}
      <Layout>
        <Layout.Header className="console-header">
          {wide ? null : (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('shell.open_menu')}
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <span className="console-header-spacer" />
          {wide ? (
            <span className="console-me">
              {me.email} <StatusTag tone="ok">{t(`role.${me.role}`)}</StatusTag>
            </span>
          ) : null}
          <LanguagePicker compact={!wide} />
          <Button icon={<LogoutOutlined />} onClick={() => void signOut()} aria-label={t('shell.logout')}>
            {wide ? t('shell.logout') : null}
          </Button>
        </Layout.Header>
        <Layout.Content className="console-content">
          <main>
            <Suspense fallback={<Spin className="console-loading" aria-label={t('common.loading')} />}>
              <Routes>
                <Route path="/" element={<HomePage screens={mine.map((screen) => screen.key)} />} />
                {mine.map((screen) => {
                  const ScreenPage = PAGES[screen.key];
                  return ScreenPage ? (
                    <Route key={screen.key} path={`/${screen.key}`} element={<ScreenPage />} />
                  ) : null;
                })}
                <Route path="*" element={<Navigate to="/" replace />} />
              </Routes>
            </Suspense>
          </main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
