/** Every API route, registered from per-folder route lists. */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Translator } from '../i18n/i18n.js';
import { defineRoute, type RouteDefinition } from '../http/route.js';
import type { AuthService } from '../services/auth.service.js';
import type { CommonService } from '../services/common.service.js';
import type { OperatorService } from '../services/operators.service.js';
import type { SessionService } from '../services/sessions.service.js';
import type { UploadService } from '../services/uploads.service.js';
import type { UserService } from '../services/user.service.js';
import type { ContentService } from '../services/content.service.js';
import type { FeedbackService } from '../services/feedback.service.js';
import type { SyncService } from '../services/sync.service.js';
import { contentAdminRoutes, contentRoutes } from './content.routes.js';
import { adminRoutes } from './admin.routes.js';
import { commonRoutes } from './common.routes.js';
import { ssoRoutes } from './sso.routes.js';
import { userRoutes } from './user.routes.js';

export interface AppServices {
  translator: Translator;
  sessions: SessionService;
  auth: AuthService;
  user: UserService;
  common: CommonService;
  operators: OperatorService;
  uploads: UploadService;
  content: ContentService;
  feedback: FeedbackService;
  sync: SyncService;
}

type Define = <P extends z.ZodType, D extends z.ZodType>(def: RouteDefinition<P, D>) => void;
export type RoutesOf = (define: Define, services: AppServices) => void;

const ROUTE_LISTS: readonly RoutesOf[] = [
  ssoRoutes,
  userRoutes,
  commonRoutes,
  contentRoutes,
  adminRoutes,
  contentAdminRoutes,
];

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
