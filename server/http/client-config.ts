/**
 * `GET /client-config.json`: the web app's run-time configuration (contract/client-config.ts),
 * from this start's environment. Never cached, so a restart with other segments reaches every
 * open app at its next read.
 */
import type { FastifyInstance } from 'fastify';
import { CLIENT_CONFIG_PATH, clientConfigSchema, type ClientConfig } from '../../contract/client-config.js';
import type { Config } from '../config.js';

/** The configuration the served app reads; parsed, so a bad segment fails at start, not in a browser. */
export function clientConfigOf(config: Config): ClientConfig {
  return clientConfigSchema.parse({
    transport: config.clientTransport,
    gatewayPath: `/api/${config.gatewaySegment}`,
    uploadPath: `/api/${config.uploadSegment}`,
  });
}

export function registerClientConfig(app: FastifyInstance, config: Config): void {
  const body = JSON.stringify(clientConfigOf(config));
  app.get(CLIENT_CONFIG_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body),
  );
}
