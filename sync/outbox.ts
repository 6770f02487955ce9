/**
 * The outbox (CONTRACT.md "Exactly once"): commands the user made, stored before anything is
 * sent, each under the Idempotency-Key made when the user acted (the command's id IS its key),
 * sent by one tab at a time, in order per resource.
 *
 * What each answer does to a command:
 * - 200: confirmed (a pull follows the drain).
 * - another body code but 401/500: rejected with the server's message; it holds later commands
 *   on the same resource back until the user retries (a new command, a new key) or dismisses it.
 * - 401: back to queued; the outbox pauses until the same user logs in again.
 * - transport failure, HTTP 5xx, body 500 (after the queue's own retries): back to queued for the
 *   next drain; later commands on the same resource wait; with no answer at all (offline) the
 *   drain stops.
 * No answer ever drops a command silently; a queued command too old for its kind becomes
 * `expired` and is never sent. A command found `sending` (its tab died mid-send) is sent again
 * with the same key: the server replays the answer it stored. A command carrying secrets (a
 * withdrawal's authenticator code and trade password) keeps them only until it settles, and is
 * never retried.
 */
import { z } from 'zod';
import { BodyCode } from '../contract/codes.js';
import type { SyncClock } from './clock.js';
import {
  carriesSecrets,
  COMMAND_KINDS,
  enqueueInputSchema,
  isBlocking,
  OUTBOX_LIMIT,
  resourceOf,
  wireParamsOf,
  withoutSecrets,
  type OutboxRecord,
  type OutboxState,
  type ParsedEnqueueInput,
  type StoredCommand,
  type StoredImage,
} from './commands.js';
import type { OutboxLease } from './lease.js';
import type { Outcome, SessionReader, SyncApi, SyncSession } from './ports.js';
import type { OutboxStore, SyncStorage } from './storage.js';
import type { Uploader } from './uploader.js';

/** Settled commands are kept this long for the UI's history, then pruned. */
export const OUTBOX_HISTORY_MS = 7 * 24 * 60 * 60 * 1000;

export type EnqueueResult =
  | { kind: 'ok'; id: string }
  | { kind: 'refused'; reason: 'outbox_full'; limit: number }
  | { kind: 'refused'; reason: 'invalid_input'; field: string; message: string }
  | { kind: 'refused'; reason: 'not_logged_in' }
  | { kind: 'refused'; reason: 'offline' };

export type CancelResult =
  | { kind: 'ok' }
  | { kind: 'refused'; reason: 'not_found' | 'not_cancellable' | 'not_logged_in'; state?: OutboxState };

export type RetryResult =
  | { kind: 'ok'; id: string }
  | {
      kind: 'refused';
      reason: 'not_found' | 'not_retryable' | 'not_logged_in' | 'offline';
      state?: OutboxState;
    }
  | { kind: 'refused'; reason: 'outbox_full'; limit: number };

export type DismissResult =
  | { kind: 'ok' }
  | { kind: 'refused'; reason: 'not_found' | 'not_dismissable' | 'not_logged_in'; state?: OutboxState };

export interface DrainSummary {
  /**
   * done: nothing more to send now; not_sender: another tab sends; logged_out: no session;
   * paused: a 401 waits for a new login; offline: no answer at all, the rest waits;
   * halted: this tab stopped sending (it is about to reload).
   */
  status: 'done' | 'not_sender' | 'logged_out' | 'paused' | 'offline' | 'halted';
  /** Ids by what happened to them in this drain. */
  confirmed: string[];
  rejected: string[];
  expired: string[];
  /** Sent but not settled (transport failure, 5xx, 500): queued again. */
  retryLater: string[];
  /** Held back: an earlier command on the same resource is rejected or failed, or the kind needs the network. */
  heldBack: string[];
}

export interface OutboxDeps {
  api: SyncApi;
  uploader: Uploader;
  /** Only the session is read: the token goes with each call explicitly. */
  session: SessionReader;
  storage: SyncStorage;
  clock: SyncClock;
  online: () => boolean;
  newKey: () => string;
  /** The sending lease of a user's outbox (one per user and tab). */
  leaseFor: (userId: string, store: OutboxStore) => OutboxLease;
  /** True once this tab must start no more sends (it is about to reload). */
  halted?: () => boolean;
}

type SendResult =
  'confirmed' | 'rejected' | 'expired' | 'retry_later' | 'offline' | 'unauthorized' | 'superseded';

