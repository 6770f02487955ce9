import { createCipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import * as server from '../../server/http/envelope-codec.js';
import * as client from '../../worker/envelope.js';
import vectorFile from '../vectors/envelope.json' with { type: 'json' };

const { vectors } = vectorFile;
const first = vectors[0];
if (first === undefined) {
  throw new Error('tests/vectors/envelope.json holds no vectors');
}

const ivOf = (hex: string): Buffer => Buffer.from(hex, 'hex');

/** Deterministic PRNG (mulberry32), so a failing random case can be reproduced. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random well-formed strings: ASCII, Latin-1, CJK, Thai, emoji (astral), lengths 0..79. */
function randomUnicode(rand: () => number): string {
  const ranges: ReadonlyArray<readonly [number, number]> = [
    [0x20, 0x7e],
    [0x00, 0x1f],
    [0xa0, 0xff],
    [0x4e00, 0x9fff],
    [0x0e01, 0x0e5b],
    [0x1f300, 0x1f64f],
    [0xe000, 0xf8ff],
  ];
  const length = Math.floor(rand() * 80);
  let out = '';
  for (let i = 0; i < length; i++) {
    const range = ranges[Math.floor(rand() * ranges.length)] ?? [0x20, 0x7e];
    out += String.fromCodePoint(range[0] + Math.floor(rand() * (range[1] - range[0] + 1)));
  }
  return out;
}

/** Flips one bit of the decoded byte at `index` (negative counts from the end). */
function flipByte(data: string, index: number): string {
  const raw = Buffer.from(data, 'base64');
  const at = index < 0 ? raw.length + index : index;
  raw[at] = (raw[at] ?? 0) ^ 0x01;
  return raw.toString('base64');
}

describe('shared vectors', () => {
  test('the vector file holds at least 4 vectors, including a full-padding block and non-ASCII text', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(4);
    expect(vectors.some((v) => Buffer.byteLength(v.plaintext, 'utf8') % 16 === 0)).toBe(true);
    expect(
      vectors.some((v) => /[\u4e00-\u9fff]/.test(v.plaintext) && /[\u0e00-\u0e7f]/.test(v.plaintext)),
    ).toBe(true);
  });

  test('the node:crypto server seals every vector to exactly its data', () => {
    for (const v of vectors) {
      expect(server.seal(v.plaintext, v.handshake, ivOf(v.ivHex)), v.name).toBe(v.data);
    }
  });

  test('the crypto-js client and the node:crypto server produce the same ciphertext for the shared vectors', () => {
    for (const v of vectors) {
      expect(client.seal(v.plaintext, v.handshake, new Uint8Array(ivOf(v.ivHex))), v.name).toBe(v.data);
    }
  });

  test('both codecs open every vector back to its plaintext (the client with crypto-js and with WebCrypto)', async () => {
    for (const v of vectors) {
      expect(server.open(v.data, v.handshake), v.name).toBe(v.plaintext);
      expect(client.open(v.data, v.handshake), v.name).toBe(v.plaintext);
      expect(await client.openAsync(v.data, v.handshake), v.name).toBe(v.plaintext);
    }
  });

  test('both codecs compute every vector sign', () => {
    for (const v of vectors) {
      expect(server.signOf(v.data, v.timestamp, v.handshake), v.name).toBe(v.sign);
      expect(client.signOf(v.data, v.timestamp, v.handshake), v.name).toBe(v.sign);
    }
  });

  test('sealRequest with a fixed handshake and iv reproduces the worked example on both sides', () => {
    const inner: server.EnvelopeInner = {
      method: 'POST',
      uri: '/api/v1/account/switch',
      headers: {
        Authorization: 'Bearer tok_8Jd2kQ7pLxV4nR6s',
        lang: 'en',
        'Idempotency-Key': '6f1c2b9e-4d7a-4e35-9b0c-2a8f5d3e7c41',
      },
      params: { accountId: '2' },
    };
    expect(JSON.stringify(inner)).toBe(first.plaintext);
    const expected = {
      handshake: first.handshake,
      timestamp: first.timestamp,
      sign: first.sign,
      data: first.data,
    };
    const seconds = Number(first.timestamp);
    expect(
      server.sealRequest(inner, new Date(seconds * 1000 + 999), {
        handshake: first.handshake,
        iv: ivOf(first.ivHex),
      }),
    ).toEqual(expected);
    expect(
      client.sealRequest(inner, seconds + 0.5, {
        handshake: first.handshake,
        iv: new Uint8Array(ivOf(first.ivHex)),
      }),
    ).toEqual(expected);
  });
});

