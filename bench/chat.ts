/**
 * `npm run bench:chat` (docs/protocol.md §35): customer service chat on loopback, PostgreSQL when
 * reachable (else PGlite). Prints
 * - messages per second end to end: agents' replies sent through `/api/admin/chat/reply` over
 *   HTTP by BENCH_CHAT_SENDERS concurrent senders (each to its own customer), each counted when it
 *   arrives on the customer's socket (another socket than the sender's);
 * - the delivery latency (send started -> frame received), median and 99th percentile;
 * - the memory of the instance holding BENCH_CHAT_IDLE idle signed-in sockets (opened by a child
 *   process, so the figure is the server's alone): heap and RSS after a full GC, before and with
 *   the sockets, and per socket.
 * Bounded loops (BENCH_CHAT_MESSAGES in all); it measures and never judges: exit code 1 only when
 * a stage could not measure. Not part of `npm test`.
 *
 * Environment:
 * - BENCH_CHAT_MESSAGES     replies in all (default 2000)
 * - BENCH_CHAT_SENDERS      concurrent senders, each with its own customer (default 8)
 * - BENCH_CHAT_IDLE         idle sockets for the memory figure (default 1000; 5 per user)
 * - BENCH_TIMEOUT_SECONDS   the bound on the whole run (default 300)
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CHAT_SOCKETS_PER_USER } from '../contract/api/chat.js';
import { listenLoopback, signedInSocket } from '../tests/helpers/chat-socket.js';
import { postgresReachable } from '../tests/helpers/database.js';
import { readyOperator } from '../tests/helpers/operator.js';
import { startTestServer, type TestServer } from '../tests/helpers/server.js';
import { benchRun, median, positiveNumber, table } from './report.js';

const MESSAGES = Math.floor(positiveNumber('BENCH_CHAT_MESSAGES', 2000));
const SENDERS = Math.floor(positiveNumber('BENCH_CHAT_SENDERS', 8));
const IDLE = Math.floor(positiveNumber('BENCH_CHAT_IDLE', 1000));
const BOUND_MS = positiveNumber('BENCH_TIMEOUT_SECONDS', 300) * 1000;

const { stage, closers, closeAll, doneLine, run } = benchRun(BOUND_MS);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const settledMemory = async () => {
  for (let round = 0; round < 3; round += 1) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
};
/** Registers a user from its own client address (the code e-mails are limited per address). */
async function registerUser(t: TestServer, email: string, index: number) {
  const ip = `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  return t.register('plain', email, 'secret123', t.rootInvite, { ip });
}
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

run(async () => {
  const tier = (await postgresReachable()) ? 'postgres' : 'pglite';
  const t = await stage(`server on a scratch ${tier} database`, 60_000, () => startTestServer(tier));
  if (!t) return;
  closers.set('server', () => t.close());
  const base = await listenLoopback(t);
  const http = base.replace('ws://', 'http://');
  const agent = await readyOperator(t, 'bench-desk@coffer.test', 'support');
  const agentToken = await agent.token();

  const measured = await stage(`end to end: ${MESSAGES} replies by ${SENDERS} senders`, 240_000, async () => {
    const pairs = [];
    for (let index = 0; index < SENDERS; index += 1) {
      const user = await registerUser(t, `bench-chat-${index}@coffer.test`, index);
      pairs.push({ user, socket: await signedInSocket(base, user.token) });
    }
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      pairs.map(async ({ user, socket }) => {
        while (next < MESSAGES) {
          next += 1;
          const from = socket.frames.length;
          const sent = performance.now();
          const response = await fetch(`${http}/api/admin/chat/reply`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${agentToken}` },
            body: JSON.stringify({ userId: user.userId, text: `bench ${next}` }),
          });
          const answer = (await response.json()) as { code: number; data: { seq: number } };
          if (answer.code !== 200) {
            errors += 1;
            continue;
          }
          await socket.next(
            (frame) =>
              frame.type === 'message' && (frame['message'] as { seq: number }).seq === answer.data.seq,
            from,
          );
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    for (const { socket } of pairs) socket.close();
    return { latencies, errors, elapsed };
  });
  if (measured) {
    table(
      ['senders', 'delivered', 'messages/s', 'median ms', 'p99 ms', 'errors'],
      [
        [
          String(SENDERS),
          String(measured.latencies.length),
          (measured.latencies.length / measured.elapsed).toFixed(1),
          median(measured.latencies).toFixed(1),
          percentile(measured.latencies, 99).toFixed(1),
          String(measured.errors),
        ],
      ],
      [0, 1, 2, 3, 4, 5],
    );
  }

  const memory = await stage(
    `memory with ${IDLE} idle sockets (opened by a child process)`,
    180_000,
    async () => {
      const users = Math.ceil(IDLE / CHAT_SOCKETS_PER_USER);
      const tokens: string[] = [];
      for (let index = 0; index < users; index += 1)
        tokens.push((await registerUser(t, `bench-idle-${index}@coffer.test`, SENDERS + index)).token);
      const before = await settledMemory();
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/chat-idle-clients.ts'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      closers.set('idle sockets', () => void child.kill('SIGKILL'));
      const perToken = Math.min(CHAT_SOCKETS_PER_USER, IDLE);
      child.stdin.write(`${JSON.stringify({ url: `${base}/api/v1/chat/socket`, tokens, perToken })}\n`);
      const out = readline.createInterface({ input: child.stdout });
      const opened = await new Promise<number>((resolve, reject) => {
        out.on('line', (line) => {
          const match = /^ready (\d+)$/.exec(line);
          if (match) resolve(Number(match[1]));
        });
        child.once('exit', (code) => reject(new Error(`idle clients exited with ${String(code)}`)));
      });
      const held = t.server.chatHub.counts.customers;
      const after = await settledMemory();
      child.stdin.end();
      closers.delete('idle sockets');
      return { opened, held, before, after };
    },
  );
  if (memory) {
    table(
      ['sockets held', 'heap before', 'heap with', 'heap/socket', 'rss before', 'rss with', 'rss/socket'],
      [
        [
          String(memory.held),
          mb(memory.before.heapUsed),
          mb(memory.after.heapUsed),
          `${((memory.after.heapUsed - memory.before.heapUsed) / memory.held / 1000).toFixed(1)} KB`,
          mb(memory.before.rss),
          mb(memory.after.rss),
          `${((memory.after.rss - memory.before.rss) / memory.held / 1000).toFixed(1)} KB`,
        ],
      ],
      [0, 1, 2, 3, 4, 5, 6],
    );
  }
  await closeAll();
  console.log(doneLine());
});
