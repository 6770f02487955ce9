/**
 * Turns every failure on an API route into `{code, message, data}` with HTTP 200 (CONTRACT.md):
 * business refusals, malformed or oversized input, rate limits. Unexpected errors become 500
 * with only a request id: no stack trace or detail ever leaves the server.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BodyCode } from '../../contract/codes.js';
import type { Translator } from '../i18n/i18n.js';
import { BusinessError, ReplayedAnswer } from '../core/errors.js';
import { uploadTooLarge } from '../services/upload.service.js';
import { contextOf, sendAnswer } from './route.js';

/** Maps framework and plugin errors (by their code) to business errors. */
function asBusinessError(error: FastifyError & { ttl?: number }): BusinessError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new BusinessError(BodyCode.invalidInput, 'server.request_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new BusinessError(BodyCode.invalidInput, 'server.unsupported_media_type');
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return uploadTooLarge();
    case 'COFFER_RATE_LIMITED': {
      const seconds = Math.max(1, Math.ceil((error.ttl ?? 60_000) / 1000));
      return new BusinessError(
        BodyCode.tooManyRequests,
        'server.too_many_requests',
        { seconds },
        { retryAfter: seconds },
      );
    }
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new BusinessError(BodyCode.invalidInput, 'server.malformed_request');
  }
  return null;
}

export function installErrorHandling(app: FastifyInstance, translator: Translator): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ReplayedAnswer) return sendAnswer(reply, error.text);
    const ctx = request.coffer ?? contextOf(request, translator);
    const business = error instanceof BusinessError ? error : asBusinessError(error);
    if (business) return sendAnswer(reply, ctx.answerText ?? ctx.renderError(business));
    request.log.error({ err: error, requestId: request.id }, 'unexpected error');
    const internal = new BusinessError(
      BodyCode.internalError,
      'server.internal_error',
      {},
      { requestId: request.id },
    );
    return sendAnswer(reply, ctx.renderError(internal));
  });

  app.setNotFoundHandler((request: FastifyRequest, reply) => {
    if (request.url.startsWith('/api/')) {
      const ctx = contextOf(request, translator);
      return sendAnswer(reply, ctx.renderError(new BusinessError(BodyCode.notFound, 'server.no_such_route')));
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}

/**
 * For Fastify's `frameworkErrors` option: what the router refuses before any route, hook or
 * error handler runs (a URL with invalid percent-encoding, a path parameter over the length
 * limit) gets the usual `{code, message, data}` under /api/ instead of Fastify's own 400/414.
 */
export function answerFrameworkError(
  translator: Translator,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (!request.url.startsWith('/api/')) {
    void reply.code(400).type('text/plain; charset=utf-8').send('Bad request');
    return;
  }
  const business =
    asBusinessError(error) ?? new BusinessError(BodyCode.invalidInput, 'server.malformed_request');
  void sendAnswer(reply, contextOf(request, translator).renderError(business));
}
