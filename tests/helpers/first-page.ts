/**
 * The JavaScript a build's first page (the login page) loads before it can show anything, read
 * from the built files alone: the entry `<script type=module>`, every `<link rel=modulepreload>`,
 * the login page's lazy chunk, and all that they import statically; the worker's chunks apart.
 * `npm run bench:client` prints it; tests/structure/first-page-size.test.ts holds it to
 * FIRST_PAGE_GZIP_BUDGET. Sizes are bytes, gzipped at level 9.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSize } from '../../bench/report.js';

/**
 * What the first page's initial JavaScript may weigh, gzipped (issue 26): `npm test` fails past it,
 * so a change that pulls a library into the login page is caught (a record schema once brought
 * zod and every contract in, 36 KB).
 */
export const FIRST_PAGE_GZIP_BUDGET = 120_000;

export interface Chunk {
  file: string;
  reason: string;
  raw: number;
  gzip: number;
}

/** The attributes of every `<tag ...>` in some HTML. */
export function tags(html: string, tag: string): Array<Record<string, string>> {
  const found: Array<Record<string, string>> = [];
  for (const match of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[1] ?? '').matchAll(
      /([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
    )) {
      const name = attribute[1];
      if (name) attributes[name.toLowerCase()] = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
    }
    found.push(attributes);
  }
  return found;
}

