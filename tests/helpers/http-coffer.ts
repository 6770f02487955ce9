/** A Coffer listening on loopback over real HTTP, mailing through a real SMTP server (tests/helpers/smtp.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type CofferServer } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openTestDatabase } from './database.js';

export interface HttpCoffer {
  server: CofferServer;
  base: string;
  dataDir: string;
  /** Closes the server and removes its data folder. */
  close(): Promise<void>;
}

/**
 * Starts Coffer on PGlite in a fresh data folder, on a free loopback port, with `rootInvite` and
 * fast password hashing; `env` adds or overrides configuration, `distDir` is the app it serves.
 */
export async function startHttpCoffer(options: {
  smtpPort: number;
  rootInvite: string;
  env?: Record<string, string>;
  distDir?: string;
}): Promise<HttpCoffer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-http-'));
  const config = loadConfig({
    SMTP_URL: `smtp://127.0.0.1:${options.smtpPort}`,
    DATA_DIR: dataDir,
    COFFER_ROOT_INVITE: options.rootInvite,
    COFFER_SCRYPT_COST: '4',
    COFFER_JOBS: 'off',
    COFFER_DEMO: 'off',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const server = await createServer({
    config,
    database: await openTestDatabase('pglite'),
    logger: false,
    ...(options.distDir === undefined ? {} : { distDir: options.distDir }),
  });
  const close = async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await close();
    throw error;
  }
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('Coffer has no TCP address');
  return { server, base: `http://127.0.0.1:${address.port}`, dataDir, close };
}
