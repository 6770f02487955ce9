/**
 * The outbox's command kinds (CONTRACT.md "Exactly once"): for each, the route it calls, how
 * long after the user acted it may still be sent, and whether it may wait for the network at
 * all. Also the stored shape of a command, parsed whenever it is read back from IndexedDB
 * (STYLE rule 5), and the shape the UI enqueues, parsed at the worker's edge.
 */
import { z } from 'zod';
import {
  accountIdParamsSchema,
  accountTransferParamsSchema,
  assetSchema,
  createSubAccountParamsSchema,
} from '../contract/api/account.js';
import {
  avatarUpdateParamsSchema,
  nameUpdateParamsSchema,
  pushFeedbackParamsSchema,
} from '../contract/api/content.js';
import { withdrawCreateParamsSchema } from '../contract/api/withdraw.js';
import { exchangeDirectionSchema, exchangeSubmitParamsSchema } from '../contract/api/exchange.js';
import { machineBuyParamsSchema, machineRentParamsSchema, payWithSchema } from '../contract/api/machine.js';
import {
  hostingChangeParamsSchema,
  hostingCreateParamsSchema,
  hostingRedeemParamsSchema,
} from '../contract/api/hosting.js';
import { aiReceiveParamsSchema } from '../contract/api/dividend.js';
import {
  otcListParamsSchema,
  otcOrderIdParamsSchema,
  otcSideSchema,
  otcTakeParamsSchema,
} from '../contract/api/otc.js';
import { moneySchema } from '../contract/schema.js';
import {
  MONEY_COMMAND_EXPIRY_MS,
  ONLINE_COMMAND_EXPIRY_MS,
  UPLOAD_MAX_BYTES,
} from '../contract/constants.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The life of a command carrying a one-time code: a code is only good for minutes. */
export const ONE_TIME_CODE_MAX_AGE_MS = 60 * 1000;
/** Pending (queued + sending) commands one user may have; the next enqueue is refused. */
export const OUTBOX_LIMIT = 50;
/** At most this many images on a ticket (the spec's album maximum, as the server checks). */
export const FEEDBACK_MAX_IMAGES = 9;

export interface CommandKindSpec {
  /** The API route the command posts to. */
  uri: string;
  /** Milliseconds after the user acted; a command still queued later becomes `expired`. */
  maxAgeMs: number;
  /**
   * True for a command that must not wait for the network (it carries a one-time code): it is
   * refused at enqueue while offline and sent only while online.
   */
  requiresOnline: boolean;
  /**
   * True when a confirmation changes accounts other than the active one (a transfer's other
   * side, a new sub-account): every known account is pulled after it, not only the active one.
   */
  pullsEveryAccount: boolean;
}

const everyday = { maxAgeMs: DAY_MS, requiresOnline: false, pullsEveryAccount: false } as const;
/** An order's increase, decrease or redeem: no password, so it may wait an hour in the outbox. */
const hostingChange = {
  maxAgeMs: MONEY_COMMAND_EXPIRY_MS,
  requiresOnline: false,
  pullsEveryAccount: false,
} as const;

/** A command at a price the user saw, with the trade password: sent only while online, within a minute. */
const priced = {
  maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
  requiresOnline: true,
  pullsEveryAccount: false,
} as const;

/**
 * A command names the accounts it acts on in its own params (never "the active account"), so a
 * command queued under one account can never apply to another after a switch.
 */
