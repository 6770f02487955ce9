/**
 * Vitest's global setup: one private PostgreSQL cluster per worker (tests/helpers/pg-cluster.ts),
 * so files running at once never share a server. They must not: a pull delivers changes only
 * below the oldest transaction still running on the server (the sync horizon, cluster-wide), so
 * another file's open transaction would hold back the change a test has just written. Each
 * worker finds its cluster through COFFER_TEST_PG_URLS and VITEST_POOL_ID
 * (tests/helpers/database.ts). With TEST_DATABASE_URL set, or without the server binaries, the
 * tests use that server (default 127.0.0.1:5432) as before, and the log says so. It also makes
 * the folder where the end-to-end files share their client builds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { clusterToolsMissing, PgCluster } from './helpers/pg-cluster.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const builds = shareClientBuilds();
  const clusters = await privateClusters(project);
  return () => {
    for (const cluster of clusters) cluster.destroy();
    fs.rmSync(builds, { recursive: true, force: true });
  };
}

/**
 * The folder where the end-to-end files share one production build of the client per build
 * environment (tests/e2e/harness.ts `clientBuild`), instead of each file building its own.
 */
function shareClientBuilds(): string {
  const builds = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-builds-'));
  process.env['COFFER_E2E_BUILDS'] = builds;
  return builds;
}

async function privateClusters(project: TestProject): Promise<PgCluster[]> {
  if (process.env['TEST_DATABASE_URL']) return [];
  const missing = clusterToolsMissing();
  if (missing) {
    console.warn(`[global setup] one shared PostgreSQL server for every worker: ${missing}`);
    return [];
  }
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const clusters = await Promise.all(
    Array.from({ length: workers }, () => PgCluster.create({ maxConnections: 300 })),
  );
  process.env['COFFER_TEST_PG_URLS'] = clusters.map((cluster) => cluster.url()).join(' ');
  console.info(
    `[global setup] a private PostgreSQL cluster per worker: ports ${clusters.map((c) => c.port).join(', ')}`,
  );
  return clusters;
}
