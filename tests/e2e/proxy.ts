/**
 * A loopback TCP proxy between the browser and Coffer, for offline made real: `down()` cuts
 * every connection and refuses new ones (as a lost signal does, service worker included);
 * `mute()` lets requests through to the server but loses every answer (a send that takes
 * effect while its tab never hears back); `up()` restores the link.
 */
import net from 'node:net';
import { listenOnLoopback } from '../helpers/loopback.js';

export type ProxyMode = 'up' | 'down' | 'mute';

export class LoopbackProxy {
  private mode: ProxyMode = 'up';
  private readonly sockets = new Set<net.Socket>();
  /** Bytes the server sent while muted (answers that never reached the browser). */
  lostBytes = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** Listens on a free loopback port and forwards to `target`. */
  static async start(target: URL): Promise<LoopbackProxy> {
    const server = net.createServer();
    const proxy = new LoopbackProxy(server, await listenOnLoopback(server));
    server.on('connection', (client) => proxy.accept(client, target));
    return proxy;
  }

  get current(): ProxyMode {
    return this.mode;
  }

  /** Cuts every open connection and refuses new ones until `up()`. */
  down(): void {
    this.mode = 'down';
    this.cutAll();
  }

  /** Requests still reach the server; its answers are dropped, on open connections too. */
  mute(): void {
    this.mode = 'mute';
  }

  /** Restores the link; connections opened while muted are cut (their answers are lost). */
  up(): void {
    if (this.mode === 'mute') this.cutAll();
    this.mode = 'up';
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private accept(client: net.Socket, target: URL): void {
    if (this.mode === 'down') {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const forget = () => {
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (this.mode === 'up') client.write(chunk);
      else this.lostBytes += chunk.length;
    });
    client.on('close', forget);
    upstream.on('close', forget);
    client.on('error', forget);
    upstream.on('error', forget);
  }
}