export const COMMAND_KINDS = {
  'profile-nickname': { uri: '/api/v1/user/name-update', ...everyday },
  'profile-avatar': { uri: '/api/v1/user/avatar-update', ...everyday },
  'feedback-submit': { uri: '/api/v1/common/pushFeedback', ...everyday },
  /** Money between two of the user's accounts; a price-free money command expires within the hour. */
  'account-transfer': {
    uri: '/api/v1/account/transfer',
    maxAgeMs: MONEY_COMMAND_EXPIRY_MS,
    requiresOnline: false,
    pullsEveryAccount: true,
  },
  'account-create': { uri: '/api/v1/account/createSubAccount', ...everyday, pullsEveryAccount: true },
  /** Sets the default account the server shows first (the device's own choice is `account-select`). */
  'account-switch': { uri: '/api/v1/account/switch', ...everyday },
  /**
   * A withdrawal: it carries an authenticator code (good for a minute) and the trade password,
   * so it never waits for the network; its account is named in its params and pulled after it.
   */
  'withdraw-create': {
    uri: '/api/v1/withdraw/create',
    maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
    requiresOnline: true,
    pullsEveryAccount: false,
  },
  /**
   * An exchange at the price version the user saw: it carries that price and the trade
   * password, so it never waits for the network (a minute-old quote is refused, never filled at a
   * price the user did not see); its account is named in its params and pulled after it.
   */
  'exchange-submit': {
    uri: '/api/v1/exchange/submit',
    maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
    requiresOnline: true,
    pullsEveryAccount: false,
  },
  /**
   * A claim of AI dividends (one record, or every claimable one of the account): money to cash
   * with no trade password and no price, so it may wait in the outbox for an hour; its account is
   * named in its params and pulled after it.
   */
  'dividend-claim': {
    uri: '/api/v1/user/aiReceive',
    maxAgeMs: MONEY_COMMAND_EXPIRY_MS,
    requiresOnline: false,
    pullsEveryAccount: false,
  },
  /**
   * A hosting order from the account's cash: it carries the trade password, so it never waits
   * for the network (as a withdrawal); its account is named in its params and pulled after it.
   */
  'hosting-create': {
    uri: '/api/v1/hosting/create',
    maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
    requiresOnline: true,
    pullsEveryAccount: false,
  },
  /**
   * An order's increase, decrease and redeem carry no password (docs/protocol.md section 20):
   * they wait in the outbox while offline, at most the hour of a money command. The order's
   * account rides along in the stored params (the routes take only `orderId`) and is pulled after.
   */
  'hosting-add': { uri: '/api/v1/hosting/add', ...hostingChange },
  'hosting-sub': { uri: '/api/v1/hosting/sub', ...hostingChange },
  'hosting-redeem': { uri: '/api/v1/hosting/redeem', ...hostingChange },
  /**
   * A buy of mining machines, or a rent of them: each carries the trade password, so it never
   * waits for the network (sent only while online, expired after a minute) and is never retried
   * (the password is blanked once it settles); its account is named in its params and pulled after it.
   */
  'machine-buy': {
    uri: '/api/v1/machine/buy',
    maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
    requiresOnline: true,
    pullsEveryAccount: false,
  },
  'machine-rent': {
    uri: '/api/v1/machine/rent',
    maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
    requiresOnline: true,
    pullsEveryAccount: false,
  },
  /**
   * An OTC order listed, or an order taken (issue 14): each carries the price the user saw and
   * the trade password, so it never waits for the network (sent only while online, expired after
   * a minute; a take of an order changed meanwhile is refused with its new state). The account
   * is named in the params and pulled after it, with the public book.
   */
  'otc-buy': { uri: '/api/v1/otc/buy', ...priced },
  'otc-sell': { uri: '/api/v1/otc/sell', ...priced },
  'otc-take': { uri: '/api/v1/otc/take', ...priced },
  /**
   * A cancel carries no password and no price: it may wait in the outbox for the hour of a money
   * command (an order filled meanwhile refuses it with its state). The order's account rides
   * along in the stored params (the route takes only `orderId`) and is pulled after.
   */
  'otc-cancel': {
    uri: '/api/v1/otc/cancel',
    maxAgeMs: MONEY_COMMAND_EXPIRY_MS,
    requiresOnline: false,
    pullsEveryAccount: false,
  },
} as const satisfies Record<string, CommandKindSpec>;

export type CommandKind = keyof typeof COMMAND_KINDS;

/**
 * queued: waiting to be sent; sending: handed to the network (it may have taken effect);
 * confirmed: the server answered 200; rejected: the server refused it (`answer` holds why);
 * expired: never sent, too old; cancelled: by the user, or by logout.
 */
export const OUTBOX_STATES = ['queued', 'sending', 'confirmed', 'rejected', 'expired', 'cancelled'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
export const PENDING_STATES = ['queued', 'sending'] as const satisfies readonly OutboxState[];

/**
 * An image of a ticket. A local one is uploaded as its own step under its own Idempotency-Key
 * (made when the user acted); once uploaded, `url` is kept and the bytes are let go.
 */
const storedImageSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('url'), url: z.string() }),
  z.object({
    source: z.literal('local'),
    key: z.string(),
    type: z.string(),
    name: z.string(),
    bytes: z.instanceof(Uint8Array).nullable(),
    url: z.string().nullable(),
  }),
]);
export type StoredImage = z.infer<typeof storedImageSchema>;

