/**
 * Web push subscriptions (docs/protocol.md section 34): one row per browser push subscription,
 * bound to the user and the signed-in session (device) that subscribed it. The endpoint is the
 * push service's capability URL for that browser, unique across users (the last user to
 * subscribe it on a shared device owns it); `p256dh` and `auth` are the browser's RFC 8291 keys
 * (base64url); `locale` is the language the device used when it subscribed, the pushes' language.
 */
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, label, ref, updatedAt, userRef } from './columns.js';

export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: userRef(),
    /** The wire id of the session (sessions.id) that subscribed: pushes stop when it ends. */
    sessionId: ref('session_id'),
    endpoint: label('endpoint'),
    p256dh: label('p256dh'),
    auth: label('auth'),
    locale: text('locale').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint').on(t.endpoint),
    index('push_subscriptions_user').on(t.userId, t.id),
  ],
);
