/**
 * The faulty loopback TCP proxy of `npm run chaos`: one in front of each API instance, deciding
 * per connection (one request each: the chaos clients never reuse a connection) whether to
 *
 * - `pass` it through,
 * - `delay` it (hold the request a moment, then forward it),
 * - `drop` it (close the client's connection before anything reaches the server),
 * - `cut` its answer (forward the request, then close both sides at the first byte of the answer:
 *   the command took effect and its client does not know),
 * - `stall` it (hold the request past the client's timeout, then forward it anyway: the client
 *   has given up and resent, and the late original reaches the server after or beside its retry),
 * - send it `twice` (forward it, and at once the same bytes on a second connection whose answer
 *   is dropped: two copies of one command, one key, at the same moment).
 *
 * When its instance is down (killed), the connection to it is refused and the client's is closed
 * (`upstreamRefused`). The draw comes from the caller's seeded generator, so a run's sequence of
 * faults repeats with its seed.
 */
import net from 'node:net';
import { listenOnLoopback } from '../tests/helpers/loopback.js';

export type Fault = 'pass' | 'delay' | 'drop' | 'cut' | 'stall' | 'twice';
export const FAULTS: readonly Fault[] = ['pass', 'delay', 'drop', 'cut', 'stall', 'twice'];

export interface FaultPlan {
  /** Each fault's share of connections (0 to 1); `pass` takes the rest. */
  delay: number;
  drop: number;
  cut: number;
  stall: number;
  twice: number;
  /** Milliseconds to hold a delayed request (drawn up to this). */
  delayMs: number;
  /** Milliseconds to hold a stalled request: past the clients' timeout. */
  stallMs: number;
}

export class FaultyProxy {
  readonly counts: Record<Fault | 'upstreamRefused', number> = {
    pass: 0,
    delay: 0,
    drop: 0,
    cut: 0,
    stall: 0,
    twice: 0,
    upstreamRefused: 0,
  };
  /** Faults are drawn only while on; off, every connection passes (the final checks). */
  faulty = true;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly targetPort: number,
    private readonly plan: FaultPlan,
    private readonly random: () => number,
  ) {}

  /** Listens on a free loopback port and forwards to 127.0.0.1:`targetPort`. */
  static async start(targetPort: number, plan: FaultPlan, random: () => number): Promise<FaultyProxy> {
    const server = net.createServer();
    const proxy = new FaultyProxy(server, await listenOnLoopback(server), targetPort, plan, random);
    server.on('connection', (client) => proxy.accept(client));
    return proxy;
  }

  /** Connections still open (a stalled request may still be on its way to the server). */
  get open(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private draw(): Fault {
    if (!this.faulty) return 'pass';
    let roll = this.random();
    for (const fault of ['delay', 'drop', 'cut', 'stall', 'twice'] as const) {
      roll -= this.plan[fault];
      if (roll < 0) return fault;
    }
    return 'pass';
  }

  private accept(client: net.Socket): void {
    const fault = this.draw();
    this.counts[fault] += 1;
    this.sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => this.sockets.delete(client));
    if (fault === 'drop') {
      client.destroy();
      return;
    }
    // The request's bytes until the upstream is connected (a delay or stall holds them longer).
    const pending: Buffer[] = [];
    /** Every byte of the request, for a second copy. */
    const request: Buffer[] = [];
    let upstream: net.Socket | undefined;
    client.on('data', (chunk: Buffer) => {
      request.push(chunk);
      if (upstream?.readyState === 'open') upstream.write(chunk);
      else pending.push(chunk);
    });
    // A stalled request goes on without its client (the late original); otherwise one side
    // closing closes the other.
    client.on('close', () => {
      if (fault !== 'stall') upstream?.destroy();
    });

    const forward = () => {
      if (fault !== 'stall' && client.destroyed) return;
      const socket = net.connect(this.targetPort, '127.0.0.1');
      upstream = socket;
      this.sockets.add(socket);
      let answered = false;
      socket.on('connect', () => {
        for (const chunk of pending.splice(0)) socket.write(chunk);
      });
      socket.on('data', (chunk: Buffer) => {
        if (fault === 'cut') {
          socket.destroy();
          client.destroy();
          return;
        }
        answered = true;
        if (!client.destroyed) client.write(chunk);
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') this.counts.upstreamRefused += 1;
      });
      socket.on('close', () => {
        this.sockets.delete(socket);
        // The answer is whole when the server closes (the clients ask for `connection: close`).
        if (answered) client.end();
        else client.destroy();
      });
    };
    /** The second copy: the same bytes on a connection of its own, its answer dropped. */
    const copy = () => {
      const socket = net.connect(this.targetPort, '127.0.0.1');
      this.sockets.add(socket);
      let sent = 0;
      const flush = () => {
        for (; sent < request.length; sent += 1) socket.write(request[sent] as Buffer); // sent < length
      };
      socket.on('connect', flush);
      client.on('data', () => {
        if (socket.readyState === 'open') flush();
      });
      socket.resume();
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    };
    if (fault === 'twice') {
      forward();
      copy();
    } else if (fault === 'delay') setTimeout(forward, Math.floor(this.random() * this.plan.delayMs));
    else if (fault === 'stall') setTimeout(forward, this.plan.stallMs + Math.floor(this.random() * 1000));
    else forward();
  }
}
