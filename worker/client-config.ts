/**
 * The server's word on how to reach it (contract/client-config.ts), read by the worker from the
 * origin that served the app before its first request, so one build works behind any gateway
 * segment. Read once and kept while it works; a failed read is tried again on the next request
 * (offline starts simply fail their requests as before), and a gateway that answers 404 (the
 * server restarted with another segment) makes the next request read it anew.
 */
import { CLIENT_CONFIG_PATH, clientConfigSchema } from '../contract/client-config.js';

/** Which transport a request takes, and where the envelope gateway is. */
export interface TransportRoute {
  mode: 'envelope' | 'plain';
  gatewayPath: string;
}

export interface ClientConfigSource {
  /** The route to use now; null when the configuration cannot be read (offline, bad answer). */
  route(signal: AbortSignal): Promise<TransportRoute | null>;
  /** Drops what was read: the next `route` asks the server again. */
  forget(): void;
}

export interface ClientConfigSourceOptions {
  fetch: typeof fetch;
  /** Origin put before the path; empty or absent means same origin. */
  baseUrl?: string;
  /** A build-time transport (`VITE_TRANSPORT`, tests only) that wins over the server's. */
  modeOverride?: 'envelope' | 'plain';
}

/** A source that reads `GET /client-config.json`; never throws. */
export function clientConfigSource(options: ClientConfigSourceOptions): ClientConfigSource {
  let known: Promise<TransportRoute | null> | null = null;

  async function read(signal: AbortSignal): Promise<TransportRoute | null> {
    try {
      const response = await options.fetch(`${options.baseUrl ?? ''}${CLIENT_CONFIG_PATH}`, {
        cache: 'no-store',
        signal,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return null;
      }
      const parsed = clientConfigSchema.safeParse(await response.json());
      if (!parsed.success) return null;
      return { mode: options.modeOverride ?? parsed.data.transport, gatewayPath: parsed.data.gatewayPath };
    } catch {
      return null;
    }
  }

  return {
    async route(signal) {
      // Concurrent first requests share one read; only a successful read is kept.
      const reading = known ?? read(signal);
      known = reading;
      const route = await reading;
      if (route === null && known === reading) known = null;
      return route;
    },
    forget() {
      known = null;
    },
  };
}