describe('cross-compatibility with random input', () => {
  const rand = prng(0xc0ffee);
  const samples = Array.from({ length: 50 }, () => randomUnicode(rand));

  test('what the crypto-js client seals under a random iv, the node:crypto server opens', () => {
    for (const text of samples) {
      const handshake = client.randomHandshake();
      expect(server.open(client.seal(text, handshake), handshake)).toBe(text);
    }
  });

  test('what the node:crypto server seals under a random iv, the crypto-js client opens', () => {
    for (const text of samples) {
      const handshake = server.randomHandshake();
      expect(client.open(server.seal(text, handshake), handshake)).toBe(text);
    }
  });

  test('both codecs agree byte for byte on random text under the same handshake and iv', () => {
    for (const text of samples) {
      const handshake = server.randomHandshake();
      const iv = new Uint8Array(randomBytes(16));
      expect(client.seal(text, handshake, iv)).toBe(server.seal(text, handshake, Buffer.from(iv)));
    }
  });

  test('a client request envelope opens and verifies on the server, and a server answer opens on the client', async () => {
    const inner: client.EnvelopeInner = {
      method: 'POST',
      uri: '/api/v1/sync/pull',
      headers: { lang: 'th', 'Idempotency-Key': '9d3f0c1a-2b4e-4a6f-8e1d-7c5b3a2f1e0d' },
      params: { cursors: { news: 'n_42' }, note: 'ไทย 中文 🙂' },
    };
    const fields = client.sealRequest(inner, 1767225600);
    expect(fields.handshake).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(fields.timestamp).toBe('1767225600');
    expect(
      server.signMatches(server.signOf(fields.data, fields.timestamp, fields.handshake), fields.sign),
    ).toBe(true);
    expect(JSON.parse(server.open(fields.data, fields.handshake))).toEqual(inner);

    const answerText = JSON.stringify({ code: 200, message: 'OK', data: { hasMore: false } });
    const answerHandshake = server.randomHandshake();
    const answer = { code: 200, handshake: answerHandshake, data: server.seal(answerText, answerHandshake) };
    expect(await client.openAnswer(answer)).toBe(answerText);
    expect(server.openAnswer(answer)).toBe(answerText);
  });

  test('a retry is a new envelope: sealing the same inner call twice gives a new handshake, data and sign', () => {
    const inner: client.EnvelopeInner = { method: 'GET', uri: '/api/v1/user/info', headers: {}, params: {} };
    const a = client.sealRequest(inner, 1767225600);
    const b = client.sealRequest(inner, 1767225600);
    expect(a.handshake).not.toBe(b.handshake);
    expect(a.data).not.toBe(b.data);
    expect(a.sign).not.toBe(b.sign);
  });
});

/** A padded vector whose symbol before the padding has a bit set past the last byte: lenient decoders read the same bytes. */
function nonCanonical() {
  const padded = vectors.find((vector) => vector.data.endsWith('='));
  if (padded === undefined) throw new Error('no vector whose data ends with padding');
  const at = padded.data.length - (padded.data.endsWith('==') ? 3 : 2);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bumped = alphabet.charAt(alphabet.indexOf(padded.data.charAt(at)) + 1);
  return { padded, data: padded.data.slice(0, at) + bumped + padded.data.slice(at + 1) };
}

