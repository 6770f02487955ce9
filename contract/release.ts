/**
 * The web release (spec section 4, "Update flow"): each client build stamps its hot version code
 * into its shell (a meta tag, so the installed shell knows its own version) and into a release
 * file beside it, which the server reads to answer `/api/v1/common/version`. A build's hot code
 * comes from `COFFER_HOT_VERSION_CODE` (raise it for every deployed web build), defaulting to
 * the app's version code.
 */
import { z } from 'zod';
import { APP_VERSION, APP_VERSION_CODE } from './constants.js';

export { HOT_VERSION_META, RELEASE_FILE } from './constants.js';

export const releaseSchema = z.object({
  version: z.string(),
  version_code: z.number().int(),
  hot_version_code: z.number().int().min(APP_VERSION_CODE),
});
export type Release = z.infer<typeof releaseSchema>;

/** The release a build describes, from `COFFER_HOT_VERSION_CODE` (unset: the app's own code). */
export function releaseOf(hotVersionCode: string | undefined): Release {
  const hot =
    hotVersionCode === undefined || hotVersionCode === '' ? APP_VERSION_CODE : Number(hotVersionCode);
  return releaseSchema.parse({ version: APP_VERSION, version_code: APP_VERSION_CODE, hot_version_code: hot });
}
