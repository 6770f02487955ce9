/**
 * Web push (docs/protocol.md section 34): a browser's PushSubscription (its `endpoint` and the
 * `keys` of RFC 8291) sent by a signed-in user, and the server's VAPID public key (RFC 8292) that
 * the browser subscribes with. A subscription belongs to one signed-in session on one device.
 */
import { z } from 'zod';
import { text } from '../schema.js';

/** The longest endpoint accepted (push services' URLs are a few hundred characters). */
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

/** Bytes of a P-256 public key, uncompressed (0x04, x, y): the subscription's `p256dh`. */
export const P256DH_BYTES = 65;
/** Bytes of the subscription's authentication secret (`auth`). */
export const PUSH_AUTH_BYTES = 16;

/** The bytes of a base64url string (padding allowed), or null when it is not base64url. */
export function base64UrlBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return null;
  const plain = value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (plain.length % 4 === 1) return null;
  try {
    const binary = atob(plain.padEnd(Math.ceil(plain.length / 4) * 4, '='));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** An absolute http(s) URL: whether http is allowed (loopback, development) is the server's rule. */
const endpointSchema = text({ max: PUSH_ENDPOINT_MAX_LENGTH }).refine(
  (value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === ''
      );
    } catch {
      return false;
    }
  },
  { error: 'server.push_endpoint_invalid' },
);

export const pushKeysSchema = z.object(
  {
    /** The browser's P-256 public key, uncompressed, base64url. */
    p256dh: text({ max: 128 }).refine(
      (value) => {
        const bytes = base64UrlBytes(value);
        return bytes !== null && bytes.length === P256DH_BYTES && bytes[0] === 4;
      },
      { error: 'server.push_key_invalid' },
    ),
    /** The browser's 16-byte authentication secret, base64url. */
    auth: text({ max: 64 }).refine(
      (value) => {
        const bytes = base64UrlBytes(value);
        return bytes !== null && bytes.length === PUSH_AUTH_BYTES;
      },
      { error: 'server.push_key_invalid' },
    ),
  },
  {
    error: (issue) => (issue.input === undefined ? 'server.field_required' : 'server.field_wrong_type'),
  },
);

/** `PushSubscription.toJSON()` as the browser gives it (`expirationTime` may come along and is not kept). */
export const pushSubscribeParamsSchema = z.object({
  endpoint: endpointSchema,
  keys: pushKeysSchema,
});
export type PushSubscribeParams = z.infer<typeof pushSubscribeParamsSchema>;

export const pushUnsubscribeParamsSchema = z.object({ endpoint: endpointSchema });
export type PushUnsubscribeParams = z.infer<typeof pushUnsubscribeParamsSchema>;

/** The VAPID public key (uncompressed P-256, base64url): PushManager.subscribe's applicationServerKey. */
export const pushKeyDataSchema = z.object({ publicKey: z.string() });
export type PushKeyData = z.infer<typeof pushKeyDataSchema>;

/**
 * What every push carries, JSON in the encrypted payload: shown as a notification (`title`,
 * `body`); a tap opens `url`, an app route such as `/#/pages/withdraw_record/withdraw_record`.
 */
export const pushPayloadSchema = z.object({ title: z.string(), body: z.string(), url: z.string() });
export type PushPayload = z.infer<typeof pushPayloadSchema>;
