/** `npm start`: serves the API (and the app) on PORT, on PGlite in DATA_DIR unless DATABASE_URL is set. */
import { createServer } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await createServer({ config });
  await server.app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const lines = [
    `Coffer is serving on http://localhost:${config.port} (database: ${where})`,
    `Mail goes to ${server.mailer.description}`,
  ];
  if (server.rootInviteCreated) lines.push(`Root invite code (first start): ${server.rootInviteCreated}`);
  else lines.push('Root invite code: created on the first start; `npm run admin -- invite list` shows it');
  console.log(lines.join('\n'));
  const stop = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
