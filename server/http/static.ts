/**
 * Serves the built app (dist/) and public files beside the API, compressed, with long cache
 * headers for hashed assets and no-cache for the shell and the service worker (so updates land).
 * While dist/ is being built on a first start, `/` answers a page that reloads itself.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { CONSOLE_BASE_PATH, CONSOLE_NONCE_PLACEHOLDER } from '../../contract/console.js';
import { firstPageFile, SCRIPT_NONCE_PLACEHOLDER } from '../../contract/first-page.js';
import { acceptedLanguages, preferredLocale } from '../../contract/locales.js';
import { policyWithNonce } from './security-headers.js';

const BUILDING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="3"><title>Coffer</title></head><body>
<h1>Coffer is starting</h1><p>The app is being built for the first time; this page reloads itself.</p></body></html>`;

export async function registerStatic(
  app: FastifyInstance,
  distDir: string,
  publicDir: string,
): Promise<void> {
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  fs.mkdirSync(distDir, { recursive: true });
  const roots = [distDir, publicDir].filter((dir) => fs.existsSync(dir));
  await app.register(fastifyStatic, {
    root: roots,
    prefix: '/',
    index: false,
    wildcard: true,
    cacheControl: false,
    setHeaders(response, filePath) {
      const hashed = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
      response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      response.setHeader('x-content-type-options', 'nosniff');
    },
  });
  // The shell, as a first visit's page when the build drew one: the login page in the language
  // Accept-Language picks, its gate script allowed by a fresh nonce (contract/first-page.ts). A
  // returning visitor's service worker serves index.html from its precache instead.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const index = path.join(distDir, 'index.html');
    if (!fs.existsSync(index))
      return reply.code(503).header('retry-after', '3').type('text/html; charset=utf-8').send(BUILDING_PAGE);
    reply.header('cache-control', 'no-cache').header('vary', 'accept-language');
    const locale = preferredLocale(acceptedLanguages(request.headers['accept-language']));
    const firstPage = await fs.promises
      .readFile(path.join(distDir, firstPageFile(locale)), 'utf8')
      .catch(() => null);
    if (firstPage === null) return reply.sendFile('index.html', distDir);
    const nonce = crypto.randomBytes(18).toString('base64');
    return reply
      .header('content-security-policy', policyWithNonce(nonce, 'script-src'))
      .type('text/html; charset=utf-8')
      .send(firstPage.replaceAll(SCRIPT_NONCE_PLACEHOLDER, nonce));
  });
  // The operator console and its deep links: admin.html with a fresh style nonce in the page and
  // in this answer's policy (contract/console.ts). Never cached: the nonce is new every time.
  const consolePage = async (_request: FastifyRequest, reply: FastifyReply) => {
    const page = path.join(distDir, 'admin.html');
    if (!fs.existsSync(page))
      return reply.code(503).header('retry-after', '3').type('text/html; charset=utf-8').send(BUILDING_PAGE);
    const nonce = crypto.randomBytes(18).toString('base64');
    const html = (await fs.promises.readFile(page, 'utf8')).replaceAll(CONSOLE_NONCE_PLACEHOLDER, nonce);
    return reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', policyWithNonce(nonce, 'style-src'))
      .type('text/html; charset=utf-8')
      .send(html);
  };
  app.get(CONSOLE_BASE_PATH, { schema: { hide: true } }, consolePage);
  app.get(`${CONSOLE_BASE_PATH}/*`, { schema: { hide: true } }, consolePage);
}
