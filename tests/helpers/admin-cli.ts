/**
 * The admin CLI (`server/cli/admin.ts`) run as an operator runs it, on a data folder of the test's
 * own: a cheap scrypt cost and the invite code CLIROOT1. A non-zero exit rejects with the child's
 * `code` and `stderr`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type AdminCli = (...args: string[]) => Promise<{ stdout: string; stderr: string }>;

/** The CLI on `dataDir`: `admin('ledger', 'check')` resolves to its stdout and stderr. */
export function adminCli(dataDir: string): AdminCli {
  return (...args) =>
    run(path.resolve('node_modules/.bin/tsx'), ['server/cli/admin.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, COFFER_SCRYPT_COST: '4', COFFER_ROOT_INVITE: 'CLIROOT1' },
    });
}

/** Runs `body` with the CLI on a new data folder named from `prefix`, removed afterwards. */
export async function withAdminCli(
  prefix: string,
  body: (admin: AdminCli, dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    await body(adminCli(dataDir), dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
