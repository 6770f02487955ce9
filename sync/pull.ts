/**
 * Pull by cursor (CONTRACT.md "Sync"): asks `POST /api/v1/sync/pull` for the changes since each
 * stored cursor, parses the answer and every record (STYLE rule 5), and writes each database's
 * upserts, deletes and new cursors in one transaction. Loops while the server says `hasMore`,
 * up to a bound. Without a session only the public collections are asked for and written.
 *
 * Accounts: each page names one account (`accountId`) and writes its account-scoped collections
 * into that account's database only, with that database's cursors. Every page also carries the
 * public and user cursors and applies those collections (the server sends them anyway; a
 * missing cursor would mean "from the start"), so whichever pull carries them advances them,
 * guarded by the stored cursor each page was based on.
 */
import type { z } from 'zod';
import {
  cursorSchema,
  pullDataSchema,
  SYNC_COLLECTIONS,
  type CollectionName,
  type PullData,
} from '../contract/sync.js';
import { isoOf, type SyncClock } from './clock.js';
import type { Outcome, SessionReader, SyncApi } from './ports.js';
import type { CollectionPage, CursorState, SyncStorage, SyncStore } from './storage.js';

export const PULL_URI = '/api/v1/sync/pull';
/** Pages one `pull` asks for at most; the next pull (scheduled or asked) carries on. */
export const MAX_PULL_PAGES = 20;

export interface PullDeps {
  api: SyncApi;
  /** Only the session is read: the token goes with each call explicitly. */
  session: SessionReader;
  storage: SyncStorage;
  clock: SyncClock;
  /** A fresh key per request (see `requestPage`). */
  newKey: () => string;
  maxPages?: number;
  /** False when the device knows it is offline: the pull fails at once instead of retrying. */
  online?: () => boolean;
  /**
   * The account whose collections a page carries, asked before each page (so a pull that just
   * learnt the user's accounts names one on its next page). Null or absent: no `accountId` is
   * sent and the account-scoped collections of the answer are ignored.
   */
  account?: (userId: string) => Promise<string | null>;
}

/** A record the server sent that its collection's schema refused: dropped, not written. */
export interface DroppedRecord {
  collection: string;
  id: string | null;
  issue: string;
}

export type PullFailure =
  | { kind: 'refused'; code: number; message: string }
  | { kind: 'transport'; status: number | null; message: string }
  | { kind: 'storage'; message: string };

export interface PullSummary {
  /** done: every collection caught up; more: stopped at the page bound; failed: see `failure`. */
  status: 'done' | 'more' | 'failed';
  /** The user whose collections were pulled too; null for a public-only pull. */
  userId: string | null;
  /** The account the last page named; null when none. */
  accountId: string | null;
  pages: number;
  /** Records written and deleted, per collection, over every page. */
  applied: Partial<Record<CollectionName, { upserts: number; deletes: number }>>;
  dropped: DroppedRecord[];
  /** Collections the answer named that no database here holds (e.g. account-scoped ones). */
  ignored: string[];
  failure: PullFailure | null;
}

interface Target {
  store: SyncStore;
  cursors: Map<CollectionName, CursorState>;
}

/** The first issue of a failed parse, as `path: message`. */
function issueOf(error: z.ZodError): string {
  const [first] = error.issues;
  return first ? `${first.path.map(String).join('.') || 'record'}: ${first.message}` : 'invalid';
}

/** The pages of one answer for one database's collections; records that fail their schema are dropped. */
function pagesFor(target: Target, data: PullData, dropped: DroppedRecord[]): CollectionPage[] {
  const pages: CollectionPage[] = [];
  for (const name of target.store.collections) {
    const rawCursor = data.cursors[name];
    if (rawCursor === undefined) continue;
    const cursor = cursorSchema.safeParse(rawCursor);
    if (!cursor.success) {
      dropped.push({ collection: name, id: null, issue: `cursor: ${issueOf(cursor.error)}` });
      continue;
    }
    const changes = data.changes[name] ?? { upserts: [], deletes: [] };
    const upserts: Array<{ id: string }> = [];
    for (const raw of changes.upserts) {
      const record = SYNC_COLLECTIONS[name].record.safeParse(raw);
      if (record.success) upserts.push(record.data);
      else
        dropped.push({
          collection: name,
          id: typeof raw['id'] === 'string' ? raw['id'] : null,
          issue: issueOf(record.error),
        });
    }
    pages.push({
      name,
      basedOn: target.cursors.get(name)?.cursor ?? null,
      upserts,
      deletes: changes.deletes,
      cursor: cursor.data,
    });
  }
  return pages;
}

/** One page asked for: the databases and cursors it was asked from, and its answer to come. */
interface PageRequest {
  targets: Target[];
  accountId: string | null;
  /** The collections the databases of `targets` hold. */
  held: Set<string>;
  askedAt: number;
  answer: Promise<Outcome<PullData>>;
}

/**
 * Pulls until caught up or `maxPages` pages. Each database's page is applied atomically with
 * its cursors; a page another tab already applied is skipped and asked for again. A record that
 * fails its schema is dropped and reported, and its collection's cursor still advances (the
 * record comes again when it next changes). `syncedAt` is written only by the page that leaves
 * the collections caught up, with the time that page was asked for. Never throws: network,
 * refusal and storage failures come back in the summary (a failed page wrote nothing).
 *
 * While a page is checked and written, the next one is already asked for from the cursors the
 * page ends on (its `basedOn`), so the server, the transfer and the decryption of one page
 * overlap the IndexedDB transaction of the one before. That next page applies only where the
 * page before it did (the cursor guard), and it is dropped and asked again when that page raced
 * or failed. A pull that has not named an account yet asks page by page (the first page may
 * teach it the user's accounts, which the next page then carries).
 */
