/**
 * What every handler calls: a read or a command with the stored token and language filled in,
 * sent through the one RequestQueue. A 401 on a call made with a token clears that session
 * (spec section 8: the UI sees it disappear and relaunches at login).
 */
import type { z } from 'zod';
import { BodyCode } from '../contract/codes.js';
import { DEFAULT_LOCALE, headerCodeOf } from '../contract/locales.js';
import type { Outcome, SyncApi } from '../sync/ports.js';
import type { RequestQueue } from './queue.js';
import type { SessionStore } from './session.js';

export type { CommandOptions } from '../sync/ports.js';

/** The sync engine's `SyncApi` (commands), plus reads. */
export interface ApiClient extends SyncApi {
  /** A read (GET), shared with identical reads within the debounce window. */
  read<T>(uri: string, data: z.ZodType<T>, params?: Record<string, unknown>): Promise<Outcome<T>>;
}

export function createApiClient(queue: RequestQueue, session: SessionStore): ApiClient {
  async function settle<T>(token: string | null, outcome: Outcome<T>): Promise<Outcome<T>> {
    if (outcome.kind === 'refused' && outcome.code === BodyCode.notLoggedIn && token !== null) {
      await session.clearSessionIfToken(token);
    }
    return outcome;
  }
  async function lang(): Promise<string> {
    return headerCodeOf((await session.getLocale()) ?? DEFAULT_LOCALE);
  }
  return {
    async read(uri, data, params = {}) {
      const token = await session.getToken();
      const outcome = await queue.run({ method: 'GET', uri, params, data, token, lang: await lang() });
      return settle(token, outcome);
    },
    async command(uri, data, params, options) {
      const token = options.token !== undefined ? options.token : await session.getToken();
      const outcome = await queue.run({
        method: 'POST',
        uri,
        params,
        data,
        token,
        lang: await lang(),
        idempotencyKey: options.idempotencyKey,
      });
      return settle(token, outcome);
    },
  };
}
