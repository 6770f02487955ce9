/** Spec section 4, "Update flow": which update the app offers for the version config it is given. */
import { describe, expect, test } from 'vitest';
import { APP_VERSION_CODE } from '../../contract/constants.js';
import { releaseOf } from '../../contract/release.js';
import { installedVersion, updatePlan } from '../../src/app/update.js';

const installed = { versionCode: 10020, hotVersionCode: 10020 };
const offered = (version_code: number, hot_version_code: number) => ({
  version_code,
  hot_version_code,
  package_url: '/#/pages/download/download',
  hot_package_url: '/',
});

describe('spec section 4: the update flow', () => {
  test('no update unless the hot version is newer than the installed one', () => {
    expect(updatePlan(installed, offered(10020, 10020))).toBeNull();
    expect(updatePlan(installed, offered(10020, 10019))).toBeNull();
    // A newer full version alone does not offer an update: the hot version decides.
    expect(updatePlan(installed, offered(10030, 10020))).toBeNull();
  });

  test('a newer hot version offers a forced update with the hot package', () => {
    expect(updatePlan(installed, offered(10020, 10021))).toEqual({ kind: 'hot', hotVersionCode: 10021 });
  });

  test('the full package is used when the full version is also newer', () => {
    expect(updatePlan(installed, offered(10021, 10021))).toEqual({
      kind: 'full',
      hotVersionCode: 10021,
      url: '/#/pages/download/download',
    });
  });

  test('the installed hot version is the one the build stamped into its shell, else the app version code', () => {
    expect(installedVersion('10025')).toEqual({ versionCode: APP_VERSION_CODE, hotVersionCode: 10025 });
    expect(installedVersion(null).hotVersionCode).toBe(APP_VERSION_CODE);
    expect(installedVersion('not a number').hotVersionCode).toBe(APP_VERSION_CODE);
  });

  test('a build takes its hot version from COFFER_HOT_VERSION_CODE, never below the app version code', () => {
    expect(releaseOf(undefined)).toEqual({
      version: '1.0.20',
      version_code: APP_VERSION_CODE,
      hot_version_code: APP_VERSION_CODE,
    });
    expect(releaseOf('10031').hot_version_code).toBe(10031);
    expect(() => releaseOf('10019')).toThrow();
    expect(() => releaseOf('abc')).toThrow();
  });
});
