/** What every feature's handler map is built from. */
import type { ApiClient } from '../api-client.js';
import type { SessionStore } from '../session.js';

export interface HandlerDeps {
  api: ApiClient;
  session: SessionStore;
  /** A new Idempotency-Key (a UUID), made once per user action. */
  newIdempotencyKey: () => string;
}
