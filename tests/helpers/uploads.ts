/**
 * Uploads as a browser sends them: a multipart/form-data body built by hand, and an image
 * uploaded through the test server (what the client's image picker and the upload call do).
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { TestServer } from './server.js';

/** A real 1x1 PNG: decodes, so the server keeps it (re-encoded without metadata). */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  body: Buffer | string;
}

/** A multipart/form-data body built by hand, as a browser would send it. */
export function multipart(parts: readonly Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----CofferTestBoundary${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`,
      ),
    );
    chunks.push(typeof part.body === 'string' ? Buffer.from(part.body) : part.body);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const fileOf = (bytes: Buffer | string, filename: string, type: string): Part => ({
  name: 'file',
  filename,
  type,
  body: bytes,
});

/** Uploads `bytes` as the user of `token` and returns the answer's URL. */
export async function uploadImage(
  t: TestServer,
  token: string,
  bytes: Buffer,
  filename = 'photo.jpg',
  type = 'image/jpeg',
): Promise<string> {
  const { payload, contentType } = multipart([fileOf(bytes, filename, type)]);
  const response = await t.server.app.inject({
    method: 'POST',
    url: '/api/v1/common/up-img',
    headers: { lang: 'EN', authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  const answer = JSON.parse(response.body) as { code: number; data: { url: string } }; // the upload answer's shape (tests/api/uploads.test.ts checks it)
  expect(answer.code, response.body).toBe(200);
  return answer.data.url;
}

/**
 * That `stored` is `original` as Coffer keeps it: the same format and size in pixels, encoded
 * again without any metadata (no EXIF, XMP or ICC block).
 */
export async function expectSameImageWithoutMetadata(stored: Buffer, original: Buffer): Promise<void> {
  const [kept, sent] = await Promise.all([sharp(stored).metadata(), sharp(original).metadata()]);
  expect({ format: kept.format, width: kept.width, height: kept.height }).toEqual({
    format: sent.format,
    width: sent.width,
    height: sent.height,
  });
  expect({ exif: kept.exif, xmp: kept.xmp }).toEqual({ exif: undefined, xmp: undefined });
}
