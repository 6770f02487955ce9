/**
 * The outbox's generic command machinery (CONTRACT.md "Exactly once"): the states a command
 * goes through, the fields every stored command has, and `defineCommand` / `defineCommands`,
 * with which each feature defines its own kinds and the worker assembles them into one registry.
 * The outbox and the engine know no feature: they use only a registry's generic fields. Every
 * stored command is parsed whenever it is read back from IndexedDB (STYLE rule 5), by its kind's
 * own stored schema.
 */
import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../contract/constants.js';
import type { LocalImage } from './uploader.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Pending (queued + sending) commands one user may have; the next enqueue is refused. */
export const OUTBOX_LIMIT = 50;

/**
 * queued: waiting to be sent; sending: handed to the network (it may have taken effect);
 * confirmed: the server answered 200; rejected: the server refused it (`answer` holds why);
 * expired: never sent, too old; cancelled: by the user, or by logout.
 */
export const OUTBOX_STATES = ['queued', 'sending', 'confirmed', 'rejected', 'expired', 'cancelled'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
export const PENDING_STATES = ['queued', 'sending'] as const satisfies readonly OutboxState[];

const commonFields = {
  /** The command's Idempotency-Key, made when the user acted; every send reuses it. */
  id: z.string().min(1),
  /** What the command changes; a rejected command holds back later ones on the same resource. */
  resource: z.string(),
  state: z.enum(OUTBOX_STATES),
  /** Order of sending; a retry takes its original's place. */
  seq: z.number(),
  createdAtMs: z.number(),
  expiresAtMs: z.number(),
  updatedAtMs: z.number(),
  /** Times the command was handed to the network (each may include the queue's retries). */
  attempts: z.number().int(),
  /** Why the last send did not settle (transport failure, 5xx, 500), for the UI. */
  lastError: z.string().nullable(),
  /** The server's final answer: 200 for confirmed, the refusal's code and message for rejected. */
  answer: z.object({ code: z.number(), message: z.string() }).nullable(),
  /** The id of the new command a retry made from this one. */
  retriedAs: z.string().nullable(),
  /** The user put a rejected or expired command aside; it no longer holds its resource back. */
  dismissed: z.boolean(),
};
const commonSchema = z.object(commonFields);
/** The fields every stored command has, whatever its kind. */
export type CommonRecord = z.infer<typeof commonSchema>;

/** One row of the `outbox` table of `coffer-u{user}`, of kind K with params P. */
export type OutboxRecordOf<K extends string, P> = CommonRecord & { kind: K; params: P };
/** A stored command of any kind, as the outbox and its storage see it. */
export type StoredRecord = OutboxRecordOf<string, unknown>;

/** True when the command is still to be sent (queued or sending). */
export function isPending(record: { state: OutboxState }): boolean {
  return record.state === 'queued' || record.state === 'sending';
}

/** True when a rejected command still holds back later commands on its resource. */
export function isBlocking(record: CommonRecord): boolean {
  return record.state === 'rejected' && !record.dismissed && record.retriedAs === null;
}

/** Stored params as plain fields, every one kept. */
const fieldsOf = z.looseObject({});

/** A local file a command keeps until it is uploaded: its upload key, and its URL once uploaded. */
export const storedUploadSchema = z.object({
  key: z.string(),
  type: z.string(),
  name: z.string(),
  bytes: z.instanceof(Uint8Array).nullable(),
  url: z.string().nullable(),
});

/** A file picked for upload, refused at enqueue as the server would refuse it: empty, or too large. */
export const uploadBlobSchema = z
  .instanceof(Blob)
  .refine((blob) => blob.size > 0, { error: 'server.upload_missing' })
  .refine((blob) => blob.size <= UPLOAD_MAX_BYTES, { error: 'server.upload_too_large' });

/** A local file a command uploads before it is sent, under its own Idempotency-Key. */
export interface PendingUpload {
  /** Which of the command's files (handed back to `uploaded`). */
  index: number;
  key: string;
  file: LocalImage;
}

/** What a feature writes for one command kind; see `defineCommand`. */
export interface CommandSpec<K extends string, I extends z.ZodType, S extends z.ZodType> {
  kind: K;
  /** The API route the command posts to. */
  uri: string;
  /** Milliseconds after the user acted; a command still queued later becomes `expired`. */
  maxAgeMs: number;
  /**
   * True for a command that must not wait for the network (it carries a one-time code or a
   * price the user saw): it is refused at enqueue while offline and sent only while online.
   */
  requiresOnline: boolean;
  /**
   * True when a confirmation changes accounts other than the active one (a transfer's other
   * side, a new sub-account): every known account is pulled after it, not only the active one.
   */
  pullsEveryAccount: boolean;
  /** What the UI enqueues (`outbox-enqueue`), parsed at the worker's edge. */
  input: I;
  /** The params as stored in the outbox, parsed whenever read back. */
  stored: S;
  /**
   * Fields blanked once the command settles (a code, a password): no secret stays on the device
   * for the outbox's week of history. A kind with secrets is never retried: the user acts again.
   */
  secrets: readonly (keyof z.output<S> & string)[];
  /**
   * The stored params of parsed input; `newKey` makes keys the command needs (an upload's).
   * Defaults to the input's fields the stored schema names.
   */
  toStored?(input: z.output<I>, newKey: () => string): z.output<S> | Promise<z.output<S>>;
  /** What the command changes (see `CommonRecord.resource`); `id` is the command's own. */
  resourceOf(params: z.output<S>, id: string): string;
  /**
   * The account a confirmed command changed, when it names one that may not be the active one
   * by the time it is confirmed; null when it names none.
   */
  accountChangedBy(params: z.output<S>): string | null;
  /** The params the command posts, or null while one of its files has no URL yet. */
  wireParamsOf(params: z.output<S>): Record<string, unknown> | null;
  /** Files to upload before the command is sent, and how the params keep an upload's URL. */
  uploads?: {
    pending(params: z.output<S>): readonly PendingUpload[];
    uploaded(params: z.output<S>, index: number, url: string): z.output<S>;
  };
  /** A retry's params (defaults to the same): e.g. new upload keys for files not uploaded yet. */
  renew?(params: z.output<S>, newKey: () => string): z.output<S>;
}

export type EnqueueParsed = { ok: true; params: Promise<unknown> } | { ok: false; error: z.ZodError };

/**
 * One command kind as the outbox and the engine use it: every operation takes params it has
 * not seen typed (a stored row's) and parses them by the kind's own schema first, so a row of
 * another shape throws rather than being sent wrong. `spec` keeps the precise types.
 */
export interface CommandDefinition<
  K extends string = string,
  I extends z.ZodType = z.ZodType,
  S extends z.ZodType = z.ZodType,
> {
  readonly kind: K;
  readonly uri: string;
  readonly maxAgeMs: number;
  readonly requiresOnline: boolean;
  readonly pullsEveryAccount: boolean;
  /** True when the kind has secrets: it is never retried. */
  readonly carriesSecrets: boolean;
  readonly spec: CommandSpec<K, I, S>;
  /** A stored row of this kind, parsed by its stored schema; null for any other row. Pure. */
  parseRecord(row: unknown): StoredRecord | null;
  /** Parses `{kind, params}` and makes the stored params (`newKey` for keys they hold). */
  enqueue(input: unknown, newKey: () => string): EnqueueParsed;
  withoutSecrets(params: unknown): unknown;
  resourceOf(params: unknown, id: string): string;
  accountChangedBy(params: unknown): string | null;
  wireParamsOf(params: unknown): Record<string, unknown> | null;
  pendingUploads(params: unknown): readonly PendingUpload[];
  uploaded(params: unknown, index: number, url: string): unknown;
  renew(params: unknown, newKey: () => string): unknown;
}

/**
 * One command kind, defined once by its feature. Pure; the returned operations parse the params
 * they are given by the kind's stored schema.
 */
export function defineCommand<K extends string, I extends z.ZodType, S extends z.ZodType>(
  spec: CommandSpec<K, I, S>,
): CommandDefinition<K, I, S> {
  const own = (params: unknown): z.output<S> => spec.stored.parse(params);
  const envelope = z.object({ kind: z.literal(spec.kind), params: z.unknown() });
  const commonRecord = commonSchema.extend({ kind: z.literal(spec.kind), params: z.unknown() });
  return {
    kind: spec.kind,
    uri: spec.uri,
    maxAgeMs: spec.maxAgeMs,
    requiresOnline: spec.requiresOnline,
    pullsEveryAccount: spec.pullsEveryAccount,
    carriesSecrets: spec.secrets.length > 0,
    spec,
    parseRecord(row) {
      const record = commonRecord.safeParse(row);
      if (!record.success) return null;
      const params = spec.stored.safeParse(record.data.params);
      return params.success ? { ...record.data, params: params.data } : null;
    },
    enqueue(input, newKey) {
      const outer = envelope.safeParse(input);
      if (!outer.success) return { ok: false, error: outer.error };
      const parsed = spec.input.safeParse(outer.data.params);
      if (!parsed.success) {
        // Named inside params, as one schema of the whole input would name them.
        const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ['params', ...issue.path] }));
        return { ok: false, error: new z.ZodError(issues) };
      }
      const stored = spec.toStored?.(parsed.data, newKey) ?? own(parsed.data);
      return { ok: true, params: Promise.resolve(stored) };
    },
    withoutSecrets(params) {
      const blanked = { ...fieldsOf.parse(own(params)) };
      for (const field of spec.secrets) blanked[field] = '';
      return own(blanked);
    },
    resourceOf: (params, id) => spec.resourceOf(own(params), id),
    accountChangedBy: (params) => spec.accountChangedBy(own(params)),
    wireParamsOf: (params) => spec.wireParamsOf(own(params)),
    pendingUploads: (params) => spec.uploads?.pending(own(params)) ?? [],
    uploaded: (params, index, url) => spec.uploads?.uploaded(own(params), index, url) ?? own(params),
    renew: (params, newKey) => spec.renew?.(own(params), newKey) ?? own(params),
  };
}

