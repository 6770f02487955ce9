/**
 * The chat's rows in `coffer-u{user}` (docs/protocol.md §35): the synced `chat_messages` and
 * `chat_reads` the socket writes into as well as the pull (upserts by id; a read mark only ever
 * rises here), and the local `chatState` (the chat/info answer, the read mark not yet sent) and
 * `chatImages` (images kept as data: URLs for offline reading). Only the worker writes; every row
 * is parsed on the way out (STYLE rule 5). `MemoryChatStore` is the in-memory twin for tests.
 */
import { z } from 'zod';
import {
  chatInfoDataSchema,
  chatMessageSchema,
  chatReadsRecordSchema,
  type ChatInfoData,
  type ChatMessage,
  type ChatReadsRecord,
} from '../../contract/api/chat.js';
import { isoTimeSchema } from '../../contract/schema.js';
import { userDbHandles } from './handles.js';

/** Images kept per user; beyond it the oldest fetched go (they are read again when shown online). */
export const CHAT_IMAGES_KEPT = 200;

const readMarkSchema = z.object({ seq: z.number().int().min(0), sentSeq: z.number().int().min(0) });
/** The customer's read mark on this device: what the room showed (`seq`) and what the server took (`sentSeq`). */
export type LocalReadMark = z.infer<typeof readMarkSchema>;

export const keptInfoSchema = z.object({ info: chatInfoDataSchema, fetchedAt: isoTimeSchema });
export type KeptChatInfo = z.infer<typeof keptInfoSchema>;

export interface ReadMarks {
  customerReadSeq?: number;
  agentReadSeq?: number;
  lastSeq?: number;
}

/** Everything the worker's chat parts keep. Each method may throw a storage error. */
export interface ChatStore {
  heldSeqs(userId: string): Promise<number[]>;
  /** The lowest seq held (0: none). */
  lowestSeq(userId: string): Promise<number>;
  putMessages(userId: string, messages: readonly ChatMessage[]): Promise<void>;
  raiseReads(userId: string, marks: ReadMarks): Promise<void>;
  reads(userId: string): Promise<ChatReadsRecord | null>;
  readMark(userId: string): Promise<LocalReadMark>;
  putReadMark(userId: string, mark: LocalReadMark): Promise<void>;
  info(userId: string): Promise<KeptChatInfo | null>;
  putInfo(userId: string, kept: KeptChatInfo): Promise<void>;
  image(userId: string, url: string): Promise<string | null>;
  putImage(userId: string, url: string, dataUrl: string, atMs: number): Promise<void>;
}

/** The read marks raised to `marks` (never lowered). Pure. */
export function raisedReads(
  current: ChatReadsRecord | null,
  userId: string,
  marks: ReadMarks,
  nowIso: string,
): ChatReadsRecord {
  const base = current ?? { id: userId, customerReadSeq: 0, agentReadSeq: 0, lastSeq: 0, updatedAt: nowIso };
  return {
    id: userId,
    customerReadSeq: Math.max(base.customerReadSeq, marks.customerReadSeq ?? 0),
    agentReadSeq: Math.max(base.agentReadSeq, marks.agentReadSeq ?? 0),
    lastSeq: Math.max(base.lastSeq, marks.lastSeq ?? 0),
    updatedAt: nowIso,
  };
}

const parsedReads = (row: unknown): ChatReadsRecord | null => {
  const parsed = chatReadsRecordSchema.safeParse(row);
  return parsed.success ? parsed.data : null;
};

const NO_MARK: LocalReadMark = { seq: 0, sentSeq: 0 };

/** Over IndexedDB, one handle per user database, replaced once Dexie closed it (logout deletes it). */
export class DexieChatStore implements ChatStore {
  private readonly db = userDbHandles();

  constructor(private readonly now: () => Date = () => new Date()) {}

  async heldSeqs(userId: string): Promise<number[]> {
    const keys = await this.db(userId).table('chat_messages').orderBy('seq').keys();
    return keys.filter((key): key is number => typeof key === 'number');
  }

  async lowestSeq(userId: string): Promise<number> {
    const first: unknown = await this.db(userId).table('chat_messages').orderBy('seq').first();
    const parsed = chatMessageSchema.safeParse(first);
    return parsed.success ? parsed.data.seq : 0;
  }

  async putMessages(userId: string, messages: readonly ChatMessage[]): Promise<void> {
    if (messages.length > 0)
      await this.db(userId)
        .table('chat_messages')
        .bulkPut([...messages]);
  }

