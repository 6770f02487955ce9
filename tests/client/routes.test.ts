/** The route table and the launch rule of spec section 2. */
import { describe, expect, test } from 'vitest';
import { ROUTES, TABS } from '../../src/app/paths.js';
import { allowedAnonymously, launchTarget, ROUTE_TABLE, routeOf } from '../../src/app/routes.js';

describe('routes', () => {
  test('every route of spec section 2 is registered', () => {
    const paths = new Set(ROUTE_TABLE.map((entry) => entry.path));
    const spec = [
      'pages/index/index',
      'pages/index/index1',
      'pages/index/index2',
      'pages/index/index3',
      'pages/index/index4',
      'pages/index/index5',
      'pages/pdf/pdf',
      'pages/kefu/kefu',
      'pages/chatroom/room',
      'pages/login/login',
      'pages/login/login1',
      'pages/login/login2',
      'pages/register/register',
      'pages/register/register1',
      'pages/register/verify_code',
      'pages/register/verify_code1',
      'pages/goods_detail/goods_detail',
      'pages/share_poster/share_poster',
      'pages/forget_pwd/forget_pwd',
      'pages/forget_pwd/forget_pwd1',
      'pages/forget_pwd/verify_code',
      'pages/setting/setting',
      ...[1, 2, 3, 4, 5].map((n) => `pages/setting/setting${n}`),
      'pages/blance_record/blance_record',
      ...Array.from({ length: 12 }, (_, i) => `pages/blance_record/blance_record${i + 1}`),
      'pages/withdraw/withdraw',
      ...[1, 2, 3, 4, 5, 6].map((n) => `pages/withdraw/withdraw${n}`),
      'pages/update_pwd/update_pwd',
      ...[1, 2, 3].map((n) => `pages/update_pwd/update_pwd${n}`),
      'pages/withdraw_record/withdraw_record',
      ...[1, 2, 6, 7].map((n) => `pages/withdraw_record/withdraw_record${n}`),
      'pages/order_detail/order_detail',
      'pages/download/download',
      'pages/my/my',
      'pages/blance_record/blance_record6',
      'pages/second/second',
      'pages/second/second1',
    ].map((path) => `/${path}`);
    for (const path of [...spec, '/choose-location', '/open-location']) expect(paths, path).toContain(path);
    expect(paths.size).toBe(ROUTE_TABLE.length);
  });

  test("the five tabs are home, hosting, team, assets and trading, in the spec's order", () => {
    expect(TABS.map((tab) => tab.path)).toEqual([
      '/pages/index/index',
      '/pages/index/index2',
      '/pages/blance_record/blance_record6',
      '/pages/my/my',
      '/pages/index/index1',
    ]);
  });

  test('the entry route / is the login page', () => {
    expect(routeOf('/')?.path).toBe(ROUTES.login);
  });

  test('launch rule: a stored token goes home, none goes to login, unless launched on download, register, register verify_code or my', () => {
    expect(launchTarget(ROUTES.login, true)).toBe(ROUTES.home);
    expect(launchTarget(ROUTES.settings, false)).toBe(ROUTES.login);
    expect(launchTarget(ROUTES.hosting, true)).toBe(ROUTES.home);
    for (const exempt of [ROUTES.download, ROUTES.register, ROUTES.registerVerify, ROUTES.my]) {
      expect(launchTarget(exempt, true)).toBeNull();
      expect(launchTarget(exempt, false)).toBeNull();
    }
  });

  test('anonymous visitors reach only login, forgot password, download, register, register verify-code and my', () => {
    const open = ROUTE_TABLE.filter((entry) => allowedAnonymously(entry.path))
      .map((entry) => entry.path)
      .sort();
    expect(open).toEqual(
      [
        ROUTES.login,
        ROUTES.forgot,
        ROUTES.forgotVerify,
        ROUTES.forgotReset,
        ROUTES.download,
        ROUTES.register,
        ROUTES.registerVerify,
        ROUTES.my,
      ].sort(),
    );
  });

  test('the header offset is 44 on standard pages and 0 on custom-header pages (register, setting, download, index3-5)', () => {
    for (const path of [
      ROUTES.register,
      ROUTES.settings,
      ROUTES.download,
      '/pages/index/index3',
      '/pages/index/index4',
      '/pages/index/index5',
    ]) {
      expect(routeOf(path)?.header, path).toBe('custom');
    }
    for (const path of [ROUTES.home, ROUTES.registerVerify, ROUTES.forgot, '/pages/withdraw/withdraw'])
      expect(routeOf(path)?.header, path).toBe('standard');
  });

  test('built now: login, register and its verify code, forgot password, download, the five tabs, settings, nickname and avatar, real-name verification, feedback, the news article, the outbox, wallet records, accounts, recharge, withdrawal methods, the exchange, the withdrawal and its records, delivery records, AI dividends, mining machines, my machines, mining records, tickets, the share poster, proof of reserves, the password and authenticator pages, the security centre, passkeys, customer service and its conversation; the rest says "not yet open"', () => {
    const built = ROUTE_TABLE.filter((entry) => entry.page).map((entry) => entry.path);
    expect(built).toHaveLength(41);
    for (const path of [
      '/pages/setting/setting1',
      '/pages/setting/setting3',
      '/pages/setting/setting4',
      '/pages/blance_record/blance_record',
      '/pages/second/second',
      '/pages/second/second1',
      '/pages/withdraw/withdraw1',
      '/pages/withdraw/withdraw2',
      '/pages/withdraw/withdraw3',
      '/pages/withdraw/withdraw',
      '/pages/withdraw_record/withdraw_record',
      '/pages/order_detail/order_detail',
      '/pages/blance_record/blance_record2',
      '/pages/reserves/reserves',
      '/pages/goods_detail/goods_detail',
      '/pages/blance_record/blance_record10',
      '/pages/blance_record/blance_record11',
      '/pages/blance_record/blance_record12',
      '/pages/share_poster/share_poster',
      '/pages/update_pwd/update_pwd',
      '/pages/update_pwd/update_pwd1',
      '/pages/update_pwd/update_pwd2',
      '/pages/update_pwd/update_pwd3',
      '/pages/setting/setting2',
      '/pages/setting/setting5',
      '/pages/setting/passkeys',
      '/pages/kefu/kefu',
      '/pages/chatroom/room',
    ])
      expect(built, path).toContain(path);
    expect(routeOf('/pages/pdf/pdf')?.page).toBeUndefined();
    // A query string is not part of the route (Settings' community entry opens kefu's links).
    expect(routeOf(`${ROUTES.kefu}?section=community`)?.page).toBeDefined();
  });

  test('the news article (second, ?id=) and the outbox (second1) are standard pages for logged-in users, each titled', () => {
    for (const path of [
      ROUTES.article,
      ROUTES.outbox,
      ROUTES.profile,
      ROUTES.identity,
      ROUTES.feedback,
      ROUTES.recharge,
    ]) {
      const entry = routeOf(path);
      expect(entry?.header, path).toBe('standard');
      expect(entry?.access, path).toBe('user');
      expect(entry?.title, path).toBeTruthy();
    }
  });
});
