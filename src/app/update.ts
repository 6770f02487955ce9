/**
 * The app update check of spec section 4 through `/api/v1/common/version`: when the hot
 * version offered is newer than the installed one, a forced update is offered; it is the full
 * package (`package_url`) when the full version is newer too, else the hot package (the web
 * build, installed through the service worker). Checked at start and when the app comes back
 * to the foreground, at most every few minutes.
 */
import { useEffect, useState } from 'react';
import { APP_VERSION_CODE, HOT_VERSION_META } from '../../contract/constants.js';
import { send } from './worker-client.js';

/** The first check waits this long, so it never competes with the first paint. */
export const FIRST_CHECK_DELAY_MS = 3_000;
/** A new check waits at least this long after the last one. */
export const UPDATE_CHECK_INTERVAL_MS = 10 * 60 * 1000;
/** The offered hot version this tab already reloaded for (a failed update never loops). */
const RELOADED_FOR_KEY = 'coffer-update-reloaded-for';

/** What `/api/v1/common/version` answers. */
export interface OfferedVersion {
  version_code: number;
  hot_version_code: number;
  package_url: string;
  hot_package_url: string;
}

export interface InstalledVersion {
  versionCode: number;
  hotVersionCode: number;
}

export type UpdatePlan =
  { kind: 'hot'; hotVersionCode: number } | { kind: 'full'; hotVersionCode: number; url: string };

/** Spec section 4's rule: no update unless the hot version is newer; full if the full version is newer too. */
export function updatePlan(installed: InstalledVersion, offered: OfferedVersion): UpdatePlan | null {
  if (offered.hot_version_code <= installed.hotVersionCode) return null;
  if (offered.version_code > installed.versionCode)
    return { kind: 'full', hotVersionCode: offered.hot_version_code, url: offered.package_url };
  return { kind: 'hot', hotVersionCode: offered.hot_version_code };
}

/**
 * The running shell's version: the app's code, and the hot code its build stamped into the
 * shell's meta tag (the app's code where there is none or it does not read).
 */
export function installedVersion(
  stamped: string | null | undefined = document
    .querySelector(`meta[name="${HOT_VERSION_META}"]`)
    ?.getAttribute('content'),
): InstalledVersion {
  const hot = Number(stamped);
  return {
    versionCode: APP_VERSION_CODE,
    hotVersionCode: stamped && Number.isInteger(hot) && hot > 0 ? hot : APP_VERSION_CODE,
  };
}

/** Remembers that this tab reloads to install `hotVersionCode`. */
export function noteReloadFor(hotVersionCode: number): void {
  sessionStorage.setItem(RELOADED_FOR_KEY, String(hotVersionCode));
}

/** Asks the server (through the worker) for the update config; 'unreachable' offline or on any failure. */
async function check(): Promise<UpdatePlan | null | 'unreachable'> {
  const answer = await send('common-version').catch(() => null);
  if (answer === null || answer.kind !== 'ok') return 'unreachable';
  const plan = updatePlan(installedVersion(), answer.data);
  // Reloaded for this very version and still older: the install did not take; do not loop.
  if (plan !== null && sessionStorage.getItem(RELOADED_FOR_KEY) === String(plan.hotVersionCode)) return null;
  return plan;
}

/** The update on offer, checked at start and on coming back to the foreground. */
export function useUpdateCheck(): UpdatePlan | null {
  const [plan, setPlan] = useState<UpdatePlan | null>(null);
  useEffect(() => {
    let live = true;
    let lastCheck = 0;
    const run = () => {
      if (Date.now() - lastCheck < UPDATE_CHECK_INTERVAL_MS) return;
      lastCheck = Date.now();
      void check().then((found) => {
        if (found === 'unreachable')
          lastCheck = 0; // ask again at the next chance
        else if (live && found !== null) setPlan(found);
      });
    };
    const visible = () => {
      if (document.visibilityState === 'visible') run();
    };
    const first = setTimeout(run, FIRST_CHECK_DELAY_MS);
    document.addEventListener('visibilitychange', visible);
    window.addEventListener('online', run);
    return () => {
      live = false;
      clearTimeout(first);
      document.removeEventListener('visibilitychange', visible);
      window.removeEventListener('online', run);
    };
  }, []);
  return plan;
}
