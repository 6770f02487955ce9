/**
 * What the benches share: figures printed as text tables, and stages that measure one thing
 * each within their own limit and the run's bound, reporting a failure instead of throwing.
 */
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';

export const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const gzipSize = (content: string | Buffer) => gzipSync(content, { level: 9 }).length;
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function table(header: string[], rows: string[][], rightAligned: number[]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        rightAligned.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

/**
 * One bench run under one bound (milliseconds from now): its stages (`unmeasured` names those
 * that failed), closers for whatever it opened (closed last first by `closeAll`), and `run`, which
 * runs `main` with a watchdog at the bound and sets the exit code.
 */
export function benchRun(boundMs: number) {
  const started = performance.now();
  const deadline = started + boundMs;
  const unmeasured: string[] = [];
  /** Closers for whatever is running (child processes, browsers, the server); each runs once. */
  const closers = new Map<string, () => Promise<void> | void>();

  /** Runs one measurement within its own limit and the run's bound; a failure is reported, not thrown. */
  async function stage<T>(name: string, limitMs: number, run: () => Promise<T>): Promise<T | undefined> {
    console.log(`\n== ${name}`);
    const limit = Math.min(limitMs, deadline - performance.now());
    if (limit < 2000) {
      console.log(`not measured: the run's bound of ${seconds(boundMs)} is reached`);
      unmeasured.push(name);
      return undefined;
    }
    const begin = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const value = await Promise.race([
        run(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${seconds(limit)}`)), limit);
        }),
      ]);
      console.log(`(${name}: ${seconds(performance.now() - begin)})`);
      return value;
    } catch (error) {
      console.log(`not measured: ${errorText(error)}`);
      unmeasured.push(name);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async function closeAll(): Promise<void> {
    for (const [name, close] of [...closers].reverse()) {
      closers.delete(name);
      try {
        await close();
      } catch (error) {
        console.error(`closing ${name}: ${errorText(error)}`);
      }
    }
  }

  /**
   * Runs a command to its end (killed if the run stops meanwhile) and returns what it printed.
   * @throws Error with the end of its output when it exits non-zero.
   */
  async function command(
    name: string,
    file: string,
    args: string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ) {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    closers.set(name, () => void child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    closers.delete(name);
    if (code !== 0) {
      throw new Error(`${name} exited with ${String(code)}:\n${output.split('\n').slice(-30).join('\n')}`);
    }
    return output;
  }

  /** "done in ..." and what could not be measured. */
  function doneLine(): string {
    const missing = unmeasured.length ? `; not measured: ${unmeasured.join(', ')}` : '';
    return `\ndone in ${seconds(performance.now() - started)}${missing}`;
  }

  /**
   * Runs `main`: work abandoned by a stage that timed out fails when its browser is closed under
   * it, which prints one line (any other stray rejection is a bug); at the bound, what is open is
   * closed and the process stops; exit code 1 when a stage could not measure. The process then
   * stops by itself (PGlite, Lighthouse and fake-indexeddb can leave handles behind).
   */
  function run(main: () => Promise<void>): void {
    process.on('unhandledRejection', (reason: unknown) => {
      if (unmeasured.length > 0) {
        console.log(`(abandoned work stopped: ${errorText(reason).split('\n')[0] ?? ''})`);
        return;
      }
      console.error('unhandled rejection:', reason);
      process.exitCode = 1;
    });
    const watchdog = setTimeout(() => {
      console.error(`\nthe bound of ${seconds(boundMs)} is reached: stopping`);
      void Promise.race([closeAll(), new Promise((resolve) => setTimeout(resolve, 10_000))]).then(() =>
        process.exit(1),
      );
    }, boundMs + 5_000);
    watchdog.unref();
    main()
      .then(() => {
        if (unmeasured.length > 0) process.exitCode = 1;
      })
      .catch((error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      })
      .finally(() => {
        clearTimeout(watchdog);
        setTimeout(() => process.exit(), 3_000).unref();
      });
  }

  return { stage, unmeasured, closers, closeAll, command, doneLine, run };
}

/** A positive number from the environment variable `name`, or `fallback` when it is unset. */
export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${raw}`);
  return value;
}

/** A seeded generator (mulberry32), so a run can be replayed from its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T; // callers never pass an empty list
  return { next, int, pick };
}
