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

/**
 * Every relative import of a file, resolved to a path from the repository's root. `valuesOnly`
 * leaves out `import type` / `export type` (erased from the build: no module loaded at run time).
 */
function importsOf(file: string, valuesOnly = false): string[] {
  let text = fs.readFileSync(path.join(root, file), 'utf8');
  if (valuesOnly) text = text.replace(/(?:import|export)\s+type\s[^'"]*?from\s+'[^']+'/g, '');
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g),
  ];
  return specifiers
    .map((match) => match[1] ?? match[2] ?? '')
    .map((specifier) => path.relative(root, path.resolve(path.dirname(path.join(root, file)), specifier)));
}

function offenders(folder: string, forbidden: (target: string) => boolean, valuesOnly = false): string[] {
  return sourceFiles(folder).flatMap((file) =>
    importsOf(file, valuesOnly)
      .filter(forbidden)
      .map((target) => `${file} -> ${target}`),
  );
}

const under =
  (...folders: string[]) =>
  (target: string) =>
    folders.some((folder) => target === folder || target.startsWith(`${folder}/`));

/** The source file an import resolves to (`.js` -> `.ts`/`.tsx`, a folder -> its index), or null. */
function resolved(target: string): string | null {
  const stem = target.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`, target]) {
    if (fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()) {
      return candidate;
    }
  }
  return null;
}

/** Every import circle over the given folders, each as `a -> b -> ... -> a` (a DFS). */
function circles(folders: string[]): string[] {
  const files = folders.flatMap(sourceFiles);
  const edges = new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .map(resolved)
        .filter((target): target is string => target !== null),
    ]),
  );
  const found: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string): void => {
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (onStack.has(next)) found.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!done.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of files) if (!done.has(file)) visit(file);
  return found;
}

describe('layers', () => {
  test('no import circle in contract, sync, worker, src, admin or server', () => {
    expect(circles(['contract', 'sync', 'worker', 'src', 'admin', 'server'])).toEqual([]);
  });

  test('contract/ imports nothing of the client or the server', () => {
    expect(offenders('contract', under('src', 'admin', 'worker', 'sync', 'server'))).toEqual([]);
  });

  test('the operator console (admin/) stands on contract/ alone, and the customer app never loads it', () => {
    expect(offenders('admin', under('src', 'worker', 'sync', 'client-db', 'server'))).toEqual([]);
    for (const folder of ['src', 'worker', 'sync', 'client-db'])
      expect(offenders(folder, under('admin'))).toEqual([]);
  });

  test('the sync engine does not import the worker or the UI (worker -> sync -> contract)', () => {
    expect(offenders('sync', under('worker', 'src', 'server'))).toEqual([]);
  });

  test('the worker does not reach into the UI', () => {
    expect(offenders('worker', under('src', 'server'))).toEqual([]);
  });

  test('the UI imports only types from the worker (the `Handlers` it calls through comlink)', () => {
    expect(offenders('src', under('worker'), true)).toEqual([]);
  });

  test('client-db/ (every Dexie database) sits below the worker, the engine and the UI', () => {
    expect(offenders('client-db', under('src', 'server'))).toEqual([]);
    // The outbox table holds the engine's records, typed by the worker's command list for the
    // UI's read handles: their types only, never the engine's or the worker's code.
    expect(offenders('client-db', under('sync', 'worker'), true)).toEqual([]);
  });

  test("client-db's React read handles are the UI's alone", () => {
    const readHandle = (target: string) => /^client-db\/use-[^/]+\.js$/.test(target);
    expect(offenders('worker', readHandle)).toEqual([]);
    expect(offenders('sync', readHandle)).toEqual([]);
  });

  test('only client-db/ declares a Dexie database or its versions', () => {
    const declaring = ['src', 'worker', 'sync'].flatMap((folder) =>
      sourceFiles(folder).filter((file) =>
        /new Dexie\(|\.version\(/.test(fs.readFileSync(path.join(root, file), 'utf8')),
      ),
    );
    expect(declaring).toEqual([]);
  });

  test('services, the ledger, repositories and jobs do not know HTTP', () => {
    for (const folder of ['server/services', 'server/ledger', 'server/repositories', 'server/jobs']) {
      expect(offenders(folder, under('server/http', 'server/routes'))).toEqual([]);
    }
  });

  test('the ledger calls no service', () => {
    expect(offenders('server/ledger', under('server/services'))).toEqual([]);
  });

  test('server/db (the schema and the connection) imports nothing above it', () => {
    expect(
      offenders(
        'server/db',
        under(
          'server/core',
          'server/services',
          'server/repositories',
          'server/ledger',
          'server/jobs',
          'server/http',
          'server/routes',
        ),
      ),
    ).toEqual([]);
  });

  test('services do not call jobs (jobs call services)', () => {
    expect(offenders('server/services', under('server/jobs'))).toEqual([]);
  });

  test('routes do not reach the database (the service container lives with the services)', () => {
    expect(offenders('server/routes', under('server/db'))).toEqual([]);
  });

  test("only server/ledger (and the schema) names the ledger's book tables", () => {
    const ledgerTable = /\bledger_(balances|transfers|holds)\b|\bledger(Balances|Transfers|Holds)\b/;
    const namers = sourceFiles('server')
      .filter((file) => !under('server/ledger', 'server/db/schema')(file) && file !== 'server/db/schema.ts')
      .filter((file) => ledgerTable.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(namers).toEqual([]);
  });

  test('the CLI calls services (as the cli caller), never a repository, the database or the ledger', () => {
    expect(offenders('server/cli', under('server/repositories', 'server/db', 'server/ledger'))).toEqual([]);
  });

  test('no service method is a CLI twin of an admin one (the CLI calls the same methods)', () => {
    const twins = sourceFiles('server/services').filter((file) =>
      /\b\w*(FromCli|ForCli)\s*\(/i.test(fs.readFileSync(path.join(root, file), 'utf8')),
    );
    expect(twins).toEqual([]);
  });

  test('route lists do not import the table that registers them', () => {
    expect(offenders('server/routes', (target) => target === 'server/routes/index.js')).toEqual([]);
  });

  test("the build-time drawing of the first page (React's static renderer) is no module of the app", () => {
    for (const folder of ['src', 'worker', 'sync', 'client-db', 'contract'])
      expect(offenders(folder, (target) => target === 'src/app/first-page-html.js')).toEqual([]);
  });

  test('pages do not import the route table that imports every page', () => {
    expect(offenders('src/features', (target) => target === 'src/app/routes.js')).toEqual([]);
  });
});
