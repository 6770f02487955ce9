/** The admin API's routes and the roles each lists, read from the route definitions themselves. */
import type { OperatorRole } from '../../contract/api/admin.js';
import { routeDefinitions } from '../../server/routes/index.js';
import type { AppServices } from '../../server/services/container.js';

export interface AdminRouteAccess {
  path: string;
  roles: readonly OperatorRole[];
  stepUp: boolean;
}

export function adminRouteAccess(services: AppServices): AdminRouteAccess[] {
  return routeDefinitions(services).flatMap((def) =>
    typeof def.access === 'object'
      ? [{ path: def.path, roles: def.access.roles, stepUp: def.access.stepUp === true }]
      : [],
  );
}
