/**
 * The worker's one typed surface (STYLE rule 1): every feature's handler map merged into one
 * object of named commands. The UI calls them through comlink with types from `Handlers`.
 */
import { commandRegistry } from '../commands.js';
import { createSyncEngine, type SyncEnvironment } from '../../sync/engine.js';
import { createHttpUploader } from '../../sync/uploader.js';
import { createApiClient } from '../api-client.js';
import { RequestQueue, type QueueOptions } from '../queue.js';
import { broadcastReachability, withReachability } from '../reachability.js';
import type { SessionStore } from '../session.js';
import { createSend, type TransportOptions } from '../transport.js';
import { accountHandlers } from './account.handlers.js';
import { authHandlers } from './auth.handlers.js';
import { commonHandlers } from './common.handlers.js';
import type { HandlerDeps } from './deps.js';
import { outboxHandlers } from './outbox.handlers.js';
import { paymentHandlers } from './payment.handlers.js';
import { rechargeHandlers } from './recharge.handlers.js';
import { securityHandlers } from './security.handlers.js';
import { sessionHandlers } from './session.handlers.js';
import { syncHandlers } from './sync.handlers.js';
import { userHandlers } from './user.handlers.js';
import { withdrawHandlers } from './withdraw.handlers.js';
import { exchangeHandlers } from './exchange.handlers.js';
import { hostingHandlers } from './hosting.handlers.js';
import { dividendHandlers } from './dividend.handlers.js';
import { teamHandlers } from './team.handlers.js';
import { otcHandlers } from './otc.handlers.js';
import { reservesHandlers } from './reserves.handlers.js';
import { passkeyHandlers } from './passkey.handlers.js';
import { pushHandlers } from './push.handlers.js';
import { chatHandlers, type ChatDeps } from './chat.handlers.js';

// `never` parameters accept a handler of any parameter type (parameters are contravariant).
type Handler = (...params: never[]) => Promise<unknown>;
export type HandlerMap = Readonly<Record<string, Handler>>;

type Merged<M extends readonly HandlerMap[]> = (
  M[number] extends infer U ? (U extends unknown ? (map: U) => void : never) : never
) extends (map: infer I) => void
  ? I
  : never;

/**
 * One map from several. A name declared in two maps throws when the maps are merged, that is
 * at the worker's start, never at the first call.
 * @throws Error naming the duplicated handler.
 */
export function mergeHandlers<M extends readonly HandlerMap[]>(...maps: M): Merged<M> {
  const merged: Record<string, Handler> = {};
  for (const map of maps) {
    for (const [name, handler] of Object.entries(map)) {
      if (Object.hasOwn(merged, name)) throw new Error(`handler declared twice: ${name}`);
      merged[name] = handler;
    }
  }
  // Holds exactly the entries of every map, none overwritten (checked above): their intersection.
  return merged as Merged<M>;
}

export interface WorkerDeps {
  transport: TransportOptions;
  session: SessionStore;
  /** Backoff sleep, jitter, clock and concurrency of the request queue. */
  queue?: QueueOptions;
  /** Defaults to crypto.randomUUID. */
  newIdempotencyKey?: () => string;
  /** The sync engine's storage, locks, clock, timers and network state; browser defaults. */
  sync?: SyncEnvironment;
  /** Hears whether the server answers, on each change; defaults to the `coffer-link` channel. */
  onReachability?: (reachable: boolean) => void;
  /** The chat's store, socket and image reads; browser defaults. */
  chat?: ChatDeps;
}

/** Builds every handler around one request queue, one session store and one transport. */
export function createHandlers(deps: WorkerDeps) {
  const send = withReachability(createSend(deps.transport), deps.onReachability ?? broadcastReachability());
  const queue = new RequestQueue(send, deps.queue);
  const handlerDeps: HandlerDeps = {
    api: createApiClient(queue, deps.session),
    session: deps.session,
    newIdempotencyKey: deps.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID()),
  };
  const sync = createSyncEngine({
    commands: commandRegistry,
    api: handlerDeps.api,
    session: deps.session,
    newKey: handlerDeps.newIdempotencyKey,
    uploader: createHttpUploader({
      fetch: deps.transport.fetch,
      session: deps.session,
      ...(deps.transport.baseUrl === undefined ? {} : { baseUrl: deps.transport.baseUrl }),
      ...(deps.queue === undefined ? {} : { queue: deps.queue }),
    }),
    ...(deps.sync === undefined ? {} : { environment: deps.sync }),
  });
  const chat = chatHandlers(handlerDeps, {
    ...(deps.transport.baseUrl === undefined ? {} : { baseUrl: deps.transport.baseUrl }),
    fetch: deps.transport.fetch,
    ...deps.chat,
  });
  return mergeHandlers(
    authHandlers(handlerDeps),
    userHandlers(handlerDeps),
    commonHandlers(handlerDeps),
    sessionHandlers(handlerDeps),
    syncHandlers(sync),
    // The chat socket stops before logout deletes the databases it writes to.
    outboxHandlers(sync, { beforeDiscard: () => chat.socket.stop() }),
    accountHandlers(handlerDeps, sync),
    rechargeHandlers(handlerDeps),
    securityHandlers(handlerDeps),
    paymentHandlers(handlerDeps),
    withdrawHandlers(handlerDeps),
    exchangeHandlers(handlerDeps),
    dividendHandlers(handlerDeps),
    hostingHandlers(handlerDeps),
    teamHandlers(handlerDeps),
    otcHandlers(handlerDeps),
    reservesHandlers(handlerDeps),
    passkeyHandlers(handlerDeps),
    pushHandlers(handlerDeps),
    chat.handlers,
  );
}

export type Handlers = ReturnType<typeof createHandlers>;
