/** The logged-in user's own data (/api/v1/user). */
import { userInfoSchema } from '../../contract/api/user.js';
import type { HandlerDeps } from './deps.js';

export function userHandlers({ api }: HandlerDeps) {
  return {
    /** The caller's full profile; a 401 clears the stored session. */
    async 'user-info'() {
      return api.read('/api/v1/user/info', userInfoSchema);
    },
  };
}
