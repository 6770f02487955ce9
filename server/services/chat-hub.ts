/**
 * This instance's chat sockets and what reaches them (docs/protocol.md §35.3). A customer's socket
 * is a stream that sends each of the conversation's messages once, with no gap: it holds the
 * highest seq it sent; a live message right after it goes out at once, one further on means some
 * were not heard yet (another instance's, a dropped subscription) and the gap is read from the
 * database first, and one at or below it was sent already. A resume sends, from the database, what
 * lies after its seq and below what the socket sent. Each stream's work runs one step at a time,
 * so a resume's backlog and the live messages never interleave.
 */
import {
  CHAT_CLOSE,
  CHAT_SOCKETS_PER_USER,
  type AdminChatMessage,
  type ChatMessage,
  type ChatReads,
  type ChatServerFrame,
  type AdminChatServerFrame,
} from '../../contract/api/chat.js';
import type { ChatBus, ChatEvent } from './chat-bus.js';

/** A socket as the hub sees it: frames out, and a close (with a code of CHAT_CLOSE). */
export interface ChatLink {
  send(frame: ChatServerFrame | AdminChatServerFrame): void;
  close(code: number, reason: string): void;
}

/** What the hub reads from the database (ChatService). */
export interface ChatBacklog {
  /** The customer's messages after `afterSeq`, ascending, at most `limit` (never a note). */
  after(userId: number, afterSeq: number, limit: number): Promise<ChatMessage[]>;
  /** The conversation's newest seq and read marks (zeros before the first message). */
  state(userId: number): Promise<ChatReads & { lastSeq: number }>;
}

const BACKLOG_PAGE = 100;

/** The customer's view of an agent's message (no note ever reaches here). */
export const customerView = (message: AdminChatMessage): ChatMessage => ({
  id: message.id,
  seq: message.seq,
  clientMsgId: message.clientMsgId,
  from: message.from,
  agentName: message.agentName,
  text: message.text,
  imageUrl: message.imageUrl,
  createdAt: message.createdAt,
});