const answerDataSchema = z.unknown();

function fieldOf(error: z.ZodError): { field: string; message: string } {
  const [first] = error.issues;
  // The enqueue input is {kind, params}: name the field inside params, as the server would.
  const path = first?.path.map(String) ?? [];
  const field = (path[0] === 'params' ? path.slice(1) : path).join('.') || 'params';
  return { field, message: first?.message ?? 'server.field_invalid' };
}

/** The outbox of whichever user is logged in. */
export class Outbox {
  constructor(private readonly deps: OutboxDeps) {}

  private async current(): Promise<{ session: SyncSession; store: OutboxStore } | null> {
    const session = await this.deps.session.getSession();
    if (session === null) return null;
    return { session, store: this.deps.storage.userStores(session.userId).outbox };
  }

  /**
   * Stores a new command (queued) and returns its id, its Idempotency-Key. Input is parsed first:
   * an invalid field is refused here and nothing is stored. Refused when `OUTBOX_LIMIT` commands
   * are pending, when logged out, or (for a kind that needs the network) offline. Local images
   * are stored as bytes with a key each for their upload step. Atomic.
   */
  async enqueue(input: unknown): Promise<EnqueueResult> {
    const parsed = enqueueInputSchema.safeParse(input);
    if (!parsed.success) return { kind: 'refused', reason: 'invalid_input', ...fieldOf(parsed.error) };
    const current = await this.current();
    if (current === null) return { kind: 'refused', reason: 'not_logged_in' };
    if (COMMAND_KINDS[parsed.data.kind].requiresOnline && !this.deps.online())
      return { kind: 'refused', reason: 'offline' };
    const id = this.deps.newKey();
    const record = this.newRecord(id, await this.storedOf(parsed.data));
    const added = await current.store.add(record, OUTBOX_LIMIT);
    if (added === 'full') return { kind: 'refused', reason: 'outbox_full', limit: OUTBOX_LIMIT };
    return { kind: 'ok', id };
  }

  /** Cancels a queued command (one being sent cannot be called back). Compare-and-set. */
  async cancel(id: string): Promise<CancelResult> {
    const current = await this.current();
    if (current === null) return { kind: 'refused', reason: 'not_logged_in' };
    const now = this.deps.clock.now();
    const done = await current.store.transition(id, ['queued'], (record) => ({
      ...withoutSecrets(record),
      state: 'cancelled',
      updatedAtMs: now,
    }));
    if (done !== null) return { kind: 'ok' };
    const record = await current.store.get(id);
    return record === null
      ? { kind: 'refused', reason: 'not_found' }
      : { kind: 'refused', reason: 'not_cancellable', state: record.state };
  }

  /**
   * Makes a NEW command (new key, new upload keys for images not yet uploaded, a fresh expiry)
   * from a rejected or expired one, in its place in the order; the old one stays as it was,
   * marked `retriedAs`. A rejected key would only replay its refusal. Atomic; at most once per
   * command.
   */
  async retry(id: string): Promise<RetryResult> {
    const current = await this.current();
    if (current === null) return { kind: 'refused', reason: 'not_logged_in' };
    const old = await current.store.get(id);
    if (old === null) return { kind: 'refused', reason: 'not_found' };
    // A command carrying secrets lost them when it settled: the user acts again, with a new code.
    if (
      (old.state !== 'rejected' && old.state !== 'expired') ||
      old.retriedAs !== null ||
      carriesSecrets(old.kind)
    ) {
      return { kind: 'refused', reason: 'not_retryable', state: old.state };
    }
    if (COMMAND_KINDS[old.kind].requiresOnline && !this.deps.online())
      return { kind: 'refused', reason: 'offline' };
    const newId = this.deps.newKey();
    const record = this.newRecord(newId, this.renewed(old));
    const added = await current.store.add(record, OUTBOX_LIMIT, { id, states: ['rejected', 'expired'] });
    if (added === 'full') return { kind: 'refused', reason: 'outbox_full', limit: OUTBOX_LIMIT };
    if (added === 'stale') return { kind: 'refused', reason: 'not_retryable' };
    return { kind: 'ok', id: newId };
  }

