/**
 * The Web Worker's entry: real dependencies, then the handler map exposed through comlink.
 * Kept tiny; the only file that reads Vite's `import.meta.env`, and so the only worker file
 * left out of the root (NodeNext) typecheck.
 */
import { expose } from 'comlink';
import { createHandlers } from './handlers/index.js';
import { DexieSessionStore } from './session.js';

// Vite types every env entry as `any`; read them as unknown and narrow.
const env: Readonly<Record<string, unknown>> = import.meta.env;
const gatewayPath = env['VITE_GATEWAY_PATH'];

const handlers = createHandlers({
  transport: {
    mode: env['VITE_TRANSPORT'] === 'plain' ? 'plain' : 'envelope',
    gatewayPath: typeof gatewayPath === 'string' && gatewayPath !== '' ? gatewayPath : '/api/gw',
    fetch: globalThis.fetch.bind(globalThis),
    nowSeconds: () => Date.now() / 1000,
  },
  session: new DexieSessionStore(),
});

expose(handlers);
