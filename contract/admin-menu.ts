/**
 * The console's screens and who may open each: the roles of the admin route a screen lists
 * from, as the server's route table declares them (tests/structure/console-menu.test.ts holds
 * the two together). A superadmin may use every screen, as on the server.
 */
import type { OperatorRole } from './api/admin.js';

export interface ConsoleScreen {
  /** The screen's key: its path under /admin and its name in the console's catalogues. */
  key: string;
  /** The admin route whose roles decide who sees the screen. */
  route: string;
  roles: readonly OperatorRole[];
}

export const CONSOLE_SCREENS = [
  { key: 'dashboard', route: '/api/admin/dashboard', roles: ['finance', 'compliance', 'support'] },
  { key: 'users', route: '/api/admin/user/list', roles: ['finance', 'compliance', 'support'] },
  { key: 'deposits', route: '/api/admin/deposit/list', roles: ['finance', 'compliance', 'support'] },
  { key: 'withdrawals', route: '/api/admin/withdraw/list', roles: ['finance'] },
  { key: 'ledger', route: '/api/admin/ledger/adjustments', roles: ['finance'] },
  { key: 'feedback', route: '/api/admin/feedback/list', roles: ['support'] },
  { key: 'content', route: '/api/admin/news/create', roles: ['content'] },
  { key: 'products', route: '/api/admin/hosting/product/list', roles: ['finance'] },
  { key: 'invites', route: '/api/admin/invite/create', roles: ['superadmin', 'support'] },
  { key: 'operators', route: '/api/admin/operator/list', roles: ['superadmin'] },
  { key: 'audit', route: '/api/admin/audit/list', roles: ['superadmin', 'compliance'] },
  { key: 'identity', route: '/api/admin/identity/list', roles: ['compliance'] },
  /** The agents' desk: customer service conversations (docs/protocol.md §35.4). */
  { key: 'chat', route: '/api/admin/chat/list', roles: ['support'] },
] as const satisfies readonly ConsoleScreen[];

export type ConsoleScreenKey = (typeof CONSOLE_SCREENS)[number]['key'];
type Screen = (typeof CONSOLE_SCREENS)[number];

/**
 * Actions a screen offers beyond its own route, each shown only to the roles its route allows
 * (checked against the server's route table as the screens are).
 */
export const CONSOLE_ACTIONS = {
  ledgerCheck: { route: '/api/admin/ledger/check', roles: ['finance'] },
  userFreeze: { route: '/api/admin/user/freeze', roles: ['compliance'] },
  userUnfreeze: { route: '/api/admin/user/unfreeze', roles: ['compliance'] },
  userResetAuthenticator: { route: '/api/admin/user/reset-authenticator', roles: ['compliance'] },
  /** The desk's settings: support hours and community links; canned replies; an operator's display name. */
  chatSettings: { route: '/api/admin/chat/settings-save', roles: ['support'] },
  chatCanned: { route: '/api/admin/chat/canned-save', roles: ['support'] },
  chatDisplayName: { route: '/api/admin/operator/display-name', roles: ['support'] },
  /** The desk's conversation actions. */
  chatReply: { route: '/api/admin/chat/reply', roles: ['support'] },
  chatAssign: { route: '/api/admin/chat/assign', roles: ['support'] },
  chatResolve: { route: '/api/admin/chat/resolve', roles: ['support'] },
  chatContext: { route: '/api/admin/chat/context', roles: ['support'] },
} as const satisfies Record<string, Omit<ConsoleScreen, 'key'>>;

/** Whether `role` may use a screen open to `roles` (the server's rule: superadmin may do all). */
export function roleMayUse(role: OperatorRole, roles: readonly OperatorRole[]): boolean {
  return role === 'superadmin' || roles.includes(role);
}

/** The screens `role` sees in the menu, in menu order. */
export function screensFor(role: OperatorRole): Screen[] {
  return CONSOLE_SCREENS.filter((screen: Screen) => roleMayUse(role, screen.roles));
}
