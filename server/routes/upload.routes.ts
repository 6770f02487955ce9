/** Image uploads (`up-img` on the plain path and on the upload segment) and serving them. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BodyCode } from '../../contract/codes.js';
import { UPLOAD_MAX_BYTES } from '../../contract/constants.js';
import { answerOf } from '../../contract/schema.js';
import { uploadDataSchema } from '../../contract/api/common.js';
import { BusinessError } from '../core/errors.js';
import { idempotencyKeyOf, requestHashOf } from '../http/params.js';
import { authorize, contextOf, sendAnswer } from '../http/route.js';
import type { AppServices } from '../services/container.js';
import { sha256Hex } from '../security/tokens.js';

const UPLOAD_PATH = '/v1/common/up-img';

const uploadMissing = () =>
  new BusinessError(BodyCode.invalidInput, 'server.upload_missing', { field: 'file' }, { field: 'file' });

/**
 * The bytes of the request's one file. No file, or an empty one (what a form sends when no file
 * was chosen), is "choose an image"; a multipart body the parser cannot read (no boundary, cut
 * short, junk) is a 400, while the plugin's own limit errors go on to the error handler.
 */
async function uploadedBytesOf(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw uploadMissing();
  let bytes: Buffer;
  try {
    const file = await request.file({
      limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6 },
    });
    if (!file) throw uploadMissing();
    bytes = await file.toBuffer();
  } catch (error) {
    const handled = error instanceof BusinessError || (error instanceof Error && 'statusCode' in error);
    throw handled ? error : new BusinessError(BodyCode.invalidInput, 'server.malformed_request');
  }
  if (bytes.length === 0) throw uploadMissing();
  return bytes;
}

export function registerUploadRoutes(
  app: FastifyInstance,
  services: AppServices,
  uploadSegment: string,
): void {
  const upload = async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = contextOf(request, services.translator, 'server.uploaded');
    ctx.caller = await authorize(services.sessions, request, { access: 'signed-in' });
    const bytes = await uploadedBytesOf(request);
    const key = idempotencyKeyOf(request.headers['idempotency-key']);
    ctx.idempotency =
      key === null ? null : { key, requestHash: requestHashOf(UPLOAD_PATH, { sha256: sha256Hex(bytes) }) };
    const data = await services.uploads.store(ctx, bytes);
    return sendAnswer(reply, ctx.answerText ?? ctx.renderSuccess(data));
  };
  const schema = {
    summary: 'Upload one image (multipart field "file"; JPEG, PNG, GIF or WebP, at most 5 MB)',
    tags: ['common'],
    consumes: ['multipart/form-data'],
    security: [{ bearer: [] }],
    response: { 200: answerOf(uploadDataSchema) },
  };
  app.post(`/api${UPLOAD_PATH}`, { schema }, upload);
  app.post(`/api/${uploadSegment}${UPLOAD_PATH}`, { schema: { ...schema, hide: true } }, upload);

  app.get(
    '/api/v1/common/img/:id',
    {
      schema: {
        summary:
          'An uploaded image, to its owner and to reviewing operators; a document image only by the signed link the review gives (expires, sig)',
        tags: ['common'],
        params: z.object({ id: z.string() }),
        querystring: z.object({ expires: z.string().optional(), sig: z.string().optional() }),
      },
    },
    async (request, reply) => {
      contextOf(request, services.translator);
      const { id } = request.params as { id: string }; // declared by the route's params schema
      const { expires, sig } = request.query as { expires?: string; sig?: string }; // declared by its querystring schema
      const signed = expires !== undefined && sig !== undefined;
      const image = signed
        ? await services.uploads.readSigned(id, expires, sig)
        : await services.uploads.read(await authorize(services.sessions, request, { access: 'public' }), id);
      return reply
        .code(200)
        .type(image.mime)
        .header('cache-control', signed ? 'private, no-store' : 'private, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .send(image.bytes);
    },
  );
}
