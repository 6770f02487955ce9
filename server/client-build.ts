/**
 * `npm start` builds the app when dist/ has none, in a child process, while the API already
 * answers (GET /api/health must come up within a minute on a fresh machine, whatever it builds).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { APP_VERSION_CODE } from '../contract/constants.js';
import { RELEASE_FILE, releaseSchema } from '../contract/release.js';

/** Starts `vite build` unless dist/index.html exists; resolves at once, logs when done. */
export function buildClientIfMissing(rootDir: string, log: (line: string) => void): void {
  if (fs.existsSync(path.join(rootDir, 'dist', 'index.html'))) return;
  const vite = path.join(rootDir, 'node_modules', '.bin', 'vite');
  if (!fs.existsSync(vite)) {
    log('dist/ is missing and vite is not installed: run `npm install && npm run build` to serve the app');
    return;
  }
  log('Building the app into dist/ (first start); the API is already up');
  const child = spawn(vite, ['build', '--logLevel', 'warn'], {
    cwd: rootDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code) =>
    log(
      code === 0
        ? 'The app is built: open the address above'
        : `The app build failed (exit ${code}); see above`,
    ),
  );
}

/**
 * The hot version code of the build served from `distDir` (its release file, read on each call
 * so a deployment in place is seen at once); the app's own code when there is no valid file.
 */
export async function servedHotVersionCode(distDir: string): Promise<number> {
  try {
    const text = await fs.promises.readFile(path.join(distDir, RELEASE_FILE), 'utf8');
    return releaseSchema.parse(JSON.parse(text)).hot_version_code;
  } catch {
    return APP_VERSION_CODE;
  }
}
