/**
 * Image uploads (CONTRACT.md "Envelope", last point): `POST /api/v1/common/up-img` and the same
 * under the upload segment, multipart field `file`, a token, images only, at most 5 MB; the answer's
 * `data.url` serves the image only to its owner and to reviewing operators. Stored privately
 * under DATA_DIR/uploads, never under public/.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { BodyCode } from '../../contract/codes.js';
import { availableTiers } from '../helpers/database.js';
import { operatorToken } from '../helpers/operator.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectSameImageWithoutMetadata, fileOf, multipart, type Part } from '../helpers/uploads.js';

const tiers = await availableTiers('uploads');

/** Real 1x1 images that decode (checked with file(1) and sharp): what the client's image picker would send. */
const IMAGES = [
  {
    kind: 'PNG',
    name: 'pixel.png',
    mime: 'image/png',
    bytes: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  },
  {
    kind: 'JPEG',
    name: 'pixel.jpg',
    mime: 'image/jpeg',
    bytes: Buffer.from(
      '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAj/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKpAB//Z',
      'base64',
    ),
  },
  {
    kind: 'GIF',
    name: 'pixel.gif',
    mime: 'image/gif',
    bytes: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  },
  {
    kind: 'WebP',
    name: 'pixel.webp',
    mime: 'image/webp',
    bytes: Buffer.from('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=', 'base64'),
  },
] as const;
const [PNG] = IMAGES;

const answerSchema = z.strictObject({ code: z.number().int(), message: z.string(), data: z.unknown() });
const uploadedSchema = z.object({
  code: z.literal(200),
  data: z.object({ url: z.string(), id: z.string() }),
});