  async raiseReads(userId: string, marks: ReadMarks): Promise<void> {
    const db = this.db(userId);
    const table = db.table('chat_reads');
    await db.transaction('rw', table, async () => {
      const current = parsedReads(await table.get(userId));
      await table.put(raisedReads(current, userId, marks, this.now().toISOString()));
    });
  }

  async reads(userId: string): Promise<ChatReadsRecord | null> {
    return parsedReads(await this.db(userId).table('chat_reads').get(userId));
  }

  async readMark(userId: string): Promise<LocalReadMark> {
    const row = await this.db(userId).chatState.get('read');
    const parsed = readMarkSchema.safeParse(row?.data);
    return parsed.success ? parsed.data : NO_MARK;
  }

  async putReadMark(userId: string, mark: LocalReadMark): Promise<void> {
    await this.db(userId).chatState.put({ id: 'read', data: mark, at: this.now().toISOString() });
  }

  async info(userId: string): Promise<KeptChatInfo | null> {
    const row = await this.db(userId).chatState.get('info');
    const parsed = keptInfoSchema.safeParse(row?.data);
    return parsed.success ? parsed.data : null;
  }

  async putInfo(userId: string, kept: KeptChatInfo): Promise<void> {
    await this.db(userId).chatState.put({ id: 'info', data: kept, at: kept.fetchedAt });
  }

  async image(userId: string, url: string): Promise<string | null> {
    const row = await this.db(userId).chatImages.get(url);
    return typeof row?.dataUrl === 'string' && row.dataUrl.startsWith('data:image/') ? row.dataUrl : null;
  }

  async putImage(userId: string, url: string, dataUrl: string, atMs: number): Promise<void> {
    const db = this.db(userId);
    await db.transaction('rw', db.chatImages, async () => {
      await db.chatImages.put({ url, dataUrl, fetchedAtMs: atMs });
      const count = await db.chatImages.count();
      if (count > CHAT_IMAGES_KEPT) {
        const oldest = await db.chatImages
          .orderBy('fetchedAtMs')
          .limit(count - CHAT_IMAGES_KEPT)
          .primaryKeys();
        await db.chatImages.bulkDelete(oldest);
      }
    });
  }
}

/** The in-memory twin: the same promises, no IndexedDB. */
export class MemoryChatStore implements ChatStore {
  readonly messages = new Map<string, Map<string, ChatMessage>>();
  private readonly readRows = new Map<string, ChatReadsRecord>();
  private readonly marks = new Map<string, LocalReadMark>();
  private readonly infos = new Map<string, KeptChatInfo>();
  private readonly images = new Map<string, string>();
  /** Every message write, in order (a test counts doubles with it). */
  readonly writes: ChatMessage[] = [];

  private of(userId: string): Map<string, ChatMessage> {
    let map = this.messages.get(userId);
    if (map === undefined) {
      map = new Map();
      this.messages.set(userId, map);
    }
    return map;
  }

  async heldSeqs(userId: string): Promise<number[]> {
    return [...this.of(userId).values()].map((message) => message.seq).sort((a, b) => a - b);
  }

  async lowestSeq(userId: string): Promise<number> {
    return (await this.heldSeqs(userId))[0] ?? 0;
  }

  async putMessages(userId: string, messages: readonly ChatMessage[]): Promise<void> {
    for (const message of messages) {
      this.of(userId).set(message.id, structuredClone(message));
      this.writes.push(message);
    }
  }

  async raiseReads(userId: string, marks: ReadMarks): Promise<void> {
    this.readRows.set(
      userId,
      raisedReads(this.readRows.get(userId) ?? null, userId, marks, new Date(0).toISOString()),
    );
  }

  async reads(userId: string): Promise<ChatReadsRecord | null> {
    return this.readRows.get(userId) ?? null;
  }

  async readMark(userId: string): Promise<LocalReadMark> {
    return this.marks.get(userId) ?? NO_MARK;
  }

  async putReadMark(userId: string, mark: LocalReadMark): Promise<void> {
    this.marks.set(userId, { ...mark });
  }

  async info(userId: string): Promise<KeptChatInfo | null> {
    return this.infos.get(userId) ?? null;
  }

  async putInfo(userId: string, kept: KeptChatInfo): Promise<void> {
    this.infos.set(userId, structuredClone(kept));
  }

  async image(userId: string, url: string): Promise<string | null> {
    return this.images.get(`${userId}|${url}`) ?? null;
  }

  async putImage(userId: string, url: string, dataUrl: string): Promise<void> {
    this.images.set(`${userId}|${url}`, dataUrl);
  }
}

export type { ChatInfoData };
