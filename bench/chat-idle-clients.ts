/**
 * The idle sockets of `npm run bench:chat`, in their own process (so the server's memory is
 * measured alone): reads `{url, tokens, perToken}` as JSON on stdin's first line, opens
 * `perToken` chat sockets for each token, signs each in, prints `ready <n>` once all are, and
 * holds them until stdin closes (or 120 s pass).
 */
import readline from 'node:readline';
import { WebSocket } from 'ws';

const lines = readline.createInterface({ input: process.stdin });
const first = await new Promise<string>((resolve) => lines.once('line', resolve));
const { url, tokens, perToken } = JSON.parse(first) as { url: string; tokens: string[]; perToken: number };
const sockets: WebSocket[] = [];
const open = (token: string) =>
  new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(url);
    sockets.push(socket);
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'ready') resolve();
    });
  });
for (const token of tokens) await Promise.all(Array.from({ length: perToken }, () => open(token)));
console.log(`ready ${sockets.length}`);
const stop = () => {
  for (const socket of sockets) socket.terminate();
  process.exit(0);
};
lines.on('close', stop);
setTimeout(stop, 120_000).unref();