describe('refusals', () => {
  const v = first;
  const raw = Buffer.from(v.data, 'base64');
  const refused: ReadonlyArray<readonly [string, string, string]> = [
    ['a flipped bit in the last ciphertext block', flipByte(v.data, -1), v.handshake],
    ['a flipped bit in the second-to-last block (corrupts the padding)', flipByte(v.data, -17), v.handshake],
    ['the wrong handshake', v.data, 'k3Xq9LmZ2vBn7RtX'],
    ['a malformed handshake (15 characters)', v.data, v.handshake.slice(0, 15)],
    ['a malformed handshake (non-alphanumeric)', v.data, 'k3Xq9LmZ2vBn7Rt-'],
    ['truncated by one block', raw.subarray(0, raw.length - 16).toString('base64'), v.handshake],
    ['truncated to the iv alone', raw.subarray(0, 16).toString('base64'), v.handshake],
    [
      'a length that is not 16 + a multiple of 16',
      raw.subarray(0, raw.length - 1).toString('base64'),
      v.handshake,
    ],
    ['empty data', '', v.handshake],
    ['non-Base64 characters', `${v.data.slice(0, 20)}*${v.data.slice(21)}`, v.handshake],
    ['the URL-safe alphabet', v.data.replaceAll('+', '-').replaceAll('/', '_'), v.handshake],
    ['missing Base64 padding', v.data.replace(/=+$/, ''), v.handshake],
    ['spaces where a form decoder turned + into a space', v.data.replaceAll('+', ' '), v.handshake],
    ['embedded whitespace', `${v.data.slice(0, 8)}\n${v.data.slice(8)}`, v.handshake],
    ['padding in the middle', `${v.data.slice(0, 8)}=${v.data.slice(9)}`, v.handshake],
    ['three padding symbols', `${v.data.slice(0, -3)}===`, v.handshake],
    ['a length that is not a multiple of 4', `${v.data.replace(/=+$/, '')}A=`, v.handshake],
  ];

  test('every refusal case is really a change to the vector', () => {
    for (const [name, data, handshake] of refused) {
      expect(data !== v.data || handshake !== v.handshake, name).toBe(true);
    }
  });

  test('the server refuses tampered, truncated, non-Base64 data and a wrong handshake with EnvelopeError', () => {
    for (const [name, data, handshake] of refused) {
      let caught: unknown;
      try {
        server.open(data, handshake);
      } catch (error) {
        caught = error;
      }
      expect(caught, name).toBeInstanceOf(server.EnvelopeError);
      expect(caught instanceof server.EnvelopeError && caught.reason, name).toBe('undecryptable');
    }
  });

  test('the client refuses the same inputs with EnvelopeError, with crypto-js and with WebCrypto', async () => {
    for (const [name, data, handshake] of refused) {
      expect(() => client.open(data, handshake), name).toThrow(client.EnvelopeError);
      await expect(client.openAsync(data, handshake), name).rejects.toThrow(client.EnvelopeError);
    }
  });

  test('all three openers refuse non-canonical Base64 (set bits after the last byte), which lenient decoders accept', async () => {
    const { padded, data } = nonCanonical();
    expect(Buffer.from(data, 'base64')).toEqual(Buffer.from(padded.data, 'base64'));
    expect(() => server.open(data, padded.handshake)).toThrow(server.EnvelopeError);
    expect(() => client.open(data, padded.handshake)).toThrow(client.EnvelopeError);
    await expect(client.openAsync(data, padded.handshake)).rejects.toThrow(client.EnvelopeError);
  });

  test("the same opens and refusals where the engine decodes Base64 itself (Uint8Array.fromBase64, as current browsers do; core-js's implementation of the standard here)", async () => {
    await import('core-js/actual/typed-array/from-base64.js');
    type Native = { fromBase64?: (...args: unknown[]) => Uint8Array };
    const native = (Uint8Array as unknown as Native).fromBase64;
    if (native === undefined) throw new Error('no Uint8Array.fromBase64 after loading core-js');
    let decoded = 0;
    (Uint8Array as unknown as Native).fromBase64 = (...args) => {
      decoded += 1;
      return native(...args);
    };
    try {
      for (const vector of vectors) {
        expect(await client.openAsync(vector.data, vector.handshake)).toBe(vector.plaintext);
      }
      expect(decoded).toBe(vectors.length);
      for (const [name, data, handshake] of refused) {
        await expect(client.openAsync(data, handshake), name).rejects.toThrow(client.EnvelopeError);
      }
      const { padded, data } = nonCanonical();
      await expect(client.openAsync(data, padded.handshake)).rejects.toThrow(client.EnvelopeError);
    } finally {
      delete (Uint8Array as unknown as Native).fromBase64;
    }
  });

  test('both codecs refuse a plaintext that is not valid UTF-8', async () => {
    const handshake = 'a1B2c3D4e5F6g7H8';
    const iv = Buffer.alloc(16, 7);
    const cipher = createCipheriv('aes-128-cbc', Buffer.from(handshake), iv);
    const data = Buffer.concat([
      iv,
      cipher.update(Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d])),
      cipher.final(),
    ]).toString('base64');
    expect(() => server.open(data, handshake)).toThrow(server.EnvelopeError);
    expect(() => client.open(data, handshake)).toThrow(client.EnvelopeError);
    await expect(client.openAsync(data, handshake)).rejects.toThrow(client.EnvelopeError);
  });

  test('both codecs refuse a padding byte of 0 or above 16 and inconsistent padding bytes', async () => {
    const handshake = 'a1B2c3D4e5F6g7H8';
    const iv = Buffer.alloc(16, 3);
    const blocks = [
      Buffer.concat([Buffer.from('fifteen bytes!!'), Buffer.from([0x00])]),
      Buffer.concat([Buffer.from('fifteen bytes!!'), Buffer.from([0x11])]),
      Buffer.concat([Buffer.from('thirteen byte'), Buffer.from([0x03, 0x02, 0x03])]),
    ];
    for (const block of blocks) {
      const cipher = createCipheriv('aes-128-cbc', Buffer.from(handshake), iv).setAutoPadding(false);
      const data = Buffer.concat([iv, cipher.update(block), cipher.final()]).toString('base64');
      expect(() => server.open(data, handshake), block.toString('hex')).toThrow(server.EnvelopeError);
      expect(() => client.open(data, handshake), block.toString('hex')).toThrow(client.EnvelopeError);
      await expect(client.openAsync(data, handshake), block.toString('hex')).rejects.toThrow(
        client.EnvelopeError,
      );
    }
  });

  test('seal refuses a malformed handshake or an iv that is not 16 bytes', () => {
    expect(() => server.seal('x', 'short')).toThrow(TypeError);
    expect(() => client.seal('x', 'short')).toThrow(TypeError);
    expect(() => server.seal('x', v.handshake, Buffer.alloc(15))).toThrow(TypeError);
    expect(() => client.seal('x', v.handshake, new Uint8Array(17))).toThrow(TypeError);
  });
});

