/**
 * The team (docs/protocol.md section 23): /api/v1/user/teamInfo, teamMembers,
 * levelConfig and myLevel for customers (their own team only); /api/admin/team/levels (list, set,
 * remove) for finance operators.
 */
import * as team from '../../contract/api/team.js';
import { noParamsSchema } from '../../contract/schema.js';
import { FINANCE, type RoutesOf } from './route-list.js';

export const teamRoutes: RoutesOf = (define, { team: service }) => {
  define({
    path: '/api/v1/user/teamInfo',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: team.teamInfoDataSchema,
    summary: 'The caller’s team figures now: performance, members, small-area performance, level',
    handle: (ctx) => service.teamInfo(ctx),
  });
  define({
    path: '/api/v1/user/teamMembers',
    kind: 'read',
    access: 'user',
    params: team.teamMembersParamsSchema,
    data: team.teamMembersDataSchema,
    summary: 'One generation (1 or 2) of the caller’s team, newest first, with its totals',
    handle: (ctx, params) => service.teamMembers(ctx, params),
  });
  define({
    path: '/api/v1/user/levelConfig',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: team.levelConfigDataSchema,
    summary: 'The team levels: requirements and rewards',
    handle: () => service.levelConfig(),
  });
  define({
    path: '/api/v1/user/myLevel',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: team.myLevelDataSchema,
    summary: 'The caller’s level now, the next one and what it still needs',
    handle: (ctx) => service.myLevel(ctx),
  });
  define({
    path: '/api/admin/team/levels',
    kind: 'read',
    access: FINANCE,
    params: noParamsSchema,
    data: team.levelConfigDataSchema,
    summary: 'The team levels as configured',
    handle: () => service.levelConfig(),
  });
  define({
    path: '/api/admin/team/levels/set',
    kind: 'command',
    access: FINANCE,
    params: team.teamLevelSetParamsSchema,
    data: team.levelConfigDataSchema,
    summary: 'Add or replace one team level (audited)',
    success: 'server.saved',
    handle: (ctx, params) => service.setLevel(ctx, params),
  });
  define({
    path: '/api/admin/team/levels/remove',
    kind: 'command',
    access: FINANCE,
    params: team.teamLevelRemoveParamsSchema,
    data: team.levelConfigDataSchema,
    summary: 'Remove the highest team level (audited)',
    success: 'server.saved',
    handle: (ctx, params) => service.removeLevel(ctx, params),
  });
};
