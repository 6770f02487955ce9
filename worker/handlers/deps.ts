/** What every feature's handler map is built from. */
import type { z } from 'zod';
import type { ApiClient } from '../api-client.js';
import type { SessionStore } from '../session.js';

export interface HandlerDeps {
  api: ApiClient;
  session: SessionStore;
  /** A new Idempotency-Key (a UUID), made once per user action. */
  newIdempotencyKey: () => string;
}

/**
 * Sends a command at once, never through the outbox (it carries a code or a password, or its page
 * needs the answer now), with a new Idempotency-Key made at the call: the request queue retries a
 * transport failure with that same key.
 */
export function commandNow({ api, newIdempotencyKey }: Pick<HandlerDeps, 'api' | 'newIdempotencyKey'>) {
  return <T>(uri: string, schema: z.ZodType<T>, params: Record<string, unknown>) =>
    api.command(uri, schema, params, { idempotencyKey: newIdempotencyKey() });
}
