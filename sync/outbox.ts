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
  isBlocking,
  OUTBOX_LIMIT,
  type CommandDefinition,
  type CommandRegistry,
  type OutboxState,
  type StoredRecord,
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
  /** Every command kind; the outbox knows no feature of its own. */
  commands: CommandRegistry;
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
    const parsed = this.deps.commands.enqueue(input, this.deps.newKey);
    if (!parsed.ok) return { kind: 'refused', reason: 'invalid_input', ...fieldOf(parsed.error) };
    const current = await this.current();
    if (current === null) return { kind: 'refused', reason: 'not_logged_in' };
    if (parsed.definition.requiresOnline && !this.deps.online())
      return { kind: 'refused', reason: 'offline' };
    const id = this.deps.newKey();
    const record = this.newRecord(id, parsed.definition, await parsed.params);
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
      ...this.withoutSecrets(record),
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
    const definition = this.definitionOf(old);
    if (
      (old.state !== 'rejected' && old.state !== 'expired') ||
      old.retriedAs !== null ||
      definition.carriesSecrets
    ) {
      return { kind: 'refused', reason: 'not_retryable', state: old.state };
    }
    if (definition.requiresOnline && !this.deps.online()) return { kind: 'refused', reason: 'offline' };
    const newId = this.deps.newKey();
    // A retry's params: e.g. files not uploaded yet get a new upload key.
    const record = this.newRecord(newId, definition, definition.renew(old.params, this.deps.newKey));
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
  ): Promise<StoredRecord | null> {
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
      if (held.has(record.resource) || (this.definitionOf(record).requiresOnline && !this.deps.online())) {
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
      ...this.withoutSecrets(record),
      state: 'expired',
      updatedAtMs: now,
    }));
    return expired !== null;
  }

  /** One command to a final state or back to queued. */
  private async send(store: OutboxStore, record: StoredRecord, session: SyncSession): Promise<SendResult> {
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

    const definition = this.definitionOf(claimed);
    for (const upload of definition.pendingUploads(claimed.params)) {
      const uploaded = await this.deps.uploader.upload(upload.file, {
        token: session.token,
        idempotencyKey: upload.key,
      });
      if (uploaded.kind !== 'ok') return this.settle(store, claimed.id, uploaded);
      const url = uploaded.data.url;
      claimed = await store.transition(claimed.id, ['sending'], (current) => ({
        ...current,
        params: definition.uploaded(current.params, upload.index, url),
        updatedAtMs: this.deps.clock.now(),
      }));
      if (claimed === null) return 'superseded';
    }

    const params = definition.wireParamsOf(claimed.params);
    if (params === null) {
      // A local image lost its bytes before it got a URL: only another version could write that.
      return this.settle(store, claimed.id, {
        kind: 'refused',
        code: BodyCode.invalidInput,
        message: 'image missing',
        data: null,
      });
    }
    const outcome = await this.deps.api.command(definition.uri, answerDataSchema, params, {
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
        ...this.withoutSecrets(record),
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
      ...this.withoutSecrets(record),
      state: 'rejected',
      answer: { code: outcome.code, message: outcome.message },
      updatedAtMs: now,
    }));
    return rejected === null ? 'superseded' : 'rejected';
  }

  /** The definition of a stored command's kind (storage parsed the row by it). */
  private definitionOf(record: StoredRecord): CommandDefinition {
    const definition = this.deps.commands.of(record.kind);
    if (definition === null) throw new Error(`outbox command of an unknown kind: ${record.kind}`);
    return definition;
  }

  /**
   * A command as kept once it settled (confirmed, rejected, expired, cancelled): its kind's
   * secrets blanked, so none stays on the device for the outbox's week of history. A queued or
   * sending command keeps them: a resend must carry the same body as the first send (the server
   * compares it under the Idempotency-Key).
   */
  private withoutSecrets(record: StoredRecord): StoredRecord {
    return { ...record, params: this.definitionOf(record).withoutSecrets(record.params) };
  }

  private newRecord(id: string, definition: CommandDefinition, params: unknown): StoredRecord {
    const now = this.deps.clock.now();
    return {
      id,
      kind: definition.kind,
      params,
      resource: definition.resourceOf(params, id),
      state: 'queued',
      seq: 0, // assigned by the store
      createdAtMs: now,
      expiresAtMs: now + definition.maxAgeMs,
      updatedAtMs: now,
      attempts: 0,
      lastError: null,
      answer: null,
      retriedAs: null,
      dismissed: false,
    };
  }
}
