/** Real-name verification: the customer's submission and status, and compliance's review. */
import * as identity from '../../contract/api/identity.js';
import { noParamsSchema } from '../../contract/schema.js';
import { COMPLIANCE, COMPLIANCE_STEP_UP, type RoutesOf } from './route-list.js';

export const identityRoutes: RoutesOf = (define, { identity: service }) => {
  define({
    path: '/api/v1/user/identity-store',
    kind: 'command',
    access: 'user',
    params: identity.identityStoreParamsSchema,
    data: identity.identityRecordSchema,
    summary: 'Submit a document for real-name verification (1 to 3 uploaded images); 409 while one waits',
    success: 'server.identity_submitted',
    handle: (ctx, params) => service.store(ctx, params),
  });
  define({
    path: '/api/v1/user/identity-info',
    kind: 'read',
    access: 'user',
    params: noParamsSchema,
    data: identity.identityRecordSchema,
    summary: 'The real-name status, the masked number and the reason of a rejection',
    handle: (ctx) => service.info(ctx),
  });
  define({
    path: '/api/admin/identity/list',
    kind: 'read',
    access: COMPLIANCE,
    params: identity.adminIdentityListParamsSchema,
    data: identity.adminIdentityListDataSchema,
    summary: 'Real-name submissions by status, oldest first (the review queue)',
    handle: (_ctx, params) => service.list(params),
  });
  define({
    path: '/api/admin/identity/detail',
    kind: 'read',
    access: COMPLIANCE,
    params: identity.adminIdentityUserParamsSchema,
    data: identity.adminIdentityDetailDataSchema,
    summary:
      "A user's submission: the number, images by expiring link, the same document elsewhere (audited)",
    handle: (ctx, params) => service.detail(ctx, params),
  });
  define({
    path: '/api/admin/identity/approve',
    kind: 'command',
    access: COMPLIANCE_STEP_UP,
    params: identity.adminIdentityUserParamsSchema,
    data: identity.identityRecordSchema,
    summary: "Approve a user's waiting submission (409 when the document is approved for another user)",
    success: 'server.saved',
    handle: (ctx, params) => service.approve(ctx, params),
  });
  define({
    path: '/api/admin/identity/reject',
    kind: 'command',
    access: COMPLIANCE_STEP_UP,
    params: identity.adminIdentityRejectParamsSchema,
    data: identity.identityRecordSchema,
    summary: "Reject a user's waiting submission with a reason from the list",
    success: 'server.saved',
    handle: (ctx, params) => service.reject(ctx, params),
  });
};
