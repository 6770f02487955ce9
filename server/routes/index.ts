/** Every API route, registered from per-folder route lists. */
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../http/route.js';
import type { AppServices } from '../services/container.js';
import type { Define, RoutesOf } from './route-list.js';
import { contentAdminRoutes, contentRoutes } from './content.routes.js';
import { adminRoutes } from './admin.routes.js';
import { customerAdminRoutes } from './customer-admin.routes.js';
import { commonRoutes } from './common.routes.js';
import { ssoRoutes } from './sso.routes.js';
import { userRoutes } from './user.routes.js';
import { accountRoutes } from './account.routes.js';
import { ledgerAdminRoutes } from './ledger-admin.routes.js';
import { rechargeRoutes } from './recharge.routes.js';
import { paymentRoutes } from './payment.routes.js';
import { calendarRoutes } from './calendar.routes.js';
import { securityRoutes } from './security.routes.js';
import { securityCentreRoutes } from './security-centre.routes.js';
import { withdrawRoutes } from './withdraw.routes.js';
import { hostingRoutes } from './hosting.routes.js';
import { incomeRoutes } from './income.routes.js';
import { exchangeRoutes } from './exchange.routes.js';
import { otcRoutes } from './otc.routes.js';
import { deliveryRoutes } from './delivery.routes.js';
import { dividendRoutes } from './dividend.routes.js';
import { machineRoutes } from './machine.routes.js';
import { teamRoutes } from './team.routes.js';
import { identityRoutes } from './identity.routes.js';
import { reservesRoutes } from './reserves.routes.js';
import { passkeyRoutes } from './passkey.routes.js';
import { chatRoutes } from './chat.routes.js';

const ROUTE_LISTS: readonly RoutesOf[] = [
  ssoRoutes,
  userRoutes,
  commonRoutes,
  contentRoutes,
  adminRoutes,
  customerAdminRoutes,
  contentAdminRoutes,
  accountRoutes,
  ledgerAdminRoutes,
  rechargeRoutes,
  paymentRoutes,
  calendarRoutes,
  securityRoutes,
  securityCentreRoutes,
  exchangeRoutes,
  otcRoutes,
  deliveryRoutes,
  dividendRoutes,
  withdrawRoutes,
  hostingRoutes,
  incomeRoutes,
  machineRoutes,
  teamRoutes,
  identityRoutes,
  reservesRoutes,
  passkeyRoutes,
  chatRoutes,
];

/** Every route's definition, in registration order (tests read the access rules). */
export function routeDefinitions(services: AppServices): Array<Parameters<Define>[0]> {
  const definitions: Array<Parameters<Define>[0]> = [];
  for (const routes of ROUTE_LISTS) routes((def) => definitions.push(def), services);
  return definitions;
}

/** Registers every route list; a path declared twice fails at start. */
export function registerRoutes(app: FastifyInstance, services: AppServices): void {
  const seen = new Set<string>();
  const define: Define = (def) => {
    if (seen.has(def.path)) throw new Error(`route declared twice: ${def.path}`);
    seen.add(def.path);
    defineRoute(app, services, def);
  };
  for (const routes of ROUTE_LISTS) routes(define, services);
}
