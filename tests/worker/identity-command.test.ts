/**
 * The real-name submission's outbox command (worker/handlers/identity.commands.ts): online only,
 * its images kept as bytes with one upload key each, posted only once every image has its URL,
 * in the order given; a retry gives the images not uploaded yet new keys.
 */
import { describe, expect, test } from 'vitest';
import { identityCommands } from '../../worker/handlers/identity.commands.js';

const [submit] = identityCommands;
const image = (byte: number) => new Blob([new Uint8Array([byte, byte, byte])], { type: 'image/jpeg' });

async function stored(images: Blob[]) {
  let serial = 0;
  const parsed = submit.enqueue(
    {
      kind: 'identity-submit',
      params: { documentType: 'id_card', documentNumber: 'AB 1234', realName: 'Ana', images },
    },
    () => `key-${++serial}`,
  );
  if (!parsed.ok) throw parsed.error;
  return parsed.params;
}

describe('identity-submit', () => {
  test('is sent only while online, to identity-store', () => {
    expect(submit.requiresOnline).toBe(true);
    expect(submit.uri).toBe('/api/v1/user/identity-store');
    expect(submit.carriesSecrets).toBe(false);
  });

  test('each image is uploaded under its own key before the submission, which posts the URLs in order', async () => {
    let params = await stored([image(1), image(2), image(3)]);
    const pending = submit.pendingUploads(params);
    expect(pending.map((upload) => [upload.index, upload.key, [...upload.file.bytes]])).toEqual([
      [0, 'key-1', [1, 1, 1]],
      [1, 'key-2', [2, 2, 2]],
      [2, 'key-3', [3, 3, 3]],
    ]);
    expect(submit.wireParamsOf(params)).toBeNull();
    params = submit.uploaded(params, 1, '/api/v1/common/img/second');
    params = submit.uploaded(params, 0, '/api/v1/common/img/first');
    expect(submit.wireParamsOf(params)).toBeNull();
    expect(submit.pendingUploads(params).map((upload) => upload.index)).toEqual([2]);
    params = submit.uploaded(params, 2, '/api/v1/common/img/third');
    expect(submit.wireParamsOf(params)).toEqual({
      documentType: 'id_card',
      documentNumber: 'AB 1234',
      realName: 'Ana',
      images: ['/api/v1/common/img/first', '/api/v1/common/img/second', '/api/v1/common/img/third'],
    });
  });

  test('a retry renews the keys of images not uploaded yet only', async () => {
    const params = submit.uploaded(await stored([image(1), image(2)]), 0, '/api/v1/common/img/first');
    const renewed = submit.renew(params, () => 'fresh');
    expect(submit.pendingUploads(renewed).map((upload) => [upload.index, upload.key])).toEqual([
      [1, 'fresh'],
    ]);
  });

  test('no image, more than three, or an empty one is refused at the edge', () => {
    const refused = (images: Blob[]) =>
      !submit.enqueue(
        {
          kind: 'identity-submit',
          params: { documentType: 'passport', documentNumber: 'P1234', realName: 'Ana', images },
        },
        () => 'k',
      ).ok;
    expect(refused([])).toBe(true);
    expect(refused([image(1), image(2), image(3), image(4)])).toBe(true);
    expect(refused([new Blob([])])).toBe(true);
    expect(refused([image(1)])).toBe(false);
  });
});
