/** /api/v1/common: public configuration reads. */
import * as common from '../../contract/api/common.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const commonRoutes: RoutesOf = (define, { common: service }) => {
  define({
    path: '/api/v1/common/config',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: common.configDataSchema,
    summary: 'Business constants and limits',
    handle: async () => service.config(),
  });
  define({
    path: '/api/v1/common/lang',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: common.langDataSchema,
    summary: 'The languages and their lang header codes',
    handle: async () => service.languages(),
  });
  define({
    path: '/api/v1/common/version',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: common.versionDataSchema,
    summary: 'App update config (spec section 4)',
    handle: async () => service.version(),
  });
  define({
    path: '/api/v1/common/avatarList',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: common.avatarListDataSchema,
    summary: 'Avatars a user may choose',
    handle: async () => service.avatars(),
  });
};