export async function pull(deps: PullDeps): Promise<PullSummary> {
  const session = await deps.session.getSession();
  const shared: SyncStore[] = [deps.storage.publicStore()];
  if (session !== null) shared.push(deps.storage.userStores(session.userId).sync);
  const summary: PullSummary = {
    status: 'done',
    userId: session?.userId ?? null,
    accountId: null,
    pages: 0,
    applied: {},
    dropped: [],
    ignored: [],
    failure: null,
  };
  const maxPages = deps.maxPages ?? MAX_PULL_PAGES;
  if (deps.online?.() === false)
    return failed(summary, { kind: 'transport', status: null, message: 'offline' });

  const ask = (targets: Target[], accountId: string | null): PageRequest => {
    const cursors: Partial<Record<CollectionName, string>> = {};
    for (const target of targets) {
      for (const [name, state] of target.cursors) if (state.cursor !== null) cursors[name] = state.cursor;
    }
    const askedAt = deps.clock.now();
    // The API client's `read` is a GET, whose query cannot carry the cursors object; a POST goes
    // through `command`. Read routes ignore the Idempotency-Key, so a fresh one per page is harmless.
    const answer = deps.api.command(
      PULL_URI,
      pullDataSchema,
      accountId === null ? { cursors } : { cursors, accountId },
      { idempotencyKey: deps.newKey(), token: session?.token ?? null },
    );
    const held = new Set<string>(targets.flatMap((target) => target.store.collections));
    return { targets, accountId, held, askedAt, answer };
  };

  let request: PageRequest | null = null;
  for (;;) {
    if (summary.pages >= maxPages) {
      summary.status = 'more';
      return summary;
    }
    if (request === null) {
      let accountId: string | null = null;
      const stores = [...shared];
      try {
        if (session !== null && deps.account !== undefined) accountId = await deps.account(session.userId);
        if (session !== null && accountId !== null)
          stores.push(deps.storage.accountStore(session.userId, accountId));
        const targets = await Promise.all(
          stores.map(async (store) => ({ store, cursors: await store.readCursors() })),
        );
        request = ask(targets, accountId);
      } catch (error) {
        return failed(summary, { kind: 'storage', message: messageOf(error) });
      }
    }
    const outcome: Outcome<PullData> = await request.answer;
    summary.pages++;
    summary.accountId = request.accountId;
    if (outcome.kind === 'refused')
      return failed(summary, { kind: 'refused', code: outcome.code, message: outcome.message });
    if (outcome.kind === 'transport')
      return failed(summary, { kind: 'transport', status: outcome.status, message: outcome.message });
    const data: PullData = outcome.data;
    for (const name of new Set([...Object.keys(data.changes), ...Object.keys(data.cursors)])) {
      if (!request.held.has(name) && !summary.ignored.includes(name)) summary.ignored.push(name);
    }
    const learning: boolean = session !== null && deps.account !== undefined && request.accountId === null;
    // Checked before the next page is asked for: it is asked from the cursors these pages end on.
    const written: Array<{ target: Target; pages: CollectionPage[] }> = request.targets.map((target) => ({
      target,
      pages: pagesFor(target, data, summary.dropped),
    }));
    const prefetched: PageRequest | null =
      data.hasMore && !learning && summary.pages < maxPages
        ? ask(written.map(afterPages), request.accountId)
        : null;
    const syncedAt = data.hasMore ? null : isoOf(request.askedAt);
    let raced = false;
    for (const { target, pages } of written) {
      try {
        const result = await target.store.applyPage(pages, syncedAt);
        raced ||= result.raced.length > 0;
        for (const page of pages) {
          if (!result.applied.includes(page.name)) continue;
          const counts = (summary.applied[page.name] ??= { upserts: 0, deletes: 0 });
          counts.upserts += page.upserts.length;
          counts.deletes += page.deletes.length;
        }
      } catch (error) {
        return failed(summary, { kind: 'storage', message: messageOf(error) });
      }
    }
    // A raced page left other cursors stored than the prefetched page was asked from.
    request = raced ? null : prefetched;
    if (!data.hasMore && !raced) {
      // A first pull learns the user's accounts on this page: one more page carries the active one's.
      if (learning && session !== null && deps.account !== undefined) {
        const learnt = await deps.account(session.userId).catch(() => null);
        if (learnt !== null) continue;
      }
      return summary;
    }
  }
}

/** A database with the cursors its pages end on, to ask for the next page before they are written. */
function afterPages({ target, pages }: { target: Target; pages: readonly CollectionPage[] }): Target {
  const cursors = new Map(target.cursors);
  for (const page of pages) {
    cursors.set(page.name, {
      cursor: page.cursor,
      syncedAt: target.cursors.get(page.name)?.syncedAt ?? null,
    });
  }
  return { store: target.store, cursors };
}

function failed(summary: PullSummary, failure: PullFailure): PullSummary {
  summary.status = 'failed';
  summary.failure = failure;
  return summary;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
