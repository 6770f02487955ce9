/**
 * Web push (docs/protocol.md section 34) with `web-push`: RFC 8291 payload encryption
 * (aes128gcm) and RFC 8292 VAPID signatures; the POST itself is ours (fetch), so a push service on
 * loopback over http can stand in for a real one in development and tests.
 *
 * Rules that must stay true:
 * - a subscription belongs to the signed-in session that sent it; pushes go only to
 *   subscriptions whose session is live (one that ended is deleted when a push finds it);
 * - an endpoint is one row; another user takes it over only once its holder's session ended
 *   (a shared device signed in as someone else), a user keeps at most
 *   PUSH_SUBSCRIPTIONS_PER_USER (the least recently subscribed go first), and only its owner
 *   unsubscribes it;
 * - production takes https endpoints on named hosts only; elsewhere http on loopback too;
 * - `notify` runs after the cause committed, in the background: it never throws, never fails its
 *   cause, and logs what went wrong; a subscription answered 404 or 410 is deleted;
 * - each push is in the language the device subscribed in, `{title, body, url}` as JSON.
 */
import webpush from 'web-push';
import { isLocale } from '../../contract/locales.js';
import type {
  PushKeyData,
  PushPayload,
  PushSubscribeParams,
  PushUnsubscribeParams,
} from '../../contract/api/push.js';
import { BodyCode } from '../../contract/codes.js';
import { type RequestContext, userIdOf } from '../core/context.js';
import { BusinessError, invalidField, notLoggedIn } from '../core/errors.js';
import { DEFAULT_LOCALE, type Locale, type Translator } from '../i18n/i18n.js';
import {
  deleteGonePushSubscription,
  deletePushSubscriptionOfUser,
  deletePushSubscriptions,
  liveSubscriptionsOfUser,
  pushEndpointHolder,
  pushSubscriptionsOfUser,
  sessionIdOfToken,
  upsertPushSubscription,
  type PushSubscriptionRow,
} from '../repositories/push.repository.js';
import type { VapidKeys } from '../security/vapid.js';
import type { PushEvent, PushEventKind, UserNotifier } from './user-notifier.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** How many subscriptions (devices, browsers) one user keeps. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;
/** How long a push service keeps an undelivered push (seconds): a day-old notice is stale. */
export const PUSH_TTL_SECONDS = 24 * 3600;
/** How long one POST to a push service may take. */
const PUSH_TIMEOUT_MS = 10_000;

/**
 * The app page each event is about (HashRouter paths; src/app/paths.ts holds the same routes,
 * tests/api/push.test.ts checks they agree).
 */
export const PUSH_PAGES: Readonly<Record<PushEventKind, string>> = {
  deposit_credited: '/#/pages/withdraw/withdraw1',
  withdrawal_succeeded: '/#/pages/withdraw_record/withdraw_record',
  withdrawal_failed: '/#/pages/withdraw_record/withdraw_record',
  feedback_replied: '/#/pages/setting/setting3',
  identity_approved: '/#/pages/setting/setting2',
  identity_rejected: '/#/pages/setting/setting2',
  support_reply: '/#/pages/chatroom/room',
};

