/**
 * Web push (/api/v1/push/*; docs/protocol.md section 34). The browser's push calls
 * (Notification.requestPermission, PushManager.subscribe) happen in the page, which has the
 * service worker's registration; the worker reads the server's VAPID key and carries the
 * subscription to the server. Sent only while online (no outbox): the switch shows the answer.
 */
import {
  pushKeyDataSchema,
  type PushSubscribeParams,
  type PushUnsubscribeParams,
} from '../../contract/api/push.js';
import { doneDataSchema } from '../../contract/api/sso.js';
import { commandNow, type HandlerDeps } from './deps.js';

export function pushHandlers(deps: HandlerDeps) {
  const { api } = deps;
  const command = commandNow(deps);

  return {
    /** The server's VAPID public key (base64url), PushManager.subscribe's applicationServerKey. */
    async 'push-key'() {
      return api.read('/api/v1/push/key', pushKeyDataSchema);
    },
    /** Pushes to this device while this session lasts, in the app's language. */
    async 'push-subscribe'({ endpoint, keys }: PushSubscribeParams) {
      return command('/api/v1/push/subscribe', doneDataSchema, {
        endpoint,
        keys: { p256dh: keys.p256dh, auth: keys.auth },
      });
    },
    async 'push-unsubscribe'({ endpoint }: PushUnsubscribeParams) {
      return command('/api/v1/push/unsubscribe', doneDataSchema, { endpoint });
    },
  };
}
