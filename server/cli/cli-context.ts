/**
 * The request context of `npm run admin`: the `cli` caller (allowed what any operator is, audited
 * as `cli` or `cli:<name>`), English, no Idempotency-Key. The CLI calls the same service methods
 * as the admin API with it; only the caller differs.
 */
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../core/context.js';

/** A context for one CLI command; `name` is who runs it when the command says (`--as NAME`). */
export function cliContext(name: string | null = null): RequestContext {
  return {
    locale: 'en',
    ip: 'cli',
    requestId: randomUUID(),
    caller: { kind: 'cli', name },
    // Without a key nothing is stored, so no answer is ever rendered.
    idempotency: null,
    renderSuccess: (data) => JSON.stringify(data),
    renderError: (error) => JSON.stringify({ messageKey: error.messageKey }),
    answerText: undefined,
  };
}
