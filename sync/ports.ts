/**
 * What the sync engine needs from whoever runs it, declared here so the dependency runs one way
 * (worker -> sync -> contract): the worker's API client and session store satisfy these shapes
 * and are plugged in by `worker/handlers/index.ts`. Nothing here may import from `worker/`.
 */
import type { z } from 'zod';
import type { Locale } from '../contract/locales.js';

/**
 * What a call came to.
 * - `ok`: HTTP 2xx and body code 200, `data` parsed with the call's schema.
 * - `refused`: a well-formed answer with any other body code (460 included); `data` as sent.
 * - `transport`: no valid answer. `status` is null when nothing came back (network failure or
 *   the 60 s timeout); otherwise it is the HTTP status: outside 200-299, or 2xx with a body that
 *   does not parse.
 */
export type Outcome<T> =
  | { kind: 'ok'; message: string; data: T }
  | { kind: 'refused'; code: number; message: string; data: unknown }
  | { kind: 'transport'; status: number | null; message: string };

export interface CommandOptions {
  /** Made when the user acted; every retry reuses it. */
  idempotencyKey: string;
  /** Overrides the stored token (logout sends the token it has just cleared). */
  token?: string | null;
}

/** The engine's view of the API: POSTs with an Idempotency-Key, retried as CONTRACT.md says. */
export interface SyncApi {
  /** A command (POST with an Idempotency-Key); never throws, every failure is an Outcome. */
  command<T>(
    uri: string,
    data: z.ZodType<T>,
    params: Record<string, unknown>,
    options: CommandOptions,
  ): Promise<Outcome<T>>;
}

/** The part of a stored session the engine reads. */
export interface SyncSession {
  token: string;
  userId: string;
}

/** Where the engine learns who is logged in. */
export interface SessionReader {
  /** The stored session, or null when logged out. */
  getSession(): Promise<SyncSession | null>;
}

/** What the uploader needs of the session: the language header, and forgetting a token a 401 refused. */
export interface UploaderSession {
  /** The locale the user chose, or null when none was ever chosen. */
  getLocale(): Promise<Locale | null>;
  /** Clears the session only if it still holds `token`. Atomic. */
  clearSessionIfToken(token: string): Promise<void>;
}

/**
 * The account each user selected on this device (`coffer-session`, written by the worker). The
 * engine pulls it first; `active-account.ts` says what counts when none is selected.
 */
export interface ActiveAccountStore {
  /** The account `userId` selected here, or null when none. */
  getActiveAccount(userId: string): Promise<string | null>;
  /** Replaces the selection of `userId`. */
  setActiveAccount(userId: string, accountId: string): Promise<void>;
  /** Forgets the selection of `userId` (logout). Idempotent. */
  clearActiveAccount(userId: string): Promise<void>;
}

/** The session store the engine runs on. */
export type SyncSessionStore = SessionReader & ActiveAccountStore;