/** The stored record of a definition, or of any of a list's. */
export type RecordOf<D> =
  D extends CommandDefinition<infer K, z.ZodType, infer S> ? OutboxRecordOf<K, z.output<S>> : never;
/** What the UI enqueues for a definition, or for any of a list's. */
export type InputOf<D> =
  D extends CommandDefinition<infer K, infer I, z.ZodType> ? { kind: K; params: z.input<I> } : never;

/** Every command kind of the client, by kind; what the outbox, the engine and the storage use. */
export interface CommandRegistry {
  /** The definition of `kind`, or null for a kind no feature defines. */
  of(kind: string): CommandDefinition | null;
  readonly kinds: readonly string[];
  /** A stored row of a defined kind, parsed by its kind's schema; null for any other row. Pure. */
  parseRecord(row: unknown): StoredRecord | null;
  /**
   * Parses `{kind, params}` as the UI enqueues it (an unknown kind fails on `kind`) and makes
   * its stored params.
   */
  enqueue(
    input: unknown,
    newKey: () => string,
  ): ({ ok: true; definition: CommandDefinition } & EnqueueParsed) | { ok: false; error: z.ZodError };
}

const kindOnlySchema = z.object({ kind: z.string() });

/**
 * The registry of every feature's command list, assembled once (the worker's start).
 * @throws Error naming a kind defined twice, or when no kind is defined.
 */
