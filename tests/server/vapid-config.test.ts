/**
 * Web push's VAPID key pair (docs/protocol.md section 34): COFFER_VAPID_PUBLIC_KEY and
 * COFFER_VAPID_PRIVATE_KEY go together; production refuses to start without them; development
 * without them generates a pair into DATA_DIR once and keeps it (subscriptions are bound to it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { DEV_VAPID_KEYS_FILE, devVapidKeys } from '../../server/security/vapid.js';
import { accountXpub } from '../../server/chains/addresses.js';
import { ok } from '../helpers/operator.js';
import { startTestServer } from '../helpers/server.js';

const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PRODUCTION = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://mail:25',
  CHAIN_BEP20_XPUB: accountXpub(MNEMONIC, 'BEP20'),
  CHAIN_TRC20_XPUB: accountXpub(MNEMONIC, 'TRC20'),
  COFFER_SECRET_KEY: '11'.repeat(32),
};
const PAIR = webpush.generateVAPIDKeys();

describe('VAPID keys', () => {
  test('production refuses to start without COFFER_VAPID_PUBLIC_KEY and COFFER_VAPID_PRIVATE_KEY, naming both and how to make a pair', () => {
    expect(() => loadConfig(PRODUCTION)).toThrow(ConfigError);
    expect(() => loadConfig(PRODUCTION)).toThrow(
      /COFFER_VAPID_PUBLIC_KEY and COFFER_VAPID_PRIVATE_KEY are required when NODE_ENV=production.*generate-vapid-keys/,
    );
    const config = loadConfig({
      ...PRODUCTION,
      COFFER_VAPID_PUBLIC_KEY: PAIR.publicKey,
      COFFER_VAPID_PRIVATE_KEY: PAIR.privateKey,
    });
    expect(config.vapidKeys).toEqual(PAIR);
  });

  test('the two go together, and each must be a P-256 key in base64url', () => {
    expect(() => loadConfig({ COFFER_VAPID_PUBLIC_KEY: PAIR.publicKey })).toThrow(/go together/);
    expect(() => loadConfig({ COFFER_VAPID_PRIVATE_KEY: PAIR.privateKey })).toThrow(/go together/);
    expect(() =>
      loadConfig({ COFFER_VAPID_PUBLIC_KEY: 'not-a-key', COFFER_VAPID_PRIVATE_KEY: PAIR.privateKey }),
    ).toThrow(/COFFER_VAPID_PUBLIC_KEY/);
    expect(() =>
      loadConfig({ COFFER_VAPID_PUBLIC_KEY: PAIR.publicKey, COFFER_VAPID_PRIVATE_KEY: PAIR.publicKey }),
    ).toThrow(/COFFER_VAPID_PRIVATE_KEY/);
    expect(loadConfig({}).vapidKeys).toBeUndefined();
  });

  test('the VAPID subject is COFFER_VAPID_SUBJECT, else an https COFFER_PUBLIC_URL, else a mailto: of MAIL_FROM', () => {
    expect(loadConfig({}).vapidSubject).toBe('mailto:no-reply@coffer.local');
    expect(loadConfig({ MAIL_FROM: 'Ops <ops@example.com>' }).vapidSubject).toBe('mailto:ops@example.com');
    expect(loadConfig({ COFFER_PUBLIC_URL: 'https://coffer.example.com/app' }).vapidSubject).toBe(
      'https://coffer.example.com',
    );
    expect(loadConfig({ COFFER_VAPID_SUBJECT: 'mailto:push@example.com' }).vapidSubject).toBe(
      'mailto:push@example.com',
    );
    expect(() => loadConfig({ COFFER_VAPID_SUBJECT: 'http://insecure.example' })).toThrow(
      /COFFER_VAPID_SUBJECT/,
    );
  });

  test('without keys, development generates a pair into DATA_DIR once (mode 0600), keeps it, and refuses a damaged file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-vapid-'));
    const warnings: string[] = [];
    const first = devVapidKeys(dir, (line) => warnings.push(line));
    const second = devVapidKeys(dir, () => {});
    expect(second).toEqual(first);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect(fs.statSync(path.join(dir, DEV_VAPID_KEYS_FILE)).mode & 0o777).toBe(0o600);
    expect(warnings.join('\n')).toMatch(/COFFER_VAPID_PUBLIC_KEY/);
    fs.writeFileSync(path.join(dir, DEV_VAPID_KEYS_FILE), '{"publicKey": "x"}');
    expect(() => devVapidKeys(dir, () => {})).toThrow(/does not hold a VAPID key pair/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a development server serves the pair it generated into DATA_DIR; a configured pair is served as it is', async () => {
    const generated = await startTestServer('pglite');
    try {
      const served = ok(await generated.call<{ publicKey: string }>('plain', '/api/v1/push/key'), 'key');
      const file = JSON.parse(fs.readFileSync(path.join(generated.dataDir, DEV_VAPID_KEYS_FILE), 'utf8')) as {
        publicKey: string;
      };
      expect(served.publicKey).toBe(file.publicKey);
      expect(devVapidKeys(generated.dataDir, () => {}).publicKey).toBe(served.publicKey);
    } finally {
      await generated.close();
    }
    const configured = await startTestServer('pglite', {
      COFFER_VAPID_PUBLIC_KEY: PAIR.publicKey,
      COFFER_VAPID_PRIVATE_KEY: PAIR.privateKey,
    });
    try {
      const served = ok(await configured.call<{ publicKey: string }>('plain', '/api/v1/push/key'), 'key');
      expect(served.publicKey).toBe(PAIR.publicKey);
      expect(fs.existsSync(path.join(configured.dataDir, DEV_VAPID_KEYS_FILE))).toBe(false);
    } finally {
      await configured.close();
    }
  });
});
