/**
 * The project's folders, found from the project root (the nearest folder up from this file that
 * holds package.json), so the server finds its migrations, catalogues and the built app alike
 * when it runs from its TypeScript sources (`npm start`, through tsx) or compiled into build/
 * (`npm run build:server`, `npm run start:compiled`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the project, e.g. `projectPath('server', 'db', 'migrations')`. */
export const projectPath = (...parts: string[]) => path.join(projectRoot, ...parts);
