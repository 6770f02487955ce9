/** Public configuration reads (/api/v1/common); no token needed. */
import { configDataSchema, langDataSchema, versionDataSchema } from '../../contract/api/common.js';
import type { HandlerDeps } from './deps.js';

export function commonHandlers({ api }: HandlerDeps) {
  return {
    async 'common-config'() {
      return api.read('/api/v1/common/config', configDataSchema);
    },
    async 'common-lang'() {
      return api.read('/api/v1/common/lang', langDataSchema);
    },
    async 'common-version'() {
      return api.read('/api/v1/common/version', versionDataSchema);
    },
  };
}
