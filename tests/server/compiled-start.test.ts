/**
 * The API compiled to JavaScript (`npm run build:server`, what production runs with
 * `npm run start:compiled`): built with the project's tsc into a scratch folder inside the
 * project, it starts without tsx, migrates its database, answers in the user's language and
 * serves the client's run-time configuration.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const outDir = path.join(repoRoot, `.build-test-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-compiled-'));

describe('the compiled server', () => {
  beforeAll(() => {
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    const built = spawnSync(tsc, ['-p', 'tsconfig.server.json', '--outDir', outDir], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(built.status, built.stdout + built.stderr).toBe(0);
  }, 180_000);

  afterAll(() => {
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('starts with plain node (no tsx), migrates, answers in Chinese and serves /client-config.json', async () => {
    const main = path.join(outDir, 'server', 'main.js');
    expect(fs.readFileSync(main, 'utf8')).not.toMatch(/from ['"][^'"]+\.ts['"]/);
    const child = spawn(process.execPath, [main], {
      cwd: os.tmpdir(), // the project's files are found from the code's own place, not the working folder
      env: {
        PATH: process.env['PATH'],
        PORT: '0',
        DATA_DIR: dataDir,
        COFFER_DEVNET: 'off',
        COFFER_CLIENT_BUILD: 'off',
        COFFER_SCRYPT_COST: '4',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line within 60 s:\n${output}`)), 60_000);
        const check = () => {
          const match = /Coffer is serving on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on('data', check);
        child.once('exit', () => reject(new Error(`exited before serving:\n${output}`)));
      });
      expect(output).toMatch(/Root invite code \(first start\): \w+/); // migrated and seeded
      const health = await fetch(`${origin}/api/health`);
      expect(health.status).toBe(200);
      const refused = await fetch(`${origin}/api/v1/sso/emailLogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', lang: 'CN' },
        body: JSON.stringify({ email: 'nobody@example.com' }),
      });
      const answer = (await refused.json()) as { code: number; message: string };
      expect(answer.code).toBe(400);
      expect(answer.message).toMatch(/[\u4e00-\u9fff]/); // the catalogues were found
      const config = await fetch(`${origin}/client-config.json`);
      expect(config.status).toBe(200);
      expect(await config.json()).toMatchObject({ transport: expect.any(String) as unknown });
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