export class CustomerStream {
  /** The highest seq sent (live messages continue from it); null until `ready` went out. */
  #delivered: number | null = null;
  /** Every seq in (`#sentFrom`, `#delivered`] went out on this socket (a resume sends only below it). */
  #sentFrom = 0;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    readonly userId: number,
    readonly link: ChatLink,
    private readonly backlog: ChatBacklog,
  ) {}

  /** Sends `ready` with the conversation's state; live messages after its `lastSeq` follow. */
  start(): void {
    this.#step(async () => {
      const state = await this.backlog.state(this.userId);
      this.#delivered = state.lastSeq;
      this.#sentFrom = state.lastSeq;
      this.link.send({ type: 'ready', ...state });
    });
  }

  /**
   * Everything after `afterSeq` this socket has not sent yet, from the database (live messages
   * already sent are not sent again: a resume that comes after some may bring older seqs after
   * newer ones; each seq goes out once).
   */
  resume(afterSeq: number): void {
    this.#step(async () => {
      if (this.#delivered === null || afterSeq >= this.#sentFrom) return;
      const until = this.#sentFrom;
      let from = afterSeq;
      for (;;) {
        const rows = await this.backlog.after(this.userId, from, BACKLOG_PAGE);
        for (const message of rows) {
          if (this.#closed || message.seq > until) return this.#sentBelow(afterSeq);
          this.link.send({ type: 'message', message });
          from = message.seq;
        }
        if (rows.length < BACKLOG_PAGE) return this.#sentBelow(afterSeq);
      }
    });
  }

  /** A message committed now (from any instance). */
  live(message: ChatMessage): void {
    this.#step(async () => {
      if (this.#delivered === null || message.seq <= this.#delivered) return;
      if (message.seq === this.#delivered + 1) {
        this.link.send({ type: 'message', message });
        this.#delivered = message.seq;
        return;
      }
      await this.#fill();
    });
  }

  /** Reads whatever may have been missed (the bus dropped). */
  resync(): void {
    this.#step(() => this.#fill());
  }

  read(by: 'customer' | 'agent', seq: number): void {
    this.#step(() => {
      if (this.#delivered !== null) this.link.send({ type: 'read', by, seq });
      return Promise.resolve();
    });
  }

  close(): void {
    this.#closed = true;
  }

  #sentBelow(afterSeq: number): void {
    this.#sentFrom = Math.min(this.#sentFrom, afterSeq);
  }

  /** Sends what follows `#delivered` in the database, up to its newest. */
  async #fill(): Promise<void> {
    if (this.#delivered === null) return;
    for (;;) {
      const rows = await this.backlog.after(this.userId, this.#delivered, BACKLOG_PAGE);
      for (const message of rows) {
        if (this.#closed) return;
        if (message.seq <= this.#delivered) continue;
        this.link.send({ type: 'message', message });
        this.#delivered = message.seq;
      }
      if (rows.length < BACKLOG_PAGE) return;
    }
  }

  #step(work: () => Promise<void>): void {
    this.#chain = this.#chain
      .then(() => (this.#closed ? undefined : work()))
      .catch(() => {
        // The database did not answer: the client reconnects and resumes by seq.
        this.link.close(1011, 'unavailable');
      });
  }

  /** Resolves once every step queued so far ran (tests, shutdown). */
  settled(): Promise<void> {
    return this.#chain;
  }
}

export class ChatHub {
  readonly #customers = new Map<number, CustomerStream[]>();
  readonly #agents = new Map<number, ChatLink[]>();

  constructor(
    private readonly bus: ChatBus,
    private readonly backlog: ChatBacklog,
  ) {
    bus.listen({ event: (event) => this.#deliver(event), resync: () => this.resync() });
  }

  /** Publishes a committed change to every instance (this one included). */
  publish(event: ChatEvent): Promise<void> {
    return this.bus.publish(event);
  }

  /** Subscribes a customer's socket (before its backlog is read); past CHAT_SOCKETS_PER_USER the oldest goes. */
  addCustomer(userId: number, link: ChatLink): CustomerStream {
    const stream = new CustomerStream(userId, link, this.backlog);
    const streams = [...(this.#customers.get(userId) ?? []), stream];
    while (streams.length > CHAT_SOCKETS_PER_USER) {
      const oldest = streams.shift();
      oldest?.close();
      oldest?.link.close(CHAT_CLOSE.tooManySockets, 'too many sockets');
    }
    this.#customers.set(userId, streams);
    stream.start();
    return stream;
  }

  removeCustomer(stream: CustomerStream): void {
    stream.close();
    const left = (this.#customers.get(stream.userId) ?? []).filter((other) => other !== stream);
    if (left.length === 0) this.#customers.delete(stream.userId);
    else this.#customers.set(stream.userId, left);
  }

  addAgent(operatorId: number, link: ChatLink): void {
    const links = [...(this.#agents.get(operatorId) ?? []), link];
    while (links.length > CHAT_SOCKETS_PER_USER)
      links.shift()?.close(CHAT_CLOSE.tooManySockets, 'too many sockets');
    this.#agents.set(operatorId, links);
    link.send({ type: 'ready' });
  }

  removeAgent(operatorId: number, link: ChatLink): void {
    const left = (this.#agents.get(operatorId) ?? []).filter((other) => other !== link);
    if (left.length === 0) this.#agents.delete(operatorId);
    else this.#agents.set(operatorId, left);
  }

  /** Every customer stream reads what it may have missed. */
  resync(): void {
    for (const streams of this.#customers.values()) for (const stream of streams) stream.resync();
  }

  /** Sockets held here (the bench, tests). */
  get counts(): { customers: number; agents: number } {
    let customers = 0;
    let agents = 0;
    for (const streams of this.#customers.values()) customers += streams.length;
    for (const links of this.#agents.values()) agents += links.length;
    return { customers, agents };
  }

  #deliver(event: ChatEvent): void {
    const streams = this.#customers.get(event.userId) ?? [];
    switch (event.kind) {
      case 'message':
        if (!event.message.internal) {
          const message = customerView(event.message);
          for (const stream of streams) stream.live(message);
        }
        this.#toAgents({ type: 'message', userId: String(event.userId), message: event.message });
        break;
      case 'read':
        for (const stream of streams) stream.read(event.by, event.seq);
        this.#toAgents({ type: 'read', userId: String(event.userId), by: event.by, seq: event.seq });
        break;
      case 'conversation':
        this.#toAgents({ type: 'conversation', conversation: event.conversation });
        break;
    }
  }

  #toAgents(frame: AdminChatServerFrame): void {
    for (const links of this.#agents.values()) for (const link of links) link.send(frame);
  }
}