  /** Puts a rejected or expired command aside: it stops holding its resource back. Compare-and-set. */
  async dismiss(id: string): Promise<DismissResult> {
    const current = await this.current();
    if (current === null) return { kind: 'refused', reason: 'not_logged_in' };
    const now = this.deps.clock.now();
    const done = await current.store.transition(id, ['rejected', 'expired'], (record) => ({
      ...record,
      dismissed: true,
      updatedAtMs: now,
    }));
    if (done !== null) return { kind: 'ok' };
    const record = await current.store.get(id);
    return record === null
      ? { kind: 'refused', reason: 'not_found' }
      : { kind: 'refused', reason: 'not_dismissable', state: record.state };
  }

  /** Pending (queued + sending) commands of the logged-in user; 0 when logged out. Read-only. */
  async pendingCount(): Promise<number> {
    const current = await this.current();
    return current === null ? 0 : current.store.countPending();
  }

  /**
   * Sends what can be sent now, if this tab holds the sending lease: oldest first, skipping
   * resources held back. Every command ends confirmed, rejected, expired or queued again (never
   * lost); see the file comment for which answer does what. Throws only on storage errors.
   */
  async drain(): Promise<DrainSummary> {
    const summary: DrainSummary = {
      status: 'done',
      confirmed: [],
      rejected: [],
      expired: [],
      retryLater: [],
      heldBack: [],
    };
    if (this.deps.halted?.() === true) return { ...summary, status: 'halted' };
    const current = await this.current();
    if (current === null) return { ...summary, status: 'logged_out' };
    // navigator.onLine false is reliable (true is not): no send could get through.
    if (!this.deps.online()) return { ...summary, status: 'offline' };
    const { session, store } = current;
    const pause = await store.readPause();
    if (pause !== null) {
      if (pause.token === session.token) return { ...summary, status: 'paused' };
      await store.writePause(null); // a new login of the same user: resume
    }
    const lease = this.deps.leaseFor(session.userId, store);
    if (!(await lease.acquire())) return { ...summary, status: 'not_sender' };

    const done = new Set<string>();
    const failedResources = new Set<string>();
    for (;;) {
      const next = await this.nextToSend(store, done, failedResources, summary);
      if (next === null) break;
      done.add(next.id);
      if (this.deps.halted?.() === true) return { ...summary, status: 'halted' };
      if (!(await lease.stillMine())) return { ...summary, status: 'not_sender' };
      const result = await this.send(store, next, session);
      switch (result) {
        case 'confirmed':
          summary.confirmed.push(next.id);
          break;
        case 'rejected':
          summary.rejected.push(next.id);
          failedResources.add(next.resource);
          break;
        case 'expired':
          summary.expired.push(next.id);
          break;
        case 'retry_later':
          summary.retryLater.push(next.id);
          failedResources.add(next.resource);
          break;
        case 'offline':
          summary.retryLater.push(next.id);
          return { ...summary, status: 'offline' };
        case 'unauthorized':
          await store.writePause({ id: 'pause', token: session.token, atMs: this.deps.clock.now() });
          return { ...summary, status: 'paused' };
        case 'superseded':
          break;
      }
    }
    await store.prune(this.deps.clock.now() - OUTBOX_HISTORY_MS);
    return summary;
  }

  /**
   * The first command in sending order that may go now; expires queued commands past their age
   * on the way. Commands of a resource with an earlier rejected, failed or held-back command wait.
   */
  private async nextToSend(
    store: OutboxStore,
    done: ReadonlySet<string>,
    failedResources: ReadonlySet<string>,
    summary: DrainSummary,
  ): Promise<OutboxRecord | null> {
    const now = this.deps.clock.now();
    const held = new Set(failedResources);
    for (const record of await store.active()) {
      if (isBlocking(record)) {
        held.add(record.resource);
        continue;
      }
      if (record.state === 'queued' && now >= record.expiresAtMs) {
        if (await this.expire(store, record.id, now)) summary.expired.push(record.id);
        continue;
      }
      if (done.has(record.id)) {
        held.add(record.resource);
        continue;
      }
      if (held.has(record.resource) || (COMMAND_KINDS[record.kind].requiresOnline && !this.deps.online())) {
        held.add(record.resource);
        if (!summary.heldBack.includes(record.id)) summary.heldBack.push(record.id);
        continue;
      }
      return record;
    }
    return null;
  }

  private async expire(store: OutboxStore, id: string, now: number): Promise<boolean> {
    const expired = await store.transition(id, ['queued'], (record) => ({
      ...withoutSecrets(record),
      state: 'expired',
      updatedAtMs: now,
    }));
    return expired !== null;
  }

