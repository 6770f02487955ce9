/** The console's menu shows a screen to exactly the roles the server lets call its route. */
import { describe, expect, test } from 'vitest';
import { OPERATOR_ROLES } from '../../contract/api/admin.js';
import { CONSOLE_ACTIONS, CONSOLE_SCREENS, roleMayUse } from '../../contract/admin-menu.js';
import { routeDefinitions } from '../../server/routes/index.js';
import { OperatorService } from '../../server/services/operator.service.js';
import type { AppServices } from '../../server/services/container.js';

// Only the definitions are read (paths and access); no handler runs, so no service is needed.
const definitions = routeDefinitions({} as AppServices);

describe('the console menu and the server routes', () => {
  test.each(CONSOLE_SCREENS)('the $key screen lists the roles of $route', (screen) => {
    const route = definitions.find((def) => def.path === screen.route);
    if (!route || typeof route.access !== 'object') throw new Error(`${screen.route} is no operator route`);
    expect([...screen.roles].sort()).toEqual([...route.access.roles].sort());
    for (const role of OPERATOR_ROLES)
      expect(roleMayUse(role, screen.roles), role).toBe(OperatorService.allowed(role, route.access.roles));
  });

  test.each(Object.entries(CONSOLE_ACTIONS))(
    'the %s action is shown to the roles of its route',
    (_name, action) => {
      const route = definitions.find((def) => def.path === action.route);
      if (!route || typeof route.access !== 'object') throw new Error(`${action.route} is no operator route`);
      expect([...action.roles].sort()).toEqual([...route.access.roles].sort());
    },
  );
});
