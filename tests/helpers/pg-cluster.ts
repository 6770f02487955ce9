/**
 * Private PostgreSQL clusters for the tests and harnesses that must restart, kill or replicate a
 * server (the replica test, `npm run chaos`): each is made with initdb in a scratch folder and
 * started with pg_ctl on its own loopback port, so the machine's shared server is never touched.
 *
 * PostgreSQL refuses to run as root: when this process is root, every server command runs as
 * the `postgres` OS user (runuser), which owns the folder. `clusterToolsAvailable()` says
 * whether the binaries are here, so a caller can skip visibly when they are not.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const BIN_ROOT = '/usr/lib/postgresql';

/** The folder of initdb, pg_ctl and pg_basebackup (the newest installed version), or undefined. */
export function clusterBinDir(): string | undefined {
  if (!fs.existsSync(BIN_ROOT)) return undefined;
  const versions = fs
    .readdirSync(BIN_ROOT)
    .filter((name) => fs.existsSync(path.join(BIN_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(BIN_ROOT, versions[0], 'bin');
}

const isRoot = () => process.getuid?.() === 0;

/** Why private clusters cannot be made here, or null when they can. */
export function clusterToolsMissing(): string | null {
  if (!clusterBinDir()) return `no PostgreSQL server binaries under ${BIN_ROOT}`;
  if (isRoot()) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no postgres OS user to run the server as';
    }
  }
  return null;
}

/** The command line of a PostgreSQL binary: through runuser as the postgres user when we are root. */
function toolCommand(tool: string, args: string[]): [string, string[]] {
  const bin = path.join(clusterBinDir() ?? BIN_ROOT, tool);
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/** Runs a PostgreSQL binary; returns its output. */
function runTool(tool: string, args: string[], timeoutMs = 120_000): string {
  const [command, commandArgs] = toolCommand(tool, args);
  return execFileSync(command, commandArgs, {
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: os.tmpdir(),
  });
}

/** Runs a PostgreSQL binary without blocking this process meanwhile. */
async function runToolInBackground(tool: string, args: string[], timeoutMs = 120_000): Promise<void> {
  const [command, commandArgs] = toolCommand(tool, args);
  await promisify(execFile)(command, commandArgs, { timeout: timeoutMs, cwd: os.tmpdir() });
}

/** A free loopback TCP port (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Makes a folder the server's user can own (and our cleanup can remove). */
function scratchFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o700);
  if (isRoot()) execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

export class PgCluster {
  private constructor(
    readonly dataDir: string,
    readonly port: number,
    private readonly root: string,
  ) {}

  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /**
   * initdb (trust auth on loopback, replication allowed, WAL kept for a streaming replica) and
   * start on a free port.
   */
  static async create(options: { maxConnections?: number } = {}): Promise<PgCluster> {
    const root = scratchFolder('coffer-pg-');
    const dataDir = path.join(root, 'data');
    runTool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    fs.appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      [
        '',
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = ''",
        'wal_level = replica',
        'max_wal_senders = 5',
        'hot_standby = on',
        'fsync = off',
        'synchronous_commit = on',
        'full_page_writes = on',
        `max_connections = ${options.maxConnections ?? 60}`,
        '',
      ].join('\n'),
    );
    fs.appendFileSync(
      path.join(dataDir, 'pg_hba.conf'),
      '\nhost replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n',
    );
    const cluster = new PgCluster(dataDir, await freePort(), root);
    cluster.start();
    return cluster;
  }

  /**
   * A streaming replica of `primary` (pg_basebackup -R: standby.signal and primary_conninfo
   * written for us), started on its own free port as a hot standby.
   */
  static async replicaOf(primary: PgCluster): Promise<PgCluster> {
    const root = scratchFolder('coffer-pg-replica-');
    const dataDir = path.join(root, 'data');
    runTool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      dataDir,
      '-R',
      '-X',
      'stream',
      // A fast checkpoint to start from: the default spread one is paced over minutes when the
      // primary has many dirty pages (CREATE DATABASE right before dirties a whole template).
      '--checkpoint=fast',
      '--no-sync',
    ]);
    const cluster = new PgCluster(dataDir, await freePort(), root);
    cluster.start();
    return cluster;
  }

  /** Starts the server and waits until it accepts connections. */
  start(): void {
    runTool('pg_ctl', this.#startArgs());
  }

  /** Stops the server: 'fast' (clean) or 'immediate' (like a crash: recovery at the next start). */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    runTool('pg_ctl', this.#stopArgs(mode));
  }

  /** As `start`, without blocking this process (whose servers and clients go on meanwhile). */
  startInBackground(): Promise<void> {
    return runToolInBackground('pg_ctl', this.#startArgs());
  }

  /** As `stop`, without blocking this process. */
  stopInBackground(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    return runToolInBackground('pg_ctl', this.#stopArgs(mode));
  }

  #startArgs(): string[] {
    const log = path.join(this.dataDir, 'server.log');
    return ['-D', this.dataDir, '-l', log, '-o', `-p ${this.port}`, '-w', '-t', '60', 'start'];
  }

  #stopArgs(mode: 'fast' | 'immediate'): string[] {
    return ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop'];
  }

  /** Stops (immediately, like a crash, by default) and starts again. */
  restart(mode: 'fast' | 'immediate' = 'immediate'): void {
    this.stop(mode);
    this.start();
  }

  /** The server's log so far (for a failing test's message). */
  log(): string {
    try {
      return fs.readFileSync(path.join(this.dataDir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops the server if it runs and removes its folder. */
  destroy(): void {
    try {
      this.stop('immediate');
    } catch {
      // already stopped
    }
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
