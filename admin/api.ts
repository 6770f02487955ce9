/**
 * The console's one way to the server: `fetch` to the admin API, straight and online. Unlike the
 * customer app (whose UI never fetches; its worker queues commands), an operator's action must
 * reach the server at once or visibly fail: nothing here is queued or retried later.
 *
 * Every call sends the session's Bearer token and the `lang` header; every command an
 * Idempotency-Key. Answers are `{code, message, data}` (HTTP 200), parsed here with the route's
 * data schema. A 403 `step_up_required` asks the operator for a code (`stepUp`) and sends the
 * same call once more with the SAME Idempotency-Key; 403 `setup_required` and 401 hand over to
 * the session (`onSetupRequired`, `onSignedOut`).
 */
import { z } from 'zod';
import { uploadDataSchema } from '../contract/api/common.js';

/** The upload call (docs/protocol.md), which serves operators as it serves customers. */
const UPLOAD_PATH = '/api/v1/common/up-img';

const answerSchema = z.object({ code: z.number(), message: z.string(), data: z.unknown() });
const reasonSchema = z.object({ reason: z.string() });
const fieldSchema = z.object({ field: z.string() });

/** A refusal from the server (any code but 200), with its translated message. */
export class ConsoleApiError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data: unknown) {
    super(message);
    this.name = 'ConsoleApiError';
    this.code = code;
    this.data = data;
  }

  /** The input the server names in a 400 (`data.field`), if any. */
  get field(): string | null {
    const parsed = fieldSchema.safeParse(this.data);
    return parsed.success ? parsed.data.field : null;
  }

  /** The 403's `data.reason` (`setup_required`, `step_up_required`, ...), if any. */
  get reason(): string | null {
    const parsed = reasonSchema.safeParse(this.data);
    return parsed.success ? parsed.data.reason : null;
  }
}

/** The operator closed the step-up dialog: the action did not happen. */
export class StepUpCancelled extends Error {
  constructor() {
    super('step-up cancelled');
    this.name = 'StepUpCancelled';
  }
}

export interface ConsoleApiOptions {
  fetch: typeof fetch;
  /** The session's token, or null before sign-in. */
  token(): string | null;
  /** The `lang` header (the server's messages come back in it). */
  lang(): string;
  /** A new Idempotency-Key (crypto.randomUUID()). */
  newKey(): string;
  /** 401: the session is gone. */
  onSignedOut(): void;
  /** 403 setup_required: the password or the authenticator is still to do. */
  onSetupRequired(): void;
  /** 403 step_up_required: asks for a code and steps up; false when the operator cancels. */
  stepUp(): Promise<boolean>;
}

export interface ConsoleApi {
  /** A read route: no Idempotency-Key. */
  read<S extends z.ZodType>(path: string, params: object, data: S): Promise<z.output<S>>;
  /** A command: one Idempotency-Key for this action, kept across its step-up retry. */
  command<S extends z.ZodType>(path: string, params: object, data: S): Promise<z.output<S>>;
  /** An uploaded image (`/api/v1/common/img/…`, read with the session's token), as a data: URL (the CSP's img-src). */
  image(path: string): Promise<string>;
  /** The session's token, for a socket's first frame (never put in a URL); null before sign-in. */
  token(): string | null;
  /** Uploads an image through the upload call (re-encoded there, metadata stripped); its `/api/v1/common/img/…` URL. */
  upload(file: File): Promise<string>;
}

/** The console's API client; see the file header for what it guarantees. */
export function consoleApi(options: ConsoleApiOptions): ConsoleApi {
  async function post(path: string, params: object, key: string | null) {
    const headers: Record<string, string> = { 'content-type': 'application/json', lang: options.lang() };
    const token = options.token();
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (key) headers['idempotency-key'] = key;
    const response = await options.fetch(path, { method: 'POST', headers, body: JSON.stringify(params) });
    return answerSchema.parse(await response.json());
  }

  /** Throws `error`, after telling the session of a 401 or of unfinished setup. */
  function refused(error: ConsoleApiError): never {
    if (error.code === 401) options.onSignedOut();
    if (error.reason === 'setup_required') options.onSetupRequired();
    throw error;
  }

  async function call<S extends z.ZodType>(
    path: string,
    params: object,
    data: S,
    key: string | null,
  ): Promise<z.output<S>> {
    let answer = await post(path, params, key);
    let error = refusal(answer);
    if (error?.reason === 'step_up_required') {
      if (!(await options.stepUp())) throw new StepUpCancelled();
      answer = await post(path, params, key);
      error = refusal(answer);
    }
    if (error) refused(error);
    return data.parse(answer.data);
  }

  async function upload(file: File): Promise<string> {
    const form = new FormData();
    form.append('file', file, file.name);
    const headers: Record<string, string> = { lang: options.lang(), 'idempotency-key': options.newKey() };
    const token = options.token();
    if (token) headers['authorization'] = `Bearer ${token}`;
    const response = await options.fetch(UPLOAD_PATH, { method: 'POST', headers, body: form });
    const answer = answerSchema.parse(await response.json());
    const error = refusal(answer);
    if (error) refused(error);
    return uploadDataSchema.parse(answer.data).url;
  }

  async function image(path: string): Promise<string> {
    const token = options.token();
    const response = await options.fetch(
      path,
      token ? { headers: { authorization: `Bearer ${token}` } } : {},
    );
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!response.ok || !/^image\/[a-z0-9.+-]+$/.test(type)) {
      const answer = answerSchema.safeParse(await response.json().catch(() => null));
      if (answer.success) throw new ConsoleApiError(answer.data.code, answer.data.message, answer.data.data);
      throw new ConsoleApiError(response.status, response.statusText, null);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    return `data:${type};base64,${btoa(binary)}`;
  }

  return {
    read: (path, params, data) => call(path, params, data, null),
    command: (path, params, data) => call(path, params, data, options.newKey()),
    image,
    token: () => options.token(),
    upload,
  };
}

function refusal(answer: z.infer<typeof answerSchema>): ConsoleApiError | null {
  return answer.code === 200 ? null : new ConsoleApiError(answer.code, answer.message, answer.data);
}