  /** One command to a final state or back to queued. */
  private async send(store: OutboxStore, record: OutboxRecord, session: SyncSession): Promise<SendResult> {
    const now = this.deps.clock.now();
    // A queued command past its age is never sent; one found `sending` may already have taken
    // effect, so it is sent again with its key whatever its age, to learn the answer.
    if (record.state === 'queued' && now >= record.expiresAtMs) {
      return (await this.expire(store, record.id, now)) ? 'expired' : 'superseded';
    }
    let claimed = await store.transition(record.id, ['queued', 'sending'], (current) => ({
      ...current,
      state: 'sending',
      attempts: current.attempts + 1,
      updatedAtMs: now,
    }));
    if (claimed === null) return 'superseded';

    if (claimed.kind === 'feedback-submit') {
      for (const [index, image] of claimed.params.images.entries()) {
        if (image.url !== null || image.source !== 'local' || image.bytes === null) continue;
        const uploaded = await this.deps.uploader.upload(
          { bytes: image.bytes, type: image.type, name: image.name },
          { token: session.token, idempotencyKey: image.key },
        );
        if (uploaded.kind !== 'ok') return this.settle(store, claimed.id, uploaded);
        const url = uploaded.data.url;
        claimed = await store.transition(claimed.id, ['sending'], (current) =>
          current.kind === 'feedback-submit'
            ? {
                ...current,
                params: {
                  ...current.params,
                  images: current.params.images.map((item, at) =>
                    at === index && item.source === 'local' ? { ...item, url, bytes: null } : item,
                  ),
                },
                updatedAtMs: this.deps.clock.now(),
              }
            : current,
        );
        if (claimed === null) return 'superseded';
      }
    }

    const params = wireParamsOf(claimed);
    if (params === null) {
      // A local image lost its bytes before it got a URL: only another version could write that.
      return this.settle(store, claimed.id, {
        kind: 'refused',
        code: BodyCode.invalidInput,
        message: 'image missing',
        data: null,
      });
    }
    const outcome = await this.deps.api.command(COMMAND_KINDS[claimed.kind].uri, answerDataSchema, params, {
      idempotencyKey: claimed.id,
      token: session.token,
    });
    return this.settle(store, claimed.id, outcome);
  }

  /** Writes what an answer means for a command being sent (see the file comment). */
  private async settle(store: OutboxStore, id: string, outcome: Outcome<unknown>): Promise<SendResult> {
    const now = this.deps.clock.now();
    const requeue = async (message: string, result: SendResult): Promise<SendResult> => {
      const back = await store.transition(id, ['sending'], (record) => ({
        ...record,
        state: 'queued',
        lastError: message,
        updatedAtMs: now,
      }));
      return back === null ? 'superseded' : result;
    };
    if (outcome.kind === 'ok') {
      const confirmed = await store.transition(id, ['sending'], (record) => ({
        ...withoutSecrets(record),
        state: 'confirmed',
        answer: { code: BodyCode.ok, message: outcome.message },
        lastError: null,
        updatedAtMs: now,
      }));
      return confirmed === null ? 'superseded' : 'confirmed';
    }
    if (outcome.kind === 'transport') {
      return requeue(outcome.message, outcome.status === null ? 'offline' : 'retry_later');
    }
    if (outcome.code === BodyCode.notLoggedIn) return requeue(outcome.message, 'unauthorized');
    if (outcome.code === BodyCode.internalError) return requeue(outcome.message, 'retry_later');
    const rejected = await store.transition(id, ['sending'], (record) => ({
      ...withoutSecrets(record),
      state: 'rejected',
      answer: { code: outcome.code, message: outcome.message },
      updatedAtMs: now,
    }));
    return rejected === null ? 'superseded' : 'rejected';
  }

