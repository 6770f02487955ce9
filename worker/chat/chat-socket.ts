/**
 * The customer's live line to support (docs/protocol.md §35): the worker holds one WebSocket at
 * `/api/v1/chat/socket`, authenticates in its first frame (the token never goes in the URL),
 * and after `ready` asks to `resume` after the last seq it holds WITHOUT A GAP (`SeqTracker`),
 * so nothing sent while it was away is missed; every message and read mark it receives is
 * written to the user's database, where the room reads it. A seq that arrives past a missing
 * one asks for a resume from the watermark again; a seq already held is stored once (by id).
 *
 * What must stay true: the socket writes only for the user it was opened for, and never after
 * `stop()` (logout deletes the databases after stopping it); any close but a refused session
 * reconnects with bounded backoff and jitter; a socket that stays silent past the heartbeat is
 * closed and reopened (a weak mobile link often dies without a close). The sync collections
 * `chat_messages` and `chat_reads` stay the fallback: with no socket at all the room is right.
 */
import {
  CHAT_CLOSE,
  chatServerFrameSchema,
  type ChatClientFrame,
  type ChatMessage,
  type ChatServerFrame,
} from '../../contract/api/chat.js';
import type { SessionReader } from '../../sync/ports.js';
import { SeqTracker } from './seq-tracker.js';

/** The part of a browser WebSocket the client uses (the `ws` package's in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Where the socket keeps what it hears: the user's `chat_messages` and `chat_reads` (`client-db/caches/chat.ts`). */
export interface ChatSocketStore {
  /** Every seq of the user's stored messages (any order). */
  heldSeqs(userId: string): Promise<number[]>;
  /** Upserts messages by id (a message held already is replaced by the same one). */
  putMessages(userId: string, messages: readonly ChatMessage[]): Promise<void>;
  /** Raises the stored read marks to these (a mark never goes back) and the conversation's last seq. */
  raiseReads(
    userId: string,
    marks: { customerReadSeq?: number; agentReadSeq?: number; lastSeq?: number },
  ): Promise<void>;
}

