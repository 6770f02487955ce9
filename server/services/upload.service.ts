/**
 * Image uploads (`up-img`): images only, size-limited, stored privately under DATA_DIR/uploads,
 * served only to their owner and to operators whose role may review them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { BodyCode } from '../../contract/codes.js';
import { UPLOAD_MAX_BYTES } from '../../contract/constants.js';
import type { UploadData } from '../../contract/api/common.js';
import type { Clock } from '../clock.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database } from '../db/database.js';
import { BusinessError, invalidField, notFound } from '../core/errors.js';
import type { Caller, RequestContext } from '../core/context.js';
import { findUpload, insertUpload } from '../repositories/upload.repository.js';
import { newOpaqueId } from '../security/tokens.js';
import { OperatorService } from './operator.service.js';

/** Detects the image type from its first bytes; the client's name and type are not trusted. */
export function imageTypeOf(bytes: Buffer): string | null {
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

export class UploadService {
  readonly #dir: string;

  constructor(
    private readonly db: Database,
    private readonly commands: CommandRunner,
    private readonly clock: Clock,
    dataDir: string,
  ) {
    this.#dir = path.join(dataDir, 'uploads');
  }

  /** Stores one image for the caller; 400 for a non-image or an empty file. */
  store(ctx: RequestContext, bytes: Buffer): Promise<UploadData> {
    return this.commands.run(ctx, async (tx) => {
      const mime = imageTypeOf(bytes);
      if (!mime) throw invalidField('file', 'server.upload_type');
      const id = newOpaqueId();
      await fs.mkdir(this.#dir, { recursive: true });
      await fs.writeFile(path.join(this.#dir, id), bytes, { mode: 0o600 });
      await insertUpload(tx, {
        id,
        ownerUserId: ctx.caller.kind === 'user' ? ctx.caller.userId : null,
        ownerOperatorId: ctx.caller.kind === 'operator' ? ctx.caller.operatorId : null,
        mime,
        bytes: bytes.length,
        createdAt: this.clock.now(),
      });
      return { id, url: `/api/v1/common/img/${id}` };
    });
  }

  /** The image's bytes and type when `caller` may see it; 404 otherwise (no hint that it exists). */
  async read(caller: Caller, id: string): Promise<{ mime: string; bytes: Buffer }> {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(id)) throw notFound();
    const row = await findUpload(this.db, id);
    const allowed =
      row !== undefined &&
      (caller.kind === 'cli' ||
        (caller.kind === 'user' && row.ownerUserId === caller.userId) ||
        (caller.kind === 'operator' &&
          (row.ownerOperatorId === caller.operatorId ||
            OperatorService.allowed(caller.role, ['support', 'compliance']))));
    if (!row || !allowed) throw notFound();
    return { mime: row.mime, bytes: await fs.readFile(path.join(this.#dir, row.id)) };
  }
}