describe('handshakes and signs', () => {
  test('randomHandshake gives 16 characters of [A-Za-z0-9] and no duplicates in 1000 draws, on both sides', () => {
    for (const draw of [server.randomHandshake, client.randomHandshake]) {
      const seen = new Set<string>();
      for (let i = 0; i < 1000; i++) {
        const handshake = draw();
        expect(handshake).toMatch(/^[A-Za-z0-9]{16}$/);
        seen.add(handshake);
      }
      expect(seen.size).toBe(1000);
    }
  });

  test('randomHandshake uses the whole alphabet', () => {
    for (const draw of [server.randomHandshake, client.randomHandshake]) {
      const chars = new Set(Array.from({ length: 500 }, draw).join(''));
      expect(chars.size).toBe(62);
    }
  });

  test('signMatches accepts the same sign and refuses a different one or one of another length', () => {
    expect(server.signMatches(first.sign, first.sign)).toBe(true);
    expect(server.signMatches(first.sign, first.sign.toUpperCase())).toBe(false);
    const lastFlipped = first.sign.slice(0, 63) + (first.sign.endsWith('0') ? '1' : '0');
    expect(server.signMatches(first.sign, lastFlipped)).toBe(false);
    expect(server.signMatches(first.sign, first.sign.slice(0, 63))).toBe(false);
    expect(server.signMatches(first.sign, `${first.sign}0`)).toBe(false);
    expect(server.signMatches(first.sign, '')).toBe(false);
  });

  test('the sign covers data, timestamp and handshake in that order', () => {
    const s = server.signOf(first.data, first.timestamp, first.handshake);
    expect(server.signOf(first.data, String(Number(first.timestamp) + 1), first.handshake)).not.toBe(s);
    expect(server.signOf(first.data, first.timestamp, server.randomHandshake())).not.toBe(s);
    expect(server.signOf(first.handshake, first.timestamp, first.data)).not.toBe(s);
  });
});

describe('the worker module', () => {
  test('the worker codec imports nothing but individual crypto-js submodules and the contract', () => {
    const source = readFileSync(new URL('../../worker/envelope.ts', import.meta.url), 'utf8');
    const specifiers = [...source.matchAll(/^\s*import\s[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const specifier of specifiers) {
      expect(specifier).toMatch(/^crypto-js\/[a-z0-9-]+\.js$|^\.\.\/contract\/envelope\.js$/);
    }
    expect(source).not.toMatch(/\brequire\(|import\(/);
  });
});
