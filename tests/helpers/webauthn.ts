/**
 * A software WebAuthn authenticator for API tests, written from the WebAuthn Level 2 spec: an
 * ES256 key pair from node:crypto, attestation "none", authenticator data and the few CBOR
 * shapes they need (RFC 8949: unsigned and negative integers, byte and text strings, maps).
 */
import crypto from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** CBOR of numbers (integers), text, bytes and maps (keys in the order given). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Relying {
  rpId: string;
  origin: string;
}

/** One discoverable ES256 credential on a software authenticator that counts its signatures. */
export class SoftPasskey {
  readonly credentialId = crypto.randomBytes(32);
  readonly #keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** The signature counter the next assertion reports (set it to go backwards). */
  counter = 0;
  userHandle = '';

  constructor(private readonly relying: Relying) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  #cosePublicKey(): Buffer {
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  }

  #clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  #authData(flags: number, counter: number, attested?: Buffer, rpId = this.relying.rpId): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** This platform authenticator's credential JSON around `response`, which follows its clientDataJSON. */
  #credential(clientData: Buffer, response: Record<string, unknown>): Record<string, unknown> {
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), ...response },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** What startRegistration answers to `options` (PublicKeyCredentialCreationOptionsJSON). */
  register(
    options: { challenge: string; user: { id: string } },
    overrides: { origin?: string } = {},
  ): Record<string, unknown> {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.#cosePublicKey()]);
    const authData = this.#authData(FLAG_UP | FLAG_UV | FLAG_AT, this.counter, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = this.#clientData(
      'webauthn.create',
      options.challenge,
      overrides.origin ?? this.relying.origin,
    );
    return this.#credential(clientData, {
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /** What startAuthentication answers to `options`; the counter moves up by one first unless `counter` is given. */
  assert(
    options: { challenge: string },
    overrides: { origin?: string; counter?: number } = {},
  ): Record<string, unknown> {
    this.counter = overrides.counter ?? this.counter + 1;
    const authData = this.#authData(FLAG_UP | FLAG_UV, this.counter);
    const clientData = this.#clientData(
      'webauthn.get',
      options.challenge,
      overrides.origin ?? this.relying.origin,
    );
    const signature = crypto.sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.#keys.privateKey,
    );
    return this.#credential(clientData, {
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: this.userHandle,
    });
  }
}
