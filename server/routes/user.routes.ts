/** /api/v1/user: the logged-in user's own data. */
import { userInfoSchema } from '../../contract/api/user.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const userRoutes: RoutesOf = (define, { user }) => {
  define({
    path: '/api/v1/user/info',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: userInfoSchema,
    summary: "The caller's full profile",
    handle: (ctx) => user.info(ctx),
  });
};