/** A listed OTC order as stored (`otc-buy`, `otc-sell`). */
const storedOtcListSchema = z.object({
  accountId: z.string(),
  volume: z.string(),
  price: z.string(),
  splittable: z.boolean(),
  tradePassword: z.string(),
});

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

export const outboxRecordSchema = z.discriminatedUnion('kind', [
  z.object({
    ...commonFields,
    kind: z.literal('profile-nickname'),
    params: z.object({ nickname: z.string() }),
  }),
  z.object({ ...commonFields, kind: z.literal('profile-avatar'), params: z.object({ avatar: z.string() }) }),
  z.object({
    ...commonFields,
    kind: z.literal('feedback-submit'),
    params: z.object({ title: z.string(), content: z.string(), images: z.array(storedImageSchema) }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('account-transfer'),
    params: z.object({
      fromAccountId: z.string(),
      toAccountId: z.string(),
      asset: assetSchema,
      amount: z.string(),
    }),
  }),
  z.object({ ...commonFields, kind: z.literal('account-create'), params: z.object({ name: z.string() }) }),
  z.object({
    ...commonFields,
    kind: z.literal('account-switch'),
    params: z.object({ accountId: z.string() }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('withdraw-create'),
    /** `googleCode` and `tradePassword` are blanked once the command settles (`withoutSecrets`). */
    params: z.object({
      accountId: z.string(),
      amount: z.string(),
      methodId: z.string(),
      googleCode: z.string(),
      tradePassword: z.string(),
    }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('exchange-submit'),
    /** `tradePassword` is blanked once the command settles (`withoutSecrets`). */
    params: z.object({
      accountId: z.string(),
      direction: exchangeDirectionSchema,
      amount: z.string(),
      priceVersion: z.string(),
      tradePassword: z.string(),
    }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('dividend-claim'),
    /** `id` null claims every claimable record; `amount` is what the user saw, shown only (never sent). */
    params: z.object({ accountId: z.string(), id: z.string().nullable(), amount: z.string() }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('hosting-create'),
    /** `tradePassword` is blanked once the command settles (`withoutSecrets`). */
    params: z.object({
      accountId: z.string(),
      productId: z.string(),
      amount: z.string(),
      tradePassword: z.string(),
    }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('hosting-add'),
    params: z.object({ accountId: z.string(), orderId: z.string(), amount: z.string() }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('hosting-sub'),
    params: z.object({ accountId: z.string(), orderId: z.string(), amount: z.string() }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('hosting-redeem'),
    params: z.object({ accountId: z.string(), orderId: z.string() }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('machine-buy'),
    /** `tradePassword` is blanked once the command settles (`withoutSecrets`). */
    params: z.object({
      accountId: z.string(),
      machineId: z.string(),
      quantity: z.number().int(),
      payWith: payWithSchema,
      tradePassword: z.string(),
    }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('machine-rent'),
    /** `tradePassword` is blanked once the command settles (`withoutSecrets`). */
    params: z.object({
      accountId: z.string(),
      machineId: z.string(),
      days: z.number().int(),
      quantity: z.number().int(),
      tradePassword: z.string(),
    }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('otc-buy'),
    /** `tradePassword` is blanked once the command settles (`withoutSecrets`). */
    params: storedOtcListSchema,
  }),
  z.object({ ...commonFields, kind: z.literal('otc-sell'), params: storedOtcListSchema }),
  z.object({
    ...commonFields,
    kind: z.literal('otc-take'),
    /**
     * `side` is the order's (buy: the user sells into it); `received` what the user was shown to
     * receive; both only shown, never sent. `tradePassword` is blanked once it settles.
     */
    params: z.object({
      accountId: z.string(),
      orderId: z.string(),
      side: otcSideSchema,
      volume: z.string(),
      price: z.string(),
      received: z.string(),
      tradePassword: z.string(),
    }),
  }),
  z.object({
    ...commonFields,
    kind: z.literal('otc-cancel'),
    params: z.object({ accountId: z.string(), orderId: z.string() }),
  }),
]);
/** One row of the `outbox` table of `coffer-u{user}`; the UI lists pending commands from it. */
export type OutboxRecord = z.infer<typeof outboxRecordSchema>;

/** A kind with its own params: one member per kind, so narrowing on `kind` narrows `params`. */
export type StoredCommand = {
  [K in OutboxRecord['kind']]: Pick<Extract<OutboxRecord, { kind: K }>, 'kind' | 'params'>;
}[OutboxRecord['kind']];

/** True when the command is still to be sent (queued or sending). */
export function isPending(record: { state: OutboxState }): boolean {
  return record.state === 'queued' || record.state === 'sending';
}

/** True when a rejected command still holds back later commands on its resource. */
export function isBlocking(record: OutboxRecord): boolean {
  return record.state === 'rejected' && !record.dismissed && record.retriedAs === null;
}

/**
 * A command as kept once it settled (confirmed, rejected, expired, cancelled): a withdrawal's
 * authenticator code and trade password blanked, so no secret stays on the device for the
 * outbox's week of history. A queued or sending command keeps them: a resend must carry the same
 * body as the first send (the server compares it under the Idempotency-Key). Pure.
 */
export function withoutSecrets(record: OutboxRecord): OutboxRecord {
  if (record.kind === 'withdraw-create')
    return { ...record, params: { ...record.params, googleCode: '', tradePassword: '' } };
  if (record.kind === 'exchange-submit')
    return { ...record, params: { ...record.params, tradePassword: '' } };
  if (record.kind === 'hosting-create') return { ...record, params: { ...record.params, tradePassword: '' } };
  if (record.kind === 'machine-buy') return { ...record, params: { ...record.params, tradePassword: '' } };
  if (record.kind === 'machine-rent') return { ...record, params: { ...record.params, tradePassword: '' } };
  if (record.kind === 'otc-buy') return { ...record, params: { ...record.params, tradePassword: '' } };
  if (record.kind === 'otc-sell') return { ...record, params: { ...record.params, tradePassword: '' } };
  if (record.kind === 'otc-take') return { ...record, params: { ...record.params, tradePassword: '' } };
  return record;
}

/** True for a kind whose secrets are blanked when it settles: it is never retried, the user acts again. */
export function carriesSecrets(kind: CommandKind): boolean {
  return SECRET_KINDS.has(kind);
}
const SECRET_KINDS: ReadonlySet<CommandKind> = new Set<CommandKind>([
  'withdraw-create',
  'exchange-submit',
  'hosting-create',
  'machine-buy',
  'machine-rent',
  'otc-buy',
  'otc-sell',
  'otc-take',
]);

/** The OTC commands: each names its account (docs/protocol.md section 24). */
export const OTC_KINDS = ['otc-buy', 'otc-sell', 'otc-take', 'otc-cancel'] as const;
export type OtcCommand = Extract<OutboxRecord, { kind: (typeof OTC_KINDS)[number] }>;

/** True for an OTC command (list, take, cancel). Pure. */
export function isOtcCommand(record: OutboxRecord): record is OtcCommand {
  return OTC_KINDS.some((kind) => kind === record.kind);
}

/** The hosting commands: each names the account of its order (docs/protocol.md section 20). */
export const HOSTING_KINDS = ['hosting-create', 'hosting-add', 'hosting-sub', 'hosting-redeem'] as const;
export type HostingCommand = Extract<OutboxRecord, { kind: (typeof HOSTING_KINDS)[number] }>;

/** True for a hosting command (create, add, sub, redeem). Pure. */
export function isHostingCommand(record: OutboxRecord): record is HostingCommand {
  return HOSTING_KINDS.some((kind) => kind === record.kind);
}

/**
 * The account a confirmed command changed, when it names one that may not be the active one by
 * the time it is confirmed (a withdrawal's); null otherwise. Pure.
 */
export function accountChangedBy(record: OutboxRecord): string | null {
  if (record.kind === 'machine-buy' || record.kind === 'machine-rent') return record.params.accountId;
  if (isHostingCommand(record) || isOtcCommand(record)) return record.params.accountId;
  return record.kind === 'withdraw-create' ||
    record.kind === 'exchange-submit' ||
    record.kind === 'dividend-claim'
    ? record.params.accountId
    : null;
}

const imageUrlSchema = pushFeedbackParamsSchema.shape.images.unwrap().element;
const imageBlobSchema = z
  .instanceof(Blob)
  .refine((blob) => blob.size > 0, { error: 'server.upload_missing' })
  .refine((blob) => blob.size <= UPLOAD_MAX_BYTES, { error: 'server.upload_too_large' });

/** The account of a hosting order's change: named as `create` names it. */
const orderAccountSchema = hostingCreateParamsSchema.shape.accountId;

/** What the UI enqueues (`outbox-enqueue`): a kind and its params, as the route takes them. */
export const enqueueInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('profile-nickname'), params: nameUpdateParamsSchema }),
  z.object({ kind: z.literal('profile-avatar'), params: avatarUpdateParamsSchema }),
  z.object({
    kind: z.literal('feedback-submit'),
    params: z.object({
      title: pushFeedbackParamsSchema.shape.title,
      content: pushFeedbackParamsSchema.shape.content,
      /** Uploaded image URLs, or local images (Blob/File) uploaded before the ticket is sent. */
      images: z
        .array(z.union([imageUrlSchema, imageBlobSchema]))
        .max(FEEDBACK_MAX_IMAGES, { error: 'server.field_invalid' })
        .default([]),
    }),
  }),
  /** `amount` as the user typed it (at most 2 decimals); stored normalised (`"10.50"` -> `"10.5"`). */
  z.object({ kind: z.literal('account-transfer'), params: accountTransferParamsSchema }),
  z.object({ kind: z.literal('account-create'), params: createSubAccountParamsSchema }),
  z.object({ kind: z.literal('account-switch'), params: accountIdParamsSchema }),
  /** The account is required here (the route defaults it): a command names its account. */
  z.object({
    kind: z.literal('withdraw-create'),
    params: withdrawCreateParamsSchema.required({ accountId: true }),
  }),
  z.object({ kind: z.literal('exchange-submit'), params: exchangeSubmitParamsSchema }),
  /** `amount` is the sum the user saw, kept to show the command; the server pays what the records hold. */
  z.object({
    kind: z.literal('dividend-claim'),
    params: aiReceiveParamsSchema.required({ accountId: true }).extend({ amount: moneySchema }),
  }),
  z.object({ kind: z.literal('hosting-create'), params: hostingCreateParamsSchema }),
  /** The order's account is named too (the routes do not take it): it is pulled after the change. */
  z.object({
    kind: z.literal('hosting-add'),
    params: hostingChangeParamsSchema.extend({ accountId: orderAccountSchema }),
  }),
  z.object({
    kind: z.literal('hosting-sub'),
    params: hostingChangeParamsSchema.extend({ accountId: orderAccountSchema }),
  }),
  z.object({
    kind: z.literal('hosting-redeem'),
    params: hostingRedeemParamsSchema.extend({ accountId: orderAccountSchema }),
  }),
  z.object({ kind: z.literal('machine-buy'), params: machineBuyParamsSchema }),
  /** `quantity` defaults to 1 here, so the stored command shows what is sent. */
  z.object({
    kind: z.literal('machine-rent'),
    params: machineRentParamsSchema.extend({ quantity: machineRentParamsSchema.shape.quantity.default(1) }),
  }),
  z.object({ kind: z.literal('otc-buy'), params: otcListParamsSchema }),
  z.object({ kind: z.literal('otc-sell'), params: otcListParamsSchema }),
  /** The order's side and the amount the user was shown to receive ride along to show the command. */
  z.object({
    kind: z.literal('otc-take'),
    params: otcTakeParamsSchema.extend({ side: otcSideSchema, received: moneySchema }),
  }),
  /** The order's account is named too (the route does not take it): it is pulled after the cancel. */
  z.object({
    kind: z.literal('otc-cancel'),
    params: otcOrderIdParamsSchema.extend({ accountId: otcListParamsSchema.shape.accountId }),
  }),
]);
export type EnqueueInput = z.input<typeof enqueueInputSchema>;
export type ParsedEnqueueInput = z.output<typeof enqueueInputSchema>;

/**
 * The resource a command changes: one per profile field, one per new ticket or sub-account, the
 * paying account of a transfer (a refused transfer holds later ones from that account back),
 * the default-account choice. Pure.
 */
export function resourceOf(command: StoredCommand, id: string): string {
  switch (command.kind) {
    case 'profile-nickname':
      return 'profile.nickname';
    case 'profile-avatar':
      return 'profile.avatar';
    case 'feedback-submit':
      return `feedback:new:${id}`;
    case 'account-transfer':
      return `account:${command.params.fromAccountId}`;
    case 'account-create':
      return `account:new:${id}`;
    case 'account-switch':
      return 'account.default';
    case 'withdraw-create':
      // Each its own: a refused withdrawal holds nothing back (the next one has its own code).
      return `withdraw:new:${id}`;
    case 'exchange-submit':
      // Each its own: a refused exchange (a stale price) holds nothing back.
      return `exchange:new:${id}`;
    case 'machine-buy':
    case 'machine-rent':
      // Each its own: a refused buy (short cash, a wrong password) holds nothing back.
      return `machine:new:${id}`;
    case 'dividend-claim':
      // Each its own: a refused claim (already claimed, expired) holds nothing back.
      return `dividend:claim:${id}`;
    case 'hosting-create':
      // Each its own, as a withdrawal: a refused order holds nothing back.
      return `hosting:new:${id}`;
    case 'hosting-add':
    case 'hosting-sub':
    case 'hosting-redeem':
      // One order's changes go in the order they were made; a refused one holds the later back.
      return `hosting:order:${command.params.orderId}`;
    case 'otc-buy':
    case 'otc-sell':
    case 'otc-take':
      // Each its own: a refused listing or take (a changed order, short money) holds nothing back.
      return `otc:new:${id}`;
    case 'otc-cancel':
      return `otc:order:${command.params.orderId}`;
  }
}

/**
 * The params a command posts, or null while a local image has no URL yet. Pure.
 */
export function wireParamsOf(record: OutboxRecord): Record<string, unknown> | null {
  switch (record.kind) {
    case 'profile-nickname':
      return { nickname: record.params.nickname };
    case 'profile-avatar':
      return { avatar: record.params.avatar };
    case 'feedback-submit': {
      const urls: string[] = [];
      for (const image of record.params.images) {
        if (image.url === null) return null;
        urls.push(image.url);
      }
      return { title: record.params.title, content: record.params.content, images: urls };
    }
    case 'account-transfer': {
      const { fromAccountId, toAccountId, asset, amount } = record.params;
      return { fromAccountId, toAccountId, asset, amount };
    }
    case 'account-create':
      return { name: record.params.name };
    case 'account-switch':
      return { accountId: record.params.accountId };
    case 'withdraw-create': {
      const { accountId, amount, methodId, googleCode, tradePassword } = record.params;
      return { accountId, amount, methodId, googleCode, tradePassword };
    }
    case 'exchange-submit': {
      const { accountId, direction, amount, priceVersion, tradePassword } = record.params;
      return { accountId, direction, amount, priceVersion, tradePassword };
    }
    case 'machine-buy': {
      const { accountId, machineId, quantity, payWith, tradePassword } = record.params;
      return { accountId, machineId, quantity: String(quantity), payWith, tradePassword };
    }
    case 'machine-rent': {
      const { accountId, machineId, days, quantity, tradePassword } = record.params;
      return { accountId, machineId, days: String(days), quantity: String(quantity), tradePassword };
    }
    case 'dividend-claim': {
      const { accountId, id } = record.params;
      return id === null ? { accountId } : { accountId, id };
    }
    case 'hosting-create': {
      const { accountId, productId, amount, tradePassword } = record.params;
      return { accountId, productId, amount, tradePassword };
    }
    // The account is the client's own note: the routes name the order only.
    case 'hosting-add':
    case 'hosting-sub':
      return { orderId: record.params.orderId, amount: record.params.amount };
    case 'hosting-redeem':
      return { orderId: record.params.orderId };
    case 'otc-buy':
    case 'otc-sell': {
      const { accountId, volume, price, splittable, tradePassword } = record.params;
      return { accountId, volume, price, splittable, tradePassword };
    }
    case 'otc-take': {
      const { accountId, orderId, volume, price, tradePassword } = record.params;
      return { accountId, orderId, volume, price, tradePassword };
    }
    case 'otc-cancel':
      return { orderId: record.params.orderId };
  }
}
