/**
 * A push service on loopback (what Chrome's or Firefox's push service is to a real server): it
 * hands out browser-like subscriptions (a P-256 key pair and an auth secret made here with
 * node:crypto), takes the server's POSTs over plain HTTP on 127.0.0.1, checks each one's VAPID
 * signature (RFC 8292) and decrypts its payload (RFC 8291, aes128gcm of RFC 8188) with the
 * subscription's private keys, by this file's own implementation, not the server's library.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback } from './loopback.js';

/** A browser's side of one subscription: what it sends the server, and the secrets it keeps. */
export interface TestSubscription {
  /** What PushSubscription.toJSON() gives: sent to /api/v1/push/subscribe. */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  endpoint: string;
  ecdh: crypto.ECDH;
  authSecret: Buffer;
}

/** One push the service took, decrypted. */
export interface ReceivedPush {
  endpoint: string;
  /** The decrypted payload's text. */
  text: string;
  headers: http.IncomingHttpHeaders;
  /** The VAPID claims, once the signature checked out against the `k` key. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
}

const b64url = (bytes: Buffer | Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * RFC 8291 section 3.4 and RFC 8188: decrypts an aes128gcm body sent to the holder of
 * `ecdh` (the user agent's key pair) and `authSecret`. Throws on any mismatch.
 */
export function decryptAes128gcm(body: Buffer, ecdh: crypto.ECDH, authSecret: Buffer): Buffer {
  if (body.length < 21) throw new Error('aes128gcm: body shorter than its header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (idLength !== 65 || senderPublic[0] !== 4) throw new Error('aes128gcm: keyid is not a P-256 public key');
  if (records.length > recordSize) throw new Error('aes128gcm: more than one record');
  const receiverPublic = ecdh.getPublicKey();
  const ecdhSecret = ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with 0x02 and then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (end < 0 || padded[end] !== 2) throw new Error('aes128gcm: no last-record delimiter');
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>` (ES256 over the JWT with key k); answers the claims. */
export function verifyVapid(header: string | undefined): ReceivedPush['vapid'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${header}`);
  const [head = '', claims = '', signature = ''] = match[1].split('.');
  const raw = Buffer.from(match[2], 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('VAPID k is not an uncompressed P-256 key');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) },
    format: 'jwk',
  });
  const valid = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('VAPID signature does not verify');
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  if (header_.alg !== 'ES256') throw new Error(`VAPID alg ${header_.alg}`);
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  return { ...parsed, publicKey: match[2] };
}

export class LoopbackPushService {
  readonly received: ReceivedPush[] = [];
  /** Refusals: POSTs that failed a check here (a wrong key, a bad signature). */
  readonly refused: string[] = [];
  readonly #subscriptions = new Map<string, TestSubscription>();
  /** The HTTP status each endpoint answers (201 unless set). */
  readonly #answers = new Map<string, number>();
  #next = 0;

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<LoopbackPushService> {
    const server = http.createServer();
    const port = await listenOnLoopback(server);
    const service = new LoopbackPushService(server, `http://127.0.0.1:${port}`);
    server.on('request', (request, response) => service.#take(request, response));
    return service;
  }

  /** A new browser subscription on this service (a fresh key pair and auth secret). */
  subscribe(): TestSubscription {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = crypto.randomBytes(16);
    this.#next += 1;
    const endpoint = `${this.origin}/push/${this.#next}-${crypto.randomBytes(8).toString('hex')}`;
    const subscription: TestSubscription = {
      endpoint,
      ecdh,
      authSecret,
      json: { endpoint, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(authSecret) } },
    };
    this.#subscriptions.set(new URL(endpoint).pathname, subscription);
    return subscription;
  }

  /** Makes `endpoint` answer `status` from now on (404 or 410: the browser unsubscribed). */
  answer(endpoint: string, status: number): void {
    this.#answers.set(new URL(endpoint).pathname, status);
  }

  /** The decrypted payloads (parsed JSON) that reached `endpoint`, in order. */
  payloadsOf(endpoint: string): unknown[] {
    return this.received.filter((push) => push.endpoint === endpoint).map((push) => JSON.parse(push.text));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  #take(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const subscription = this.#subscriptions.get(path);
      const status = this.#answers.get(path) ?? 201;
      if (!subscription || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      if (status !== 201) {
        response.writeHead(status).end();
        return;
      }
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        if (!request.headers['ttl']) throw new Error('no TTL');
        const vapid = verifyVapid(request.headers['authorization']);
        const text = decryptAes128gcm(
          Buffer.concat(chunks),
          subscription.ecdh,
          subscription.authSecret,
        ).toString('utf8');
        this.received.push({ endpoint: subscription.endpoint, text, headers: request.headers, vapid });
        response.writeHead(201).end();
      } catch (error) {
        this.refused.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
        response.writeHead(400).end();
      }
    });
  }
}