/** The notification of `event` in `locale`: catalogue keys `push.<kind>_title` and `push.<kind>_body`. */
export function pushPayloadOf(translator: Translator, locale: Locale, event: PushEvent): PushPayload {
  const vars = 'amount' in event ? { amount: event.amount } : {};
  return {
    title: translator.t(locale, `push.${event.kind}_title`, vars),
    body: translator.t(locale, `push.${event.kind}_body`, vars),
    url: PUSH_PAGES[event.kind],
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** What one push to a user came to. */
export interface PushDelivery {
  sent: number;
  /** Subscriptions the push service answered 404 or 410 for, deleted. */
  gone: number;
  failed: number;
}

export interface PushOptions {
  vapid: VapidKeys;
  /** VAPID's contact: a mailto: address or an https URL. */
  subject: string;
  /** Production: https endpoints on named hosts only. */
  production: boolean;
  log: (message: string, error?: unknown) => void;
}

export class PushService extends CoreService implements UserNotifier {
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    core: ServiceCore,
    private readonly translator: Translator,
    private readonly options: PushOptions,
  ) {
    super(core);
  }

  /** The VAPID public key a browser subscribes with. */
  publicKey(): PushKeyData {
    return { publicKey: this.options.vapid.publicKey };
  }

  /**
   * Stores this device's subscription for the caller's session in the request's language (an
   * endpoint already stored is rebound to the caller, unless it is another user's whose session
   * is live: 403 naming `endpoint`); then keeps the caller's newest PUSH_SUBSCRIPTIONS_PER_USER.
   * 400 naming `endpoint` when production would not send to it.
   */
  async subscribe(ctx: RequestContext, params: PushSubscribeParams): Promise<{ done: true }> {
    const userId = userIdOf(ctx);
    if (ctx.caller.kind !== 'user') throw notLoggedIn();
    const { tokenHash } = ctx.caller;
    this.#assertReachable(params.endpoint);
    return this.commands.run(ctx, async (tx) => {
      const sessionId = await sessionIdOfToken(tx, tokenHash);
      if (sessionId === undefined) throw notLoggedIn();
      const now = this.clock.now();
      // Another user's subscription is taken over only once their session here has ended.
      const holder = await pushEndpointHolder(tx, params.endpoint, now);
      if (holder && holder.userId !== userId && holder.live)
        throw new BusinessError(BodyCode.forbidden, 'server.forbidden', {}, { field: 'endpoint' });
      await upsertPushSubscription(tx, {
        userId,
        sessionId,
        endpoint: params.endpoint,
        p256dh: params.keys.p256dh,
        auth: params.keys.auth,
        locale: ctx.locale,
        createdAt: now,
        updatedAt: now,
      });
      const kept = await pushSubscriptionsOfUser(tx, userId);
      const excess = kept.length - PUSH_SUBSCRIPTIONS_PER_USER;
      if (excess > 0)
        await deletePushSubscriptions(
          tx,
          kept.slice(0, excess).map((row) => row.id),
        );
      return { done: true as const };
    });
  }

  /** Deletes the caller's subscription of `endpoint`; 404 when the caller has none there (another user's included). */
  async unsubscribe(ctx: RequestContext, params: PushUnsubscribeParams): Promise<{ done: true }> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      if (!(await deletePushSubscriptionOfUser(tx, userId, params.endpoint)))
        throw new BusinessError(BodyCode.notFound, 'server.push_not_subscribed', {}, { field: 'endpoint' });
      return { done: true as const };
    });
  }

  notify(userId: number, event: PushEvent): void {
    const delivery = this.deliver(userId, event).then(
      (outcome) => {
        if (outcome.failed > 0)
          this.options.log(
            `push ${event.kind} to user ${userId}: ${outcome.failed} of ${outcome.sent + outcome.failed} failed`,
          );
      },
      (error: unknown) => this.options.log(`push ${event.kind} to user ${userId} not sent`, error),
    );
    this.#inFlight.add(delivery);
    void delivery.finally(() => this.#inFlight.delete(delivery));
  }

  /** Resolves once every push under way has ended (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Sends `event` to each of the user's live subscriptions now, in each one's language; deletes
   * those the push service says are gone (404, 410). Throws only when the database does.
   */
  async deliver(userId: number, event: PushEvent): Promise<PushDelivery> {
    const rows = await liveSubscriptionsOfUser(this.db, userId, this.clock.now());
    const outcome: PushDelivery = { sent: 0, gone: 0, failed: 0 };
    await Promise.all(
      rows.map(async (row) => {
        const status = await this.#post(row, event).catch((error: unknown) => {
          this.options.log(`push to subscription ${row.id} failed`, error);
          return null;
        });
        if (status !== null && status >= 200 && status < 300) outcome.sent += 1;
        else if (status === 404 || status === 410) {
          await deleteGonePushSubscription(this.db, row.id, row.endpoint);
          outcome.gone += 1;
        } else {
          if (status !== null)
            this.options.log(`push to subscription ${row.id}: the push service answered ${status}`);
          outcome.failed += 1;
        }
      }),
    );
    return outcome;
  }

  /** Encrypts and signs with web-push, POSTs, and answers the push service's HTTP status. */
  async #post(row: PushSubscriptionRow, event: PushEvent): Promise<number> {
    const locale = isLocale(row.locale) ? row.locale : DEFAULT_LOCALE;
    const payload = JSON.stringify(pushPayloadOf(this.translator, locale, event));
    const details = webpush.generateRequestDetails(
      { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
      payload,
      {
        vapidDetails: { subject: this.options.subject, ...this.options.vapid },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) {
      // fetch sets the length of the body itself.
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    }
    const response = await fetch(details.endpoint, {
      method: 'POST',
      headers,
      body: new Uint8Array(details.body),
      redirect: 'error',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  }

  /** 400 naming `endpoint` unless it is https (production: on a named host), or http on loopback outside production. */
  #assertReachable(endpoint: string): void {
    const url = new URL(endpoint);
    const loopback = LOOPBACK_HOSTS.has(url.hostname);
    const ipLiteral = /^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('[');
    const allowed = this.options.production
      ? url.protocol === 'https:' && !loopback && !ipLiteral
      : url.protocol === 'https:' || loopback;
    if (!allowed) throw invalidField('endpoint', 'server.push_endpoint_invalid');
  }
}
