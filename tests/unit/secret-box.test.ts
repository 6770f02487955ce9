/** Authenticator secrets at rest: AES-256-GCM under COFFER_SECRET_KEY, bound to whose secret it is. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEV_SECRET_KEY_FILE, SecretBox, devSecretKey } from '../../server/security/secret-box.js';

const box = new SecretBox(Buffer.alloc(32, 7));

describe('the secret box', () => {
  test('a sealed secret opens for its own context only, and each seal uses a new nonce', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'totp:1')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'totp:1')).not.toBe(sealed);
    expect(() => box.open(sealed, 'totp:2')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, 'totp:1')).toThrow();
  });
  test('an altered ciphertext, nonce or tag is refused (authenticated encryption)', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:1');
    const parts = sealed.split('.');
    for (const index of [1, 2, 3]) {
      const altered = [...parts];
      const bytes = Buffer.from(altered[index] ?? '', 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      altered[index] = bytes.toString('base64url');
      expect(() => box.open(altered.join('.'), 'totp:1')).toThrow();
    }
    expect(() => box.open('plain-text', 'totp:1')).toThrow();
  });
  test('without a configured key, development generates one into DATA_DIR once (mode 0600) with a warning', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-key-'));
    const warnings: string[] = [];
    const first = devSecretKey(dir, (line) => warnings.push(line));
    const second = devSecretKey(dir, () => {});
    expect(first.equals(second)).toBe(true);
    expect(first).toHaveLength(32);
    expect(fs.statSync(path.join(dir, DEV_SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(warnings.join('\n')).toMatch(/COFFER_SECRET_KEY/);
    fs.writeFileSync(path.join(dir, DEV_SECRET_KEY_FILE), 'garbage');
    expect(() => devSecretKey(dir, () => {})).toThrow(/does not hold/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
