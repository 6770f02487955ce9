/**
 * TypeScript programs run as child processes for crash tests: one node process each (tsx as a
 * loader, so a SIGKILL hits the program itself, not a wrapper), output kept and heard line by
 * line, and every child still running killed after the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  process: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  /** Calls `listener` with each whole line of stdout from now on. */
  onLine(listener: (line: string) => void): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: Child[] = [];

/** Runs `file` (from the repository's root) with `args` and `env`. */
export function runScript(file: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const listeners: Array<(line: string) => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) for (const listener of listeners) listener(line);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const started: Child = {
    process: child,
    output: () => output,
    onLine: (listener) => listeners.push(listener),
    exited,
  };
  children.push(started);
  return started;
}

/** Kills (SIGKILL) every child still running and waits for each to exit; for afterEach. */
export async function killChildren(): Promise<void> {
  for (const child of children.splice(0)) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
}