/** A path under `dist` for an URL in index.html or a specifier in a chunk (absolute from the site root, or relative). */
export function distPath(dist: string, reference: string, fromFile?: string): string | undefined {
  if (/^[a-z][a-z\d+.-]*:/i.test(reference) || reference.startsWith('//')) return undefined; // another origin
  const clean = reference.split(/[?#]/)[0] ?? reference;
  const resolved = clean.startsWith('/')
    ? path.join(dist, clean)
    : path.resolve(fromFile ? path.dirname(fromFile) : dist, clean);
  return resolved.startsWith(dist + path.sep) ? resolved : undefined;
}

/**
 * The static imports at the top of a rolldown chunk: `import{a as b}from"./x.js";`, `import"./y.js";`
 * and `export{...}from"./z.js"`, after an optional `const __vite__mapDeps=...` line (Vite's table for
 * preloading dynamic imports). `import(...)` is dynamic and is not followed.
 */
function staticImports(code: string): string[] {
  const statement =
    /\s*(?:\/\*[\s\S]*?\*\/|\/\/[^\n]*\n|(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*)(["'])([^"']+)\1\s*;?)/y;
  let position = code.startsWith('const __vite__mapDeps=') ? code.indexOf('\n') + 1 : 0;
  const specifiers: string[] = [];
  for (;;) {
    statement.lastIndex = position;
    const match = statement.exec(code);
    if (!match) break;
    if (match[2]) specifiers.push(match[2]);
    position = statement.lastIndex;
  }
  return specifiers;
}

/** The files reached from `roots` through static imports, each once, with why it is there. */
function closure(
  dist: string,
  roots: Array<{ file: string; reason: string }>,
  into: Map<string, Chunk>,
  notes: string[],
): void {
  const queue = [...roots];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { file, reason } = next;
    if (into.has(file)) continue;
    if (!fs.existsSync(file)) {
      notes.push(`missing: ${path.relative(dist, file)} (${reason})`);
      continue;
    }
    const content = fs.readFileSync(file);
    into.set(file, { file, reason, raw: content.length, gzip: gzipSize(content) });
    for (const specifier of staticImports(content.toString('utf8'))) {
      const target = distPath(dist, specifier, file);
      if (target) queue.push({ file: target, reason: `import of ${path.basename(file)}` });
    }
  }
}

export interface FirstPage {
  /** dist/index.html as measured. */
  html: string;
  /** Its `<link>` tags (the stylesheets among them). */
  links: Array<Record<string, string>>;
  files: Map<string, Chunk>;
  raw: number;
  gzip: number;
  workers: Map<string, Chunk>;
  /** What the reader should know: missing files, another build's chunks beside this one's. */
  notes: string[];
}

/** The first page's initial JavaScript and the worker's, from the build in `dist`. */
export function measureFirstPage(dist: string): FirstPage {
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) throw new Error(`${index} is missing: build the client first`);
  const html = fs.readFileSync(index, 'utf8');
  const notes: string[] = [];
  const files = new Map<string, Chunk>();
  const roots: Array<{ file: string; reason: string }> = [];
  for (const script of tags(html, 'script')) {
    const file = script['type'] === 'module' && script['src'] ? distPath(dist, script['src']) : undefined;
    if (file) roots.push({ file, reason: 'entry <script type=module>' });
  }
  if (roots.length === 0) throw new Error(`no <script type="module" src> in ${index}`);
  const links = tags(html, 'link');
  for (const link of links) {
    const rel = (link['rel'] ?? '').toLowerCase().split(/\s+/);
    const file = rel.includes('modulepreload') && link['href'] ? distPath(dist, link['href']) : undefined;
    if (file) roots.push({ file, reason: '<link rel=modulepreload>' });
  }
  closure(dist, roots, files, notes);

  const assets = path.join(dist, 'assets');
  const chunkNames = fs.readdirSync(assets).filter((name) => name.endsWith('.js'));
  // The login chunk this build's own chunks name (the folder may also hold another build's files).
  const named = new Set<string>();
  for (const chunk of files.values()) {
    for (const match of fs.readFileSync(chunk.file, 'utf8').matchAll(/LoginPage-[\w-]+\.js/g))
      named.add(match[0]);
  }
  const onDisk = chunkNames.filter((name) => name.startsWith('LoginPage-'));
  const login = named.size > 0 ? [...named].filter((name) => onDisk.includes(name)) : onDisk;
  if (onDisk.length > 1) {
    notes.push(
      `${onDisk.length} LoginPage-*.js chunks (${onDisk.join(', ')}): files of another build are there too; counting ${login.join(', ') || 'none'}, the one this index.html's chunks name`,
    );
  }
  if (login.length === 0) notes.push('no LoginPage-*.js chunk: the login page is not counted');
  closure(
    dist,
    login.map((name) => ({ file: path.join(assets, name), reason: 'login page (lazy route, shown first)' })),
    files,
    notes,
  );
  let raw = 0;
  let gzip = 0;
  for (const chunk of files.values()) {
    raw += chunk.raw;
    gzip += chunk.gzip;
  }
  return { html, links, files, raw, gzip, workers: workerChunks(dist, files, roots[0]?.file, notes), notes };
}

/**
 * The worker: chunks named by `new Worker(new URL("..."))`; failing that, a Comlink-exposing
 * index-*.js. Looked for in this build's chunks: the first page's, then every chunk they name.
 */
function workerChunks(
  dist: string,
  initial: Map<string, Chunk>,
  entry: string | undefined,
  notes: string[],
): Map<string, Chunk> {
  const assets = path.join(dist, 'assets');
  const roots: Array<{ file: string; reason: string }> = [];
  const sameBuild = new Set([...initial.keys()]);
  for (const chunk of initial.values()) {
    for (const match of fs.readFileSync(chunk.file, 'utf8').matchAll(/[\w.-]+-[\w-]{8}\.js/g)) {
      const file = path.join(assets, match[0]);
      if (fs.existsSync(file)) sameBuild.add(file);
    }
  }
  for (const file of sameBuild) {
    const code = fs.readFileSync(file, 'utf8');
    for (const match of code.matchAll(/new\s+(?:Shared)?Worker\(\s*new\s+URL\(\s*([`"'])([^`"']+)\1/g)) {
      const target = match[2] ? distPath(dist, match[2], file) : undefined;
      if (target && !roots.some((root) => root.file === target)) {
        roots.push({ file: target, reason: `new Worker(new URL(...)) in ${path.basename(file)}` });
      }
    }
  }
  if (roots.length === 0) {
    for (const name of fs.readdirSync(assets).filter((chunk) => /^index-.*\.js$/.test(chunk))) {
      const file = path.join(assets, name);
      const code = fs.readFileSync(file, 'utf8');
      if (
        file !== entry &&
        /Comlink\.|comlink/.test(code) &&
        /addEventListener\(\s*[`"']message/.test(code)
      ) {
        roots.push({ file, reason: 'guessed: an index-*.js with Comlink that is not the entry' });
      }
    }
  }
  const workers = new Map<string, Chunk>();
  closure(dist, roots, workers, notes);
  return workers;
}
