/** The app is served beside the API on one port: compressed, long-cached when hashed, never cached when not. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APP_VERSION, APP_VERSION_CODE } from '../../contract/constants.js';
import { firstPageFile, SCRIPT_NONCE_PLACEHOLDER } from '../../contract/first-page.js';
import { RELEASE_FILE, releaseOf } from '../../contract/release.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('static files', () => {
  let t: TestServer;
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-dist-'));
  const distAssets = path.join(distDir, 'assets');
  const probe = path.join(distAssets, 'static-probe-Ab12Cd34.js');
  beforeAll(async () => {
    fs.mkdirSync(distAssets, { recursive: true });
    fs.writeFileSync(probe, `export const probe = ${JSON.stringify('x'.repeat(4000))};\n`);
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Coffer</title>');
    t = await startTestServer('pglite', {}, distDir);
  });
  afterAll(async () => {
    fs.rmSync(distDir, { recursive: true, force: true });
    await t.close();
  });

  test('hashed assets are compressed and cached for a year; public files are revalidated', async () => {
    const asset = await t.server.app.inject({
      method: 'GET',
      url: '/assets/static-probe-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const avatar = await t.server.app.inject({ method: 'GET', url: '/avatars/01.svg' });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['cache-control']).toBe('no-cache');
  });

  test('the shell at / is never cached (an update must reach the next start), and static paths never shadow the API', async () => {
    const shell = await t.server.app.inject({ method: 'GET', url: '/' });
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain('<title>Coffer</title>');
    expect(shell.headers['cache-control']).toMatch(/no-cache/);
    const api = await t.server.app.inject({ method: 'GET', url: '/api/v1/common/version' });
    expect(JSON.parse(api.body)).toMatchObject({ code: 200 });
    const missing = await t.server.app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
  });

  test('spec section 4: /api/v1/common/version answers the hot version of the build it serves, read at each call (a deployment in place is seen at once)', async () => {
    const version = async () =>
      JSON.parse((await t.server.app.inject({ method: 'GET', url: '/api/v1/common/version' })).body) as {
        data: Record<string, unknown>;
      };
    const releaseFile = path.join(distDir, RELEASE_FILE);
    fs.rmSync(releaseFile, { force: true });
    expect((await version()).data).toEqual({
      version: APP_VERSION,
      version_code: APP_VERSION_CODE,
      hot_version_code: APP_VERSION_CODE,
      package_url: '/#/pages/download/download',
      hot_package_url: '/',
    });
    fs.writeFileSync(releaseFile, JSON.stringify(releaseOf(String(APP_VERSION_CODE + 3))));
    expect((await version()).data).toMatchObject({
      version_code: APP_VERSION_CODE,
      hot_version_code: APP_VERSION_CODE + 3,
    });
    fs.writeFileSync(releaseFile, '{not json');
    expect((await version()).data).toMatchObject({ hot_version_code: APP_VERSION_CODE });
    fs.rmSync(releaseFile);
  });

  test('issue 26: / answers the first page drawn in the language Accept-Language picks, its gate allowed by a fresh nonce; without one, the shell', async () => {
    fs.mkdirSync(path.join(distDir, 'first'), { recursive: true });
    for (const locale of ['en', 'ja'])
      fs.writeFileSync(
        path.join(distDir, firstPageFile(locale)),
        `<!doctype html><html lang="${locale}"><script nonce="${SCRIPT_NONCE_PLACEHOLDER}">gate</script>`,
      );
    const first = async (acceptLanguage: string) => {
      const answer = await t.server.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'accept-language': acceptLanguage },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['vary']).toMatch(/accept-language/i);
      expect(answer.headers['cache-control']).toMatch(/no-cache/);
      return answer;
    };
    const japanese = await first('fr-CA, ja;q=0.9, en;q=0.8');
    expect(japanese.body).toContain('<html lang="ja">');
    const nonce = /<script nonce="([^"]+)">/.exec(japanese.body)?.[1];
    expect(nonce).toBeDefined();
    expect(nonce).not.toBe(SCRIPT_NONCE_PLACEHOLDER);
    const policy = String(japanese.headers['content-security-policy']);
    const scriptSources = policy.split(';').find((directive) => directive.startsWith('script-src'));
    expect(scriptSources).toBe(`script-src 'self' 'nonce-${nonce}'`);
    expect(policy).toMatch(/style-src 'self'(;|$)/);
    const again = await first('en-US,en;q=0.9');
    expect(again.body).toContain('<html lang="en">');
    expect(/<script nonce="([^"]+)">/.exec(again.body)?.[1]).not.toBe(nonce);
    // zh-Hans, the default, has no drawn page here: the plain shell, under the ordinary policy.
    const shell = await first('de-DE');
    expect(shell.body).toContain('<title>Coffer</title>');
    expect(String(shell.headers['content-security-policy'])).not.toContain('nonce-');
    fs.rmSync(path.join(distDir, 'first'), { recursive: true });
  });
});
