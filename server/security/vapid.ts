/**
 * The server's VAPID key pair (RFC 8292): push services accept our pushes only when signed with
 * the private key whose public key the browser subscribed with. From COFFER_VAPID_PUBLIC_KEY and
 * COFFER_VAPID_PRIVATE_KEY (server/config.ts); without them a development start generates a pair
 * once into the data directory and keeps it (a new pair would orphan every subscription), and
 * production refuses to start.
 */
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { base64UrlBytes } from '../../contract/api/push.js';
import { devKeyFile } from './dev-key-file.js';

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

const jsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

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
  const keys = devKeyFile(
    file,
    'a VAPID key pair',
    (text) => keysFileSchema.safeParse(jsonOrNull(text)).data,
    () => {
      const { publicKey, privateKey } = webpush.generateVAPIDKeys();
      return `${JSON.stringify({ publicKey, privateKey }, null, 2)}\n`;
    },
  );
  warn(
    `!!! No COFFER_VAPID_PUBLIC_KEY / COFFER_VAPID_PRIVATE_KEY configured: web push signs with a development key pair in ${file}.`,
  );
  return keys;
}
