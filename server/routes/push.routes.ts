/** /api/v1/push (web push: the VAPID key, a device's subscription; docs/protocol.md section 34). */
import * as push from '../../contract/api/push.js';
import { doneDataSchema } from '../../contract/api/sso.js';
import { noParamsSchema } from '../../contract/schema.js';
import type { RoutesOf } from './route-list.js';

export const pushRoutes: RoutesOf = (define, { push: pushes }) => {
  define({
    path: '/api/v1/push/key',
    kind: 'read',
    access: 'public',
    params: noParamsSchema,
    data: push.pushKeyDataSchema,
    summary: "The server's VAPID public key (base64url), PushManager.subscribe's applicationServerKey",
    handle: async () => pushes.publicKey(),
  });
  define({
    path: '/api/v1/push/subscribe',
    kind: 'command',
    access: 'user',
    params: push.pushSubscribeParamsSchema,
    data: doneDataSchema,
    summary:
      "Push to this device (the browser's PushSubscription: endpoint, keys.p256dh, keys.auth) while this session lasts, in the request's language",
    success: 'server.push_subscribed',
    handle: (ctx, params) => pushes.subscribe(ctx, params),
  });
  define({
    path: '/api/v1/push/unsubscribe',
    kind: 'command',
    access: 'user',
    params: push.pushUnsubscribeParamsSchema,
    data: doneDataSchema,
    summary: "Stop pushing to one of the caller's subscriptions (404 when the endpoint is not the caller's)",
    success: 'server.push_unsubscribed',
    handle: (ctx, params) => pushes.unsubscribe(ctx, params),
  });
};
