/**
 * The Web Worker's entry: real dependencies, then the handler map exposed through comlink.
 * Kept tiny; the only file that reads Vite's `import.meta.env`, and so the only worker file
 * left out of the root (NodeNext) typecheck.
 */
import '../contract/zod-jitless.js'; // first: before any schema parses (CSP, no eval)
import { expose } from 'comlink';
import { clientConfigSource } from './client-config.js';
import { createHandlers } from './handlers/index.js';
import { DexieSessionStore } from './session.js';

// Vite types every env entry as `any`; read them as unknown and narrow.
const env: Readonly<Record<string, unknown>> = import.meta.env;
// The transport and the gateway come from the serving server at run time (GET
// /client-config.json); a build-time VITE_TRANSPORT is only the tests' override of the transport.
const modeOverride = env['VITE_TRANSPORT'];
const fetchHere = globalThis.fetch.bind(globalThis);

const handlers = createHandlers({
  transport: {
    serverConfig: clientConfigSource({
      fetch: fetchHere,
      ...(modeOverride === 'plain' || modeOverride === 'envelope' ? { modeOverride } : {}),
    }),
    fetch: fetchHere,
    nowSeconds: () => Date.now() / 1000,
  },
  session: new DexieSessionStore(),
});

expose(handlers);
