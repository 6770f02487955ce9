/** `npm start`: serves the API (and the app) on PORT, on PGlite in DATA_DIR unless DATABASE_URL is set. */
import type { AddressInfo } from 'node:net';
import { createServer } from './app.js';
import { projectRoot } from './paths.js';
import { buildClientIfMissing } from './client-build.js';
import { ConfigError, loadConfig } from './config.js';
import { startDevnet, type Devnet } from './chains/devnet.js';

/** The URL the server really listens on (PORT=0 picks a free port); wildcard hosts read as localhost. */
function listeningUrl(address: AddressInfo | string | null, host: string): string {
  if (typeof address === 'string') return address; // a pipe or socket path
  if (address === null) return 'nowhere (the server is not listening)';
  const wildcard = ['0.0.0.0', '::', '', 'localhost', '127.0.0.1', '::1'].includes(host);
  const shown = wildcard ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${address.port}`;
}

/** The devnet this start began, stopped on the way out whatever happens. */
let devnet: Devnet | undefined;

async function main(): Promise<void> {
  const config = loadConfig();
  devnet = config.devnet
    ? await startDevnet({
        dataDir: config.dataDir,
        port: config.devnet.port,
        blockSeconds: config.devnet.blockSeconds,
        log: (line) => console.log(`[devnet] ${line}`),
      })
    : undefined;
  const server = await createServer({ config, ...(devnet ? { devnet: devnet.info } : {}) });
  await server.app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const lines = [
    `Coffer is serving on ${listeningUrl(server.app.server.address(), config.host)} (database: ${where})`,
    `Mail goes to ${server.mailer.description}`,
  ];
  if (devnet) {
    lines.push(
      `BEP20 devnet (a local EVM chain; its balances do not survive a restart) at ${devnet.info.rpcUrl}, ` +
        `test USDT ${devnet.info.contract}: pay a deposit address with \`npm run devnet -- pay <address> <amount>\``,
    );
  }
  const url = listeningUrl(server.app.server.address(), config.host);
  if (server.rootOperatorCreated) {
    const { email, password } = server.rootOperatorCreated;
    lines.push(`Operator console: ${url}/admin (first operator ${email}, one-time password ${password})`);
  } else lines.push(`Operator console: ${url}/admin`);
  if (server.rootInviteCreated) lines.push(`Root invite code (first start): ${server.rootInviteCreated}`);
  else lines.push('Root invite code: created on the first start; `npm run admin -- invite list` shows it');
  console.log(lines.join('\n'));
  if (config.clientBuild) buildClientIfMissing(projectRoot, (line) => console.log(line));
  const stop = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    await server.close();
    await devnet?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch(async (error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  await devnet?.stop();
  process.exit(1);
});