  private newRecord(id: string, stored: StoredCommand): OutboxRecord {
    const now = this.deps.clock.now();
    const common = {
      id,
      resource: resourceOf(stored, id),
      state: 'queued' as const,
      seq: 0, // assigned by the store
      createdAtMs: now,
      expiresAtMs: now + COMMAND_KINDS[stored.kind].maxAgeMs,
      updatedAtMs: now,
      attempts: 0,
      lastError: null,
      answer: null,
      retriedAs: null,
      dismissed: false,
    };
    // Each branch pairs a kind with its own params, which a spread of the union would not show.
    switch (stored.kind) {
      case 'profile-nickname':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'profile-avatar':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'feedback-submit':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'account-transfer':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'account-create':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'account-switch':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'withdraw-create':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'exchange-submit':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'machine-buy':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'machine-rent':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'dividend-claim':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'hosting-create':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'hosting-add':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'hosting-sub':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'hosting-redeem':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'otc-buy':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'otc-sell':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'otc-take':
        return { ...common, kind: stored.kind, params: stored.params };
      case 'otc-cancel':
        return { ...common, kind: stored.kind, params: stored.params };
    }
  }

  /** The stored form of parsed input: local images become bytes with an upload key each. */
  private async storedOf(input: ParsedEnqueueInput): Promise<StoredCommand> {
    switch (input.kind) {
      case 'profile-nickname':
        return { kind: input.kind, params: { nickname: input.params.nickname } };
      case 'profile-avatar':
        return { kind: input.kind, params: { avatar: input.params.avatar } };
      case 'feedback-submit': {
        const images: StoredImage[] = [];
        for (const image of input.params.images) {
          if (typeof image === 'string') {
            images.push({ source: 'url', url: image });
            continue;
          }
          const name = image instanceof File ? image.name : 'image';
          images.push({
            source: 'local',
            key: this.deps.newKey(),
            type: image.type,
            name,
            bytes: new Uint8Array(await image.arrayBuffer()),
            url: null,
          });
        }
        return {
          kind: input.kind,
          params: { title: input.params.title, content: input.params.content, images },
        };
      }
      case 'account-transfer': {
        const { fromAccountId, toAccountId, asset, amount } = input.params;
        return { kind: input.kind, params: { fromAccountId, toAccountId, asset, amount } };
      }
      case 'account-create':
        return { kind: input.kind, params: { name: input.params.name } };
      case 'account-switch':
        return { kind: input.kind, params: { accountId: input.params.accountId } };
      case 'withdraw-create': {
        const { accountId, amount, methodId, googleCode, tradePassword } = input.params;
        return { kind: input.kind, params: { accountId, amount, methodId, googleCode, tradePassword } };
      }
      case 'exchange-submit': {
        const { accountId, direction, amount, priceVersion, tradePassword } = input.params;
        return { kind: input.kind, params: { accountId, direction, amount, priceVersion, tradePassword } };
      }
      case 'machine-buy': {
        const { accountId, machineId, quantity, payWith, tradePassword } = input.params;
        return { kind: input.kind, params: { accountId, machineId, quantity, payWith, tradePassword } };
      }
      case 'machine-rent': {
        const { accountId, machineId, days, quantity, tradePassword } = input.params;
        return { kind: input.kind, params: { accountId, machineId, days, quantity, tradePassword } };
      }
      case 'dividend-claim': {
        const { accountId, id, amount } = input.params;
        return { kind: input.kind, params: { accountId, id: id ?? null, amount } };
      }
      case 'hosting-create': {
        const { accountId, productId, amount, tradePassword } = input.params;
        return { kind: input.kind, params: { accountId, productId, amount, tradePassword } };
      }
      case 'hosting-add':
      case 'hosting-sub': {
        const { accountId, orderId, amount } = input.params;
        return { kind: input.kind, params: { accountId, orderId, amount } };
      }
      case 'hosting-redeem':
      case 'otc-cancel': {
        const { accountId, orderId } = input.params;
        return { kind: input.kind, params: { accountId, orderId } };
      }
      case 'otc-buy':
      case 'otc-sell': {
        const { accountId, volume, price, splittable, tradePassword } = input.params;
        return { kind: input.kind, params: { accountId, volume, price, splittable, tradePassword } };
      }
      case 'otc-take': {
        const { accountId, orderId, side, volume, price, received, tradePassword } = input.params;
        return {
          kind: input.kind,
          params: { accountId, orderId, side, volume, price, received, tradePassword },
        };
      }
    }
  }

  /** A retry's params: uploaded images keep their URL; the others get a new upload key. */
  private renewed(old: OutboxRecord): StoredCommand {
    if (old.kind !== 'feedback-submit') return old;
    const images = old.params.images.map((image): StoredImage =>
      image.source === 'local' && image.url === null ? { ...image, key: this.deps.newKey() } : image,
    );
    return { kind: old.kind, params: { ...old.params, images } };
  }
}
