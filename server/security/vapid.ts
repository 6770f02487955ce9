/**
 * The server's VAPID key pair (RFC 8292): push services accept our pushes only when signed with
 * the private key whose public key the browser subscribed with. From COFFER_VAPID_PUBLIC_KEY and
 * COFFER_VAPID_PRIVATE_KEY (server/config.ts); without them a development start generates a pair
 * once into the data directory and keeps it (a new pair would orphan every subscription), and
 * production refuses to start.
 */
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { base64UrlBytes } from '../../contract/api/push.js';

/** The development pair's file in the data directory. */
export const DEV_VAPID_KEYS_FILE = 'vapid-dev-keys.json';

export interface VapidKeys {
  /** Uncompressed P-256 public key (65 bytes), base64url. */
  publicKey: string;
  /** P-256 private scalar (32 bytes), base64url. */
  privateKey: string;
}

/** Whether `value` is an uncompressed P-256 public key in base64url. */
export function isVapidPublicKey(value: string): boolean {
  const bytes = base64UrlBytes(value.trim());
  return bytes !== null && bytes.length === 65 && bytes[0] === 4;
}

/** Whether `value` is a 32-byte private key in base64url. */
export function isVapidPrivateKey(value: string): boolean {
  const bytes = base64UrlBytes(value.trim());
  return bytes !== null && bytes.length === 32;
}

const keysFileSchema = z.object({
  publicKey: z.string().refine(isVapidPublicKey),
  privateKey: z.string().refine(isVapidPrivateKey),
});

/**
 * The development pair in `<dataDir>/vapid-dev-keys.json`, generated on first use (mode 0600,
 * exclusive create so two processes starting at once end with one pair). A file that does not
 * hold a pair is an error, never replaced: the browsers' subscriptions were made with it.
 */
export function devVapidKeys(dataDir: string, warn: (line: string) => void): VapidKeys {
  const file = path.join(dataDir, DEV_VAPID_KEYS_FILE);
  const read = (): VapidKeys | undefined => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // `as`: fs errors carry a code
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const keys = keysFileSchema.safeParse(parsed);
    if (!keys.success)
      throw new Error(`${file} does not hold a VAPID key pair; fix or remove it (development only)`);
    return keys.data;
  };
  let keys = read();
  if (!keys) {
    fs.mkdirSync(dataDir, { recursive: true });
    const generated = webpush.generateVAPIDKeys();
    try {
      fs.writeFileSync(
        file,
        `${JSON.stringify({ publicKey: generated.publicKey, privateKey: generated.privateKey }, null, 2)}\n`,
        { mode: 0o600, flag: 'wx' },
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // `as`: fs errors carry a code
    }
    keys = read();
    if (!keys) throw new Error(`could not create ${file}`);
  }
  warn(
    `!!! No COFFER_VAPID_PUBLIC_KEY / COFFER_VAPID_PRIVATE_KEY configured: web push signs with a development key pair in ${file}.`,
  );
  return keys;
}