/** Timers the client uses, injectable so tests drive time. */
export interface SocketTimers {
  setTimeout(task: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ChatSocketDeps {
  /** Opens a socket to `url` (the browser: `new WebSocket(url)`). */
  connect(url: string): SocketLike;
  /** The socket's URL: `ws(s)://<host>/api/v1/chat/socket`, no token in it. */
  url(): string;
  session: SessionReader;
  store: ChatSocketStore;
  timers?: SocketTimers;
  /** A number in [0, 1) for the backoff's jitter. */
  random?: () => number;
  /** After `ready`: the read mark this device holds but the server has not (sent with a command). */
  onReady?(ready: Extract<ChatServerFrame, { type: 'ready' }>): void;
  /** Each state change, for tests and the status the UI may show. */
  onState?(state: ChatSocketState): void;
}

/** idle: stopped or logged out; connecting: opened, not ready yet; live: ready and resumed; waiting: to reconnect. */
export type ChatSocketState = 'idle' | 'connecting' | 'live' | 'waiting';

/** First reconnect delay, doubled per failure up to the maximum (then jittered down by up to half). */
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
/** After 4409 (this user opened too many sockets) wait longer: a quick return would push out another. */
export const REPLACED_WAIT_MS = 60_000;
/** A `ping` frame after this much silence; no frame at all within PONG_WAIT_MS after it closes the socket. */
export const PING_AFTER_MS = 25_000;
export const PONG_WAIT_MS = 10_000;

const OPEN = 1;
const defaultTimers: SocketTimers = {
  setTimeout: (task, ms) => setTimeout(task, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The worker's chat socket; see the file header. */
export class ChatSocket {
  private readonly timers: SocketTimers;
  private readonly random: () => number;
  private socket: SocketLike | null = null;
  /** The user and token the current socket was opened for. */
  private userId: string | null = null;
  private token: string | null = null;
  /** The token a 4401 refused: no reconnect until the session holds another. */
  private refusedToken: string | null = null;
  private tracker: SeqTracker | null = null;
  private wanted = false;
  private failures = 0;
  private reconnectTimer: unknown = null;
  private silenceTimer: unknown = null;
  private stateNow: ChatSocketState = 'idle';
  /** Frames are handled one after another (each may write to IndexedDB). */
  private work: Promise<void> = Promise.resolve();
  /**
   * The seq the socket's stream should bring next: after `resume` the server sends every message
   * after `afterSeq` once, in seq order, then the live ones. A seq past it means the stream
   * skipped one (a delivery lost between instances): resume again from the watermark. Seqs the
   * device got by other paths (the send answer, a pull) are no gap in the stream.
   */
  private expectedSeq: number | null = null;

  constructor(private readonly deps: ChatSocketDeps) {
    this.timers = deps.timers ?? defaultTimers;
    this.random = deps.random ?? Math.random;
  }

  get state(): ChatSocketState {
    return this.stateNow;
  }

  /**
   * Opens the socket unless one is open or opening for the current session (idempotent); one of
   * an older session (logged out by a 401, logged in again) is closed and a new one opened.
   * Reconnects from now on.
   */
  async start(): Promise<void> {
    this.wanted = true;
    const session = await this.deps.session.getSession();
    if (this.socket !== null && session?.token === this.token) return;
    if (this.socket !== null) this.drop();
    this.clearReconnect();
    await this.open();
  }

  /** Lets the current socket go without reconnecting from its close. */
  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    this.token = null;
    this.clearSilence();
    if (socket === null) return;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    socket.onopen = null;
    socket.close(1000, 'replaced');
  }

  /** Reconnects at once when waiting (the network came back); otherwise nothing. */
  async nudge(): Promise<void> {
    if (!this.wanted || this.socket !== null) return;
    this.failures = 0;
    this.clearReconnect();
    await this.open();
  }

  /** Closes the socket and stops reconnecting; waits until no frame is being written. Idempotent. */
  async stop(): Promise<void> {
    this.wanted = false;
    this.clearReconnect();
    this.drop();
    this.userId = null;
    this.tracker = null;
    this.setState('idle');
    await this.work.catch(() => undefined);
  }

  private setState(state: ChatSocketState): void {
    if (state === this.stateNow) return;
    this.stateNow = state;
    this.deps.onState?.(state);
  }

  private async open(): Promise<void> {
    const session = await this.deps.session.getSession();
    if (!this.wanted || this.socket !== null) return;
    if (session === null || session.token === this.refusedToken) {
      this.setState('idle');
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.deps.connect(this.deps.url());
    } catch {
      this.scheduleReconnect(null);
      return;
    }
    this.socket = socket;
    this.userId = session.userId;
    this.token = session.token;
    this.tracker = null;
    this.expectedSeq = null;
    this.setState('connecting');
    socket.onopen = () => {
      this.sendFrame(socket, { type: 'auth', token: session.token });
      this.armSilence(socket);
    };
    socket.onmessage = (event) => {
      this.armSilence(socket);
      const text = typeof event.data === 'string' ? event.data : null;
      this.work = this.work
        .then(() => this.handle(socket, session.userId, text))
        .catch(() => {
          // A write that failed (storage full, database closing) is healed by the next resume or pull.
        });
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearSilence();
      if (event.code === CHAT_CLOSE.unauthorized) this.refusedToken = session.token;
      this.scheduleReconnect(event.code);
    };
    socket.onerror = () => {
      // A close always follows an error; reconnecting is decided there.
    };
  }

  private sendFrame(socket: SocketLike, frame: ChatClientFrame): void {
    if (socket.readyState === OPEN) socket.send(JSON.stringify(frame));
  }

  /** No frame for PING_AFTER_MS: a ping; still none PONG_WAIT_MS later: the link is dead, reopen. */
  private armSilence(socket: SocketLike): void {
    this.clearSilence();
    this.silenceTimer = this.timers.setTimeout(() => {
      if (this.socket !== socket) return;
      this.sendFrame(socket, { type: 'ping' });
      this.silenceTimer = this.timers.setTimeout(() => {
        if (this.socket === socket) socket.close(4000, 'silent');
        // A socket whose close never comes (a dead link) is let go here.
        if (this.socket === socket) {
          this.socket = null;
          this.scheduleReconnect(null);
        }
      }, PONG_WAIT_MS);
    }, PING_AFTER_MS);
  }

  private clearSilence(): void {
    if (this.silenceTimer !== null) this.timers.clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private scheduleReconnect(code: number | null): void {
    this.tracker = null;
    if (!this.wanted || code === CHAT_CLOSE.unauthorized) {
      this.setState('idle');
      return;
    }
    this.failures += 1;
    const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.min(this.failures - 1, 10));
    const delay =
      code === CHAT_CLOSE.tooManySockets ? REPLACED_WAIT_MS : ceiling / 2 + (ceiling / 2) * this.random();
    this.setState('waiting');
    this.clearReconnect();
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null;
      void this.open();
    }, delay);
  }

  /** Asks for every message after the watermark; the stream then starts right after it. */
  private resume(socket: SocketLike, tracker: SeqTracker): void {
    this.expectedSeq = tracker.watermark + 1;
    this.sendFrame(socket, { type: 'resume', afterSeq: tracker.watermark });
  }

  private async handle(socket: SocketLike, userId: string, text: string | null): Promise<void> {
    if (this.socket !== socket || this.userId !== userId) return;
    let frame: ChatServerFrame;
    try {
      frame = chatServerFrameSchema.parse(JSON.parse(text ?? ''));
    } catch {
      return; // A frame of a newer server or a broken one: ignored, the next resume or pull heals.
    }
    // The session may have changed (logout, another user) while the frame waited.
    const session = await this.deps.session.getSession();
    if (session?.userId !== userId || this.socket !== socket) return;
    switch (frame.type) {
      case 'ready': {
        await this.deps.store.raiseReads(userId, {
          customerReadSeq: frame.customerReadSeq,
          agentReadSeq: frame.agentReadSeq,
          lastSeq: frame.lastSeq,
        });
        const tracker = new SeqTracker(await this.deps.store.heldSeqs(userId));
        if (this.socket !== socket) return;
        this.tracker = tracker;
        this.failures = 0;
        this.resume(socket, tracker);
        this.setState('live');
        this.deps.onReady?.(frame);
        return;
      }
      case 'message': {
        const tracker = this.tracker;
        const expected = this.expectedSeq;
        if (tracker === null || expected === null) return; // before ready: the resume brings it
        const { seq } = frame.message;
        if (tracker.add(seq) !== 'duplicate') await this.deps.store.putMessages(userId, [frame.message]);
        await this.deps.store.raiseReads(userId, { lastSeq: seq });
        if (seq > expected) this.resume(socket, tracker);
        else if (seq === expected) this.expectedSeq = seq + 1;
        return;
      }
      case 'read':
        await this.deps.store.raiseReads(
          userId,
          frame.by === 'agent' ? { agentReadSeq: frame.seq } : { customerReadSeq: frame.seq },
        );
        return;
      case 'pong':
      case 'error':
        return; // liveness was noted on arrival; an error's close follows
    }
  }
}

/** The socket's URL on the serving origin (`ws:` beside `http:`, `wss:` beside `https:`). Pure. */
export function chatSocketUrl(origin: string): string {
  const url = new URL('/api/v1/chat/socket', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}
