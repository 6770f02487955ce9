/**
 * What a route list is: a function that declares routes with the services it hands over to,
 * and the operator access rules the lists share (one name per rule). Its own module, below the
 * table that registers every list (routes/index.ts), so no list imports the table that imports it.
 */
import type { z } from 'zod';
import { OPERATOR_ROLES } from '../../contract/api/admin.js';
import type { OperatorAccess, RouteDefinition } from '../http/route.js';
import type { AppServices } from '../services/container.js';

export type Define = <P extends z.ZodType, D extends z.ZodType>(def: RouteDefinition<P, D>) => void;
export type RoutesOf = (define: Define, services: AppServices) => void;

/** Any operator, also before their setup is done (signing in, the password, the authenticator). */
export const ANY_OPERATOR_IN_SETUP = {
  roles: OPERATOR_ROLES,
  duringSetup: true,
} as const satisfies OperatorAccess;
/** Finance operators: the ledger, the catalogues, payouts and their settings. */
export const FINANCE = { roles: ['finance'] } as const satisfies OperatorAccess;
/** Finance operators within a step-up: what moves money (adjustments, withdrawals) or sets its prices. */
export const FINANCE_STEP_UP = { roles: ['finance'], stepUp: true } as const satisfies OperatorAccess;
/** Compliance: the real-name review queue. */
export const COMPLIANCE = { roles: ['compliance'] } as const satisfies OperatorAccess;
/** Compliance within a step-up: a decision on a user (a freeze, a real-name review, an authenticator reset). */
export const COMPLIANCE_STEP_UP = { roles: ['compliance'], stepUp: true } as const satisfies OperatorAccess;
/** Support: feedback tickets and the name customers see on chat replies. */
export const SUPPORT = { roles: ['support'] } as const satisfies OperatorAccess;
/** The superadmin: the operators themselves. */
export const SUPERADMIN = { roles: ['superadmin'] } as const satisfies OperatorAccess;
/** The superadmin within a step-up: a change of an operator's access. */
export const SUPERADMIN_STEP_UP = { roles: ['superadmin'], stepUp: true } as const satisfies OperatorAccess;
/** The operators who look customers up (finance, compliance, support). */
export const CUSTOMER_DESK = {
  roles: ['finance', 'compliance', 'support'],
} as const satisfies OperatorAccess;
/** The operators who read the audit log (superadmin, compliance). */
export const AUDITORS = { roles: ['superadmin', 'compliance'] } as const satisfies OperatorAccess;
