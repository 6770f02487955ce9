import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'data/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['tests/global-setup.ts'],
    // Two files at a time even on two cores (vitest's default there is one): most of a file's
    // time is spent waiting on its servers, PostgreSQL or Chromium, so the suite takes about
    // half as long (about 10 minutes here rather than 17).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
