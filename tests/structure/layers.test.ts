/**
 * The layering (ARCHITECTURE.md, STYLE.md): each folder imports only the layers below it, so no
 * import circle can come back unnoticed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file))
    .map((file) => path.join(folder, file));
}

/** Every relative import of a file, resolved to a path from the repository's root. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g),
  ];
  return specifiers
    .map((match) => match[1] ?? match[2] ?? '')
    .map((specifier) => path.relative(root, path.resolve(path.dirname(path.join(root, file)), specifier)));
}

function offenders(folder: string, forbidden: (target: string) => boolean): string[] {
  return sourceFiles(folder).flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((target) => `${file} -> ${target}`),
  );
}

const under =
  (...folders: string[]) =>
  (target: string) =>
    folders.some((folder) => target === folder || target.startsWith(`${folder}/`));

describe('layers', () => {
  test('contract/ imports nothing of the client or the server', () => {
    expect(offenders('contract', under('src', 'worker', 'sync', 'server'))).toEqual([]);
  });

  test('the sync engine does not import the worker or the UI (worker -> sync -> contract)', () => {
    expect(offenders('sync', under('worker', 'src', 'server'))).toEqual([]);
  });

  test('the worker does not reach into the UI', () => {
    expect(offenders('worker', under('src', 'server'))).toEqual([]);
  });

  test('services, the ledger, repositories and jobs do not know HTTP', () => {
    for (const folder of ['server/services', 'server/ledger', 'server/repositories', 'server/jobs']) {
      expect(offenders(folder, under('server/http', 'server/routes'))).toEqual([]);
    }
  });

  test('the ledger calls no service', () => {
    expect(offenders('server/ledger', under('server/services'))).toEqual([]);
  });

  test('route lists do not import the table that registers them', () => {
    expect(offenders('server/routes', (target) => target === 'server/routes/index.js')).toEqual([]);
  });

  test('pages do not import the route table that imports every page', () => {
    expect(offenders('src/features', (target) => target === 'src/app/routes.js')).toEqual([]);
  });
});