export function defineCommands(...lists: readonly (readonly CommandDefinition[])[]): CommandRegistry {
  const byKind = new Map<string, CommandDefinition>();
  for (const definition of lists.flat()) {
    if (byKind.has(definition.kind)) throw new Error(`command kind defined twice: ${definition.kind}`);
    byKind.set(definition.kind, definition);
  }
  const kinds = [...byKind.keys()];
  const [first, ...rest] = kinds;
  if (first === undefined) throw new Error('no command kind defined');
  // Refuses an unknown kind as one union of all kinds would: on `kind`, as "Invalid input".
  const kindSchema = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal(first) }),
    ...rest.map((kind) => z.object({ kind: z.literal(kind) })),
  ]);
  return {
    of: (kind) => byKind.get(kind) ?? null,
    kinds,
    parseRecord(row) {
      const kind = kindOnlySchema.safeParse(row);
      if (!kind.success) return null;
      return byKind.get(kind.data.kind)?.parseRecord(row) ?? null;
    },
    enqueue(input, newKey) {
      const kind = kindSchema.safeParse(input);
      if (!kind.success) return { ok: false, error: kind.error };
      const definition = byKind.get(kind.data.kind);
      if (definition === undefined) throw new Error(`unreachable: kind ${kind.data.kind} parsed`);
      const parsed = definition.enqueue(input, newKey);
      return parsed.ok ? { ...parsed, definition } : parsed;
    },
  };
}
