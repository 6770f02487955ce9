import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'data/**'],
    // A bound on a stuck test, not a speed check: a test that starts two servers of its own took
    // more than 30 s on a loaded 2-core machine (speed is measured by bench/, never here).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's bound, also on a stuck wait rather than speed: vitest's default of 1 s was shorter
    // than one operator action's round trip (a step-up, then the action, then the table) under a
    // fresh-clone CI run's load; a poll that meets its value returns at once either way.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    globalSetup: ['tests/global-setup.ts'],
    // Two files at a time even on two cores (vitest's default there is one): most of a file's
    // time is spent waiting on its servers, PostgreSQL or Chromium, so the suite takes about
    // half as long (about 10 minutes here rather than 17).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