const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe.each(tiers)('uploads on %s', (tier) => {
  let t: TestServer;
  let owner: string;
  let stranger: string;
  const operatorTokens = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestServer(tier);
    owner = (await t.register('plain', 'uploader@example.com')).token;
    stranger = (await t.register('plain', 'stranger@example.com')).token;
    for (const role of ['support', 'compliance', 'content', 'finance'] as const) {
      const email = `${role}.operator@example.com`;
      operatorTokens.set(role, await operatorToken(t, email, role));
    }
  });

  afterAll(async () => {
    await t.close();
  });

  const uploadsDir = () => path.join(t.dataDir, 'uploads');
  const storedFiles = () => filesUnder(uploadsDir()).length;

  /** Raw inject of any body to an upload path; the answer parsed as `{code, message, data}`. */
  async function post(
    url: string,
    body: { payload: Buffer | string; contentType?: string },
    headers: Record<string, string> = {},
  ) {
    const response = await t.server.app.inject({
      method: 'POST',
      url,
      headers: { lang: 'EN', ...(body.contentType ? { 'content-type': body.contentType } : {}), ...headers },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return { text: response.body, answer: answerSchema.parse(JSON.parse(response.body)) };
  }

  async function get(url: string, token?: string) {
    return t.server.app.inject({
      method: 'GET',
      url,
      headers: { lang: 'EN', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  }

  describe.each(['the plain path', 'the upload segment'] as const)('through %s', (which) => {
    const uploadPath = () =>
      which === 'the plain path'
        ? '/api/v1/common/up-img'
        : `/api/${t.server.config.uploadSegment}/v1/common/up-img`;
    /** `token` null: no Authorization header at all. */
    const upload = (
      parts: readonly Part[],
      token: string | null = owner,
      headers: Record<string, string> = {},
    ) =>
      post(
        uploadPath(),
        multipart(parts),
        token === null ? headers : { authorization: `Bearer ${token}`, ...headers },
      );
    const uploaded = async (parts: readonly Part[], token: string = owner) =>
      uploadedSchema.parse((await upload(parts, token)).answer).data;

    test('a real PNG, JPEG, GIF and WebP answer 200 with data.url; the owner reads back the same image, without metadata, with the right type', async () => {
      for (const image of IMAGES) {
        const { answer } = await upload([fileOf(image.bytes, image.name, image.mime)]);
        expect(answer).toMatchObject({
          code: 200,
          message: 'Upload successful',
          data: { url: expect.stringMatching(/^\/api\/v1\/common\/img\/[A-Za-z0-9_-]{10,64}$/) },
        });
        const { url } = uploadedSchema.parse(answer).data;
        const served = await get(url, owner);
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe(image.mime);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.headers['cache-control']).toMatch(/^private/);
        await expectSameImageWithoutMetadata(served.rawPayload, image.bytes);
      }
    });

    test('bytes that start like an image but do not decode (a JPEG cut short) are a 400 and nothing is stored', async () => {
      const before = storedFiles();
      const cut = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
      const { answer } = await upload([fileOf(cut, 'photo.jpg', 'image/jpeg')]);
      expect(answer).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'file' } });
      expect(storedFiles()).toBe(before);
    });

    test('the type comes from the bytes, not from the file name or the declared type', async () => {
      const { url } = await uploaded([fileOf(PNG.bytes, 'holiday.gif', 'image/gif')]);
      expect((await get(url, owner)).headers['content-type']).toBe('image/png');
    });

    test('only the owner and reviewing operators (support, compliance) see an image; others get a JSON 404', async () => {
      const { url } = await uploaded([fileOf(PNG.bytes, 'passport.png', 'image/png')]);
      /** What `who` is served at the image's address, its status and type. */
      const servedTo = async (who: string, token: string | undefined, type: unknown) => {
        const served = await get(url, token);
        expect({ who, status: served.statusCode, type: served.headers['content-type'] }).toEqual({
          who,
          status: 200,
          type,
        });
        return served;
      };
      for (const [who, token] of [
        ['support', operatorTokens.get('support')],
        ['compliance', operatorTokens.get('compliance')],
      ] as const) {
        const served = await servedTo(who, token, 'image/png');
        await expectSameImageWithoutMetadata(served.rawPayload, PNG.bytes);
      }
      for (const [who, token] of [
        ['another user', stranger],
        ['anonymous', undefined],
        ['an invalid token', 'x'.repeat(43)],
        ['a content operator', operatorTokens.get('content')],
        ['a finance operator', operatorTokens.get('finance')],
      ] as const) {
        const served = await servedTo(who, token, expect.stringMatching(/^application\/json/));
        expect({ who, answer: JSON.parse(served.body) }).toEqual({
          who,
          answer: { code: BodyCode.notFound, message: 'Not found', data: null },
        });
      }
      // No hint that the image exists: an unknown id answers the same.
      expect(JSON.parse((await get('/api/v1/common/img/AAAAAAAAAAAAAAAAAAAAAAAA', stranger)).body)).toEqual({
        code: BodyCode.notFound,
        message: 'Not found',
        data: null,
      });
    });

    test('a file that is not a JPEG, PNG, GIF or WebP is refused, whatever its name and declared type', async () => {
      const before = storedFiles();
      const files: Part[] = [
        fileOf('just some text, honestly', 'notes.png', 'image/png'),
        fileOf(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          'logo.svg',
          'image/svg+xml',
        ),
        fileOf('<!doctype html><html><body><script>alert(1)</script></body></html>', 'page.png', 'image/png'),
        fileOf('%PDF-1.7\n%junk', 'scan.jpg', 'image/jpeg'),
        fileOf(PNG.bytes.subarray(0, 7), 'cut.png', 'image/png'),
      ];
      for (const file of files) {
        const { answer } = await upload([file]);
        expect({ file: file.filename, answer }).toEqual({
          file: file.filename,
          answer: {
            code: 400,
            message: 'Only JPEG, PNG, GIF or WebP images can be uploaded',
            data: { field: 'file' },
          },
        });
      }
      expect(storedFiles()).toBe(before);
    });

    test('an empty file, a form without a file or a body that is not multipart asks to choose an image', async () => {
      const choose = { code: 400, message: 'Choose an image to upload', data: { field: 'file' } };
      expect((await upload([fileOf(Buffer.alloc(0), 'pixel.png', 'image/png')])).answer).toEqual(choose);
      // What a browser form sends when no file was chosen: an empty part with an empty file name.
      expect((await upload([fileOf(Buffer.alloc(0), '', 'application/octet-stream')])).answer).toEqual(
        choose,
      );
      expect((await upload([{ name: 'caption', body: 'no file here' }])).answer).toEqual(choose);
      const auth = { authorization: `Bearer ${owner}` };
      expect(
        (
          await post(
            uploadPath(),
            {
              payload: JSON.stringify({ file: PNG.bytes.toString('base64') }),
              contentType: 'application/json',
            },
            auth,
          )
        ).answer,
      ).toEqual(choose);
      expect(
        (
          await post(
            uploadPath(),
            { payload: 'file=x', contentType: 'application/x-www-form-urlencoded' },
            auth,
          )
        ).answer,
      ).toEqual(choose);
    });

    test('a malformed multipart body is refused as unreadable, never 500', async () => {
      const auth = { authorization: `Bearer ${owner}` };
      const cut = multipart([fileOf(PNG.bytes, 'pixel.png', 'image/png')]);
      const bodies = [
        { payload: cut.payload.subarray(0, cut.payload.length - 40), contentType: cut.contentType },
        { payload: 'x'.repeat(10_000), contentType: 'multipart/form-data; boundary=XYZ' },
        { payload: cut.payload, contentType: 'multipart/form-data' },
      ];
      for (const body of bodies) {
        expect((await post(uploadPath(), body, auth)).answer).toEqual({
          code: 400,
          message: 'The request could not be read',
          data: null,
        });
      }
    });

    test('an image over 5 MB is refused: "The image is larger than 5 MB"', async () => {
      const before = storedFiles();
      const big = Buffer.concat([PNG.bytes, Buffer.alloc(6 * 1024 * 1024)]);
      expect((await upload([fileOf(big, 'huge.png', 'image/png')])).answer).toEqual({
        code: 400,
        message: 'The image is larger than 5 MB',
        data: { field: 'file' },
      });
      expect(storedFiles()).toBe(before);
    });

    test('uploading needs a token: none, or an invalid one, answers 401', async () => {
      const before = storedFiles();
      expect((await upload([fileOf(PNG.bytes, 'pixel.png', 'image/png')], null)).answer).toEqual({
        code: 401,
        message: 'Please log in',
        data: null,
      });
      expect((await upload([fileOf(PNG.bytes, 'pixel.png', 'image/png')], 'y'.repeat(43))).answer).toEqual({
        code: 401,
        message: 'Please log in',
        data: null,
      });
      expect(storedFiles()).toBe(before);
    });

    test('the same Idempotency-Key with the same bytes returns the same answer and stores one file; other bytes are a conflict', async () => {
      const key = crypto.randomUUID();
      const bytes = Buffer.concat([PNG.bytes, crypto.randomBytes(16)]); // unique bytes, trailing data after IEND is still a PNG
      const before = storedFiles();
      const first = await upload([fileOf(bytes, 'pixel.png', 'image/png')], owner, {
        'idempotency-key': key,
      });
      const again = await upload([fileOf(bytes, 'again.png', 'image/png')], owner, {
        'idempotency-key': key,
      });
      expect(first.answer.code).toBe(200);
      expect(again.text).toBe(first.text);
      expect(storedFiles()).toBe(before + 1);
      const other = await upload([fileOf(IMAGES[2].bytes, 'other.gif', 'image/gif')], owner, {
        'idempotency-key': key,
      });
      expect(other.answer).toEqual({
        code: BodyCode.conflict,
        message: 'This request was already sent with different content',
        data: null,
      });
      expect(storedFiles()).toBe(before + 1);
    });

    test('images are stored with mode 0600 under DATA_DIR/uploads, never under public/', async () => {
      const { id } = await uploaded([fileOf(IMAGES[3].bytes, 'pixel.webp', 'image/webp')]);
      const stored = path.join(uploadsDir(), id);
      await expectSameImageWithoutMetadata(fs.readFileSync(stored), IMAGES[3].bytes);
      expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
      expect(path.relative(t.dataDir, stored).startsWith('..')).toBe(false);
      expect(filesUnder(PUBLIC_DIR).filter((file) => file.includes(id))).toEqual([]);
      for (const url of [`/${id}`, `/uploads/${id}`, `/public/uploads/${id}`]) {
        const response = await get(url, owner);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 404 });
        expect(response.rawPayload.equals(fs.readFileSync(stored))).toBe(false);
      }
    });
  });
});
