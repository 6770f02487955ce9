/**
 * Image uploads for outbox commands: `POST /api/v1/common/up-img` (multipart, field `file`),
 * each under its own Idempotency-Key so a resend replays the stored URL (the server hashes the
 * bytes into the request). The API client speaks JSON and the envelope only, so uploads have
 * their own small sender here, with the queue's retry rules (CONTRACT.md "Exactly once"):
 * transport failures, HTTP 5xx and body 500 are retried with the same key; nothing else is.
 */
import { z } from 'zod';
import { uploadDataSchema, type UploadData } from '../contract/api/common.js';
import { BodyCode } from '../contract/codes.js';
import { PROTOCOL_VERSION, REQUEST_TIMEOUT_MS } from '../contract/constants.js';
import { DEFAULT_LOCALE, headerCodeOf } from '../contract/locales.js';
import { answerOf } from '../contract/schema.js';
import type { Outcome, UploaderSession } from './ports.js';
import { backoffDelayMs, isRetryable, MAX_ATTEMPTS, type RetryTiming } from './retry.js';

export const UPLOAD_PATH = '/api/v1/common/up-img';

export interface LocalImage {
  bytes: Uint8Array;
  /** The MIME type the browser gave the file (the server trusts only the bytes). */
  type: string;
  name: string;
}

export interface UploadOptions {
  /** The token of the user who acted; never the session's current one. */
  token: string;
  idempotencyKey: string;
}

export interface Uploader {
  /** Uploads one image; never throws: every failure is an Outcome. */
  upload(image: LocalImage, options: UploadOptions): Promise<Outcome<UploadData>>;
}

export interface HttpUploaderOptions {
  fetch: typeof fetch;
  /** Origin put before the path; empty or absent means same origin. */
  baseUrl?: string;
  /** Defaults to the plain path, which both transports' servers serve. */
  path?: string;
  session: UploaderSession;
  /** The retry timing (the worker passes its queue's options). */
  queue?: RetryTiming;
}

const anyAnswerSchema = answerOf(z.unknown());

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}

/**
 * An Uploader over `fetch`. Never throws; gives up on one attempt after REQUEST_TIMEOUT_MS; a
 * 401 clears the session that held the token, as the API client does.
 */
export function createHttpUploader(options: HttpUploaderOptions): Uploader {
  const sleep =
    options.queue?.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.queue?.random ?? Math.random;
  const url = `${options.baseUrl ?? ''}${options.path ?? UPLOAD_PATH}`;

  async function once(image: LocalImage, upload: UploadOptions, lang: string): Promise<Outcome<UploadData>> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await options.fetch(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${upload.token}`,
          lang,
          'Idempotency-Key': upload.idempotencyKey,
          'X-Coffer-Protocol': String(PROTOCOL_VERSION),
        },
        body: form,
        signal: controller.signal,
      });
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel().catch(() => undefined);
        return { kind: 'transport', status: response.status, message: `HTTP ${response.status}` };
      }
      const body = parseJson(await response.text());
      const answer = anyAnswerSchema.safeParse(body);
      if (!answer.success) return { kind: 'transport', status: response.status, message: 'malformed answer' };
      if (answer.data.code !== BodyCode.ok) {
        return {
          kind: 'refused',
          code: answer.data.code,
          message: answer.data.message,
          data: answer.data.data,
        };
      }
      const data = uploadDataSchema.safeParse(answer.data.data);
      if (!data.success) return { kind: 'transport', status: response.status, message: 'malformed answer' };
      return { kind: 'ok', message: answer.data.message, data: data.data };
    } catch (error) {
      return {
        kind: 'transport',
        status: null,
        message: error instanceof Error ? error.message : 'network failure',
      };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async upload(image, upload) {
      const lang = headerCodeOf((await options.session.getLocale()) ?? DEFAULT_LOCALE);
      for (let attempt = 1; ; attempt++) {
        const outcome = await once(image, upload, lang);
        if (attempt >= MAX_ATTEMPTS || !isRetryable(outcome)) {
          if (outcome.kind === 'refused' && outcome.code === BodyCode.notLoggedIn) {
            await options.session.clearSessionIfToken(upload.token);
          }
          return outcome;
        }
        await sleep(backoffDelayMs(attempt, random));
      }
    },
  };
}
