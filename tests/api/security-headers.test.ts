/**
 * Security headers on every page and answer: the strict Content-Security-Policy,
 * no framing, no sniffing, no referrer, HSTS only behind TLS, and no cookie anywhere; and the
 * run-time client configuration at /client-config.json, which follows this start's environment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_CONFIG_PATH, clientConfigSchema } from '../../contract/client-config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TRUSTED_PROXY = '127.0.0.1';
const STRANGER = '203.0.113.9';

function expectSecurityHeaders(response: LightMyRequestResponse, name: string): void {
  const csp = String(response.headers['content-security-policy']);
  const directives = new Map(
    csp.split(';').map((directive) => {
      const [key = '', ...values] = directive.trim().split(/\s+/);
      return [key, values.join(' ')] as const;
    }),
  );
  expect(directives.get('script-src'), `${name}: script-src`).toBe("'self'");
  expect(directives.get('default-src'), `${name}: default-src`).toBe("'self'");
  expect(directives.get('connect-src'), `${name}: connect-src`).toBe("'self'");
  expect(directives.get('worker-src'), `${name}: worker-src`).toBe("'self'");
  expect(directives.get('frame-ancestors'), `${name}: frame-ancestors`).toBe("'none'");
  expect(directives.get('object-src'), `${name}: object-src`).toBe("'none'");
  expect(csp, `${name}: no unsafe script source`).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  expect(response.headers['x-frame-options'], name).toBe('DENY');
  expect(response.headers['x-content-type-options'], name).toBe('nosniff');
  expect(response.headers['referrer-policy'], name).toBe('no-referrer');
  expect(response.headers['set-cookie'], `${name}: no cookie`).toBeUndefined();
  expect(response.headers['x-powered-by'], name).toBeUndefined();
}

describe('security headers', () => {
  let t: TestServer;
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-headers-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(distDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Coffer</title>');
    fs.writeFileSync(path.join(distDir, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
    fs.writeFileSync(path.join(distDir, 'assets', 'app-Ab12Cd34.js'), 'export const app = 1;\n');
    t = await startTestServer(
      'pglite',
      {
        COFFER_TRUST_PROXY: TRUSTED_PROXY,
        COFFER_GATEWAY_SEGMENT: 'gate7',
        COFFER_UPLOAD_SEGMENT: 'files7',
      },
      distDir,
    );
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}, remoteAddress = STRANGER) =>
    t.server.app.inject({ method: 'GET', url, headers, remoteAddress });
  const post = (url: string, contentType: string, payload: string) =>
    t.server.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': contentType },
      payload,
      remoteAddress: STRANGER,
    });

  test('an API answer, an error answer, the shell, a static asset, the service worker and the client configuration all carry them', async () => {
    const answers = {
      'an API answer': await get('/api/v1/common/version'),
      'a refusal (401 in the body)': await get('/api/v1/user/info'),
      'an unknown API path': await get('/api/v1/no-such-route'),
      'a malformed URL': await get('/api/v1/%E0%A4%A'),
      'malformed JSON (HTTP 400)': await post('/api/v1/common/version', 'application/json', '{"broken'),
      'a refused envelope': await post(
        '/api/gate7',
        'application/x-www-form-urlencoded',
        'handshake=x&timestamp=1&sign=y&data=z',
      ),
      'the shell': await get('/'),
      'index.html': await get('/index.html'),
      'a hashed asset': await get('/assets/app-Ab12Cd34.js'),
      'the service worker': await get('/sw.js'),
      'a public file': await get('/avatars/01.svg'),
      'a missing file': await get('/assets/nope.js'),
      'the client configuration': await get(CLIENT_CONFIG_PATH),
      'the health check': await get('/api/health'),
    };
    expect(answers['an API answer'].statusCode).toBe(200);
    expect(JSON.parse(answers['a refusal (401 in the body)'].body)).toMatchObject({ code: 401 });
    expect(JSON.parse(answers['an unknown API path'].body)).toMatchObject({ code: 404 });
    expect(answers['a missing file'].statusCode).toBe(404);
    expect(JSON.parse(answers['a refused envelope'].body)).toMatchObject({ code: 460 });
    expect(answers['the service worker'].statusCode).toBe(200);
    expect(answers['a hashed asset'].statusCode).toBe(200);
    for (const [name, response] of Object.entries(answers)) expectSecurityHeaders(response, name);
  });

  test('HSTS only behind TLS: absent over plain HTTP, present when a trusted proxy forwards https, absent when anyone else claims it', async () => {
    const plain = await get('/api/v1/common/version', {}, TRUSTED_PROXY);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forwarded = await get('/', { 'x-forwarded-proto': 'https' }, TRUSTED_PROXY);
    expect(forwarded.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const forwardedApi = await get('/api/v1/user/info', { 'x-forwarded-proto': 'https' }, TRUSTED_PROXY);
    expect(forwardedApi.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
    const spoofed = await get('/', { 'x-forwarded-proto': 'https' }, STRANGER);
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  test('the client configuration names this start’s gateway and upload segments and transport, and is never cached', async () => {
    const response = await get(CLIENT_CONFIG_PATH);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(clientConfigSchema.parse(JSON.parse(response.body))).toEqual({
      transport: 'envelope',
      gatewayPath: '/api/gate7',
      uploadPath: '/api/files7',
    });
  });
});

describe('the client configuration under other settings', () => {
  test('COFFER_CLIENT_TRANSPORT=plain tells the app to speak plain JSON; X-Forwarded-Proto counts for no one when no proxy is trusted', async () => {
    const t = await startTestServer('pglite', { COFFER_CLIENT_TRANSPORT: 'plain' });
    try {
      const response = await t.server.app.inject({ method: 'GET', url: CLIENT_CONFIG_PATH });
      expect(JSON.parse(response.body)).toEqual({
        transport: 'plain',
        gatewayPath: '/api/gw',
        uploadPath: '/api/up',
      });
      const spoofed = await t.server.app.inject({
        method: 'GET',
        url: '/api/v1/common/version',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
