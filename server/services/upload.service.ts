/**
 * Image uploads (`up-img`): images only (the type sniffed from the bytes), size-limited, decoded
 * and encoded again without their metadata (EXIF, GPS, XMP, comments) by sharp, stored privately
 * under DATA_DIR/uploads and served only to their owner and to operators whose role may review
 * them. A document image of a real-name submission is served to nobody by that path: only through
 * a signed link that expires (`signedLink`), which the review hands to compliance operators.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { chatImageSeenBy } from '../repositories/chat.repository.js';
import { BodyCode } from '../../contract/codes.js';
import { UPLOAD_MAX_BYTES } from '../../contract/constants.js';
import type { UploadData } from '../../contract/api/common.js';
import { BusinessError, invalidField, notFound } from '../core/errors.js';
import type { Caller, RequestContext } from '../core/context.js';
import {
  findUpload,
  findUploads,
  insertUpload,
  setUploadPurpose,
  type UploadRow,
} from '../repositories/upload.repository.js';
import type { Executor } from '../db/database.js';
import type { SecretBox } from '../security/secret-box.js';
import { newOpaqueId } from '../security/tokens.js';
import { OperatorService } from './operator.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** The image types an upload may have, and sharp's name for each. */
const FORMATS = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;

/** Detects the image type from its first bytes; the client's name and type are not trusted. */
export function imageTypeOf(bytes: Buffer): keyof typeof FORMATS | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

export const uploadTooLarge = () =>
  new BusinessError(
    BodyCode.invalidInput,
    'server.upload_too_large',
    { max: UPLOAD_MAX_BYTES / 1024 / 1024 },
    { field: 'file' },
  );

/** How long a signed link to a document image stays good. */
export const SIGNED_LINK_SECONDS = 300;
const LINK_PURPOSE = 'upload-link';
/** Types a document image may have (GIF is an upload, never a document). */
const DOCUMENT_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * The image encoded again in its own format with no metadata (sharp keeps none unless asked),
 * turned upright first since the orientation tag goes with the rest. Null when it does not decode.
 */
export async function withoutMetadata(bytes: Buffer, mime: keyof typeof FORMATS): Promise<Buffer | null> {
  try {
    return await sharp(bytes, { animated: mime === 'image/gif', limitInputPixels: 50_000_000 })
      .rotate()
      .toFormat(FORMATS[mime], mime === 'image/jpeg' ? { quality: 92 } : {})
      .toBuffer();
  } catch {
    return null;
  }
}

const idOfUrl = (url: string): string => url.split('/').pop() ?? '';

export class UploadService extends CoreService {
  readonly #dir: string;

  constructor(
    core: ServiceCore,
    dataDir: string,
    private readonly secrets: SecretBox,
  ) {
    super(core);
    this.#dir = path.join(dataDir, 'uploads');
  }

  /** Stores one image for the caller; 400 for a non-image or an empty file. */
  store(ctx: RequestContext, bytes: Buffer): Promise<UploadData> {
    return this.commands.run(ctx, async (tx) => {
      const mime = imageTypeOf(bytes);
      if (!mime) throw invalidField('file', 'server.upload_type');
      const clean = await withoutMetadata(bytes, mime);
      if (!clean) throw invalidField('file', 'server.upload_type');
      const id = newOpaqueId();
      await fs.mkdir(this.#dir, { recursive: true });
      await fs.writeFile(path.join(this.#dir, id), clean, { mode: 0o600 });
      await insertUpload(tx, {
        id,
        ownerUserId: ctx.caller.kind === 'user' ? ctx.caller.userId : null,
        ownerOperatorId: ctx.caller.kind === 'operator' ? ctx.caller.operatorId : null,
        mime,
        bytes: clean.length,
        createdAt: this.clock.now(),
      });
      return { id, url: `/api/v1/common/img/${id}` };
    });
  }

  /**
   * The image's bytes and type when `caller` may see it; 404 otherwise (no hint that it exists).
   * A document image answers 404 here to everyone, its owner too: it goes out by signed link only.
   */
  async read(caller: Caller, id: string): Promise<{ mime: string; bytes: Buffer }> {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(id)) throw notFound();
    const row = await findUpload(this.db, id);
    const allowed =
      row !== undefined &&
      row.purpose === 'general' &&
      (caller.kind === 'cli' ||
        (caller.kind === 'user' && row.ownerUserId === caller.userId) ||
        (caller.kind === 'operator' &&
          (row.ownerOperatorId === caller.operatorId ||
            OperatorService.allowed(caller.role, ['support', 'compliance']))));
    // An agent's chat image: the customer of the conversation it was sent in may see it.
    const inChat =
      !allowed &&
      row !== undefined &&
      row.purpose === 'general' &&
      caller.kind === 'user' &&
      (await chatImageSeenBy(this.db, row.id, caller.userId));
    if (!row || !(allowed || inChat)) throw notFound();
    return { mime: row.mime, bytes: await fs.readFile(path.join(this.#dir, row.id)) };
  }

  /** A link to the image good until `SIGNED_LINK_SECONDS` from now, for whoever holds it. */
  signedLink(id: string): { url: string; expiresAt: string } {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + SIGNED_LINK_SECONDS;
    const sig = this.secrets.digest(`${id}.${expires}`, LINK_PURPOSE);
    return {
      url: `/api/v1/common/img/${id}?expires=${expires}&sig=${sig}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The image a signed link names, while the link is good; 404 for a wrong, altered or expired one. */
  async readSigned(id: string, expires: string, sig: string): Promise<{ mime: string; bytes: Buffer }> {
    const seconds = /^\d{1,12}$/.test(expires) ? Number(expires) : 0;
    const good =
      /^[A-Za-z0-9_-]{10,64}$/.test(id) &&
      seconds * 1000 > this.clock.now().getTime() &&
      this.secrets.verifyDigest(`${id}.${seconds}`, LINK_PURPOSE, sig);
    const row = good ? await findUpload(this.db, id) : undefined;
    if (!row) throw notFound();
    return { mime: row.mime, bytes: await fs.readFile(path.join(this.#dir, row.id)) };
  }

  /**
   * Makes the images of a real-name submission private (`identity`): each must be the user's own
   * upload of a document type, not used before; a 400 on `images` otherwise.
   */
  async claimForIdentity(tx: Executor, userId: number, urls: string[]): Promise<string[]> {
    const ids = [...new Set(urls.map(idOfUrl))];
    const rows = await findUploads(tx, ids);
    const usable = (row: UploadRow | undefined) =>
      row !== undefined &&
      row.ownerUserId === userId &&
      row.purpose === 'general' &&
      DOCUMENT_TYPES.has(row.mime);
    if (ids.length !== urls.length || !ids.every((id) => usable(rows.find((row) => row.id === id))))
      throw invalidField('images', 'server.identity_images_invalid');
    await setUploadPurpose(tx, ids, 'identity');
    return ids;
  }
}
