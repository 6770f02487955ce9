/**
 * The OTC outbox commands. An order listed (`otc-buy`, `otc-sell`) or taken carries the price
 * the user saw and the trade password: it never waits for the network (sent only while online,
 * expired after a minute; a take of an order changed meanwhile is refused with its new state),
 * each its own resource. A cancel carries no password and no price: it may wait the hour of a
 * money command (an order filled meanwhile refuses it), one resource per order. The account is
 * named in the params (a cancel's rides along: the route takes only `orderId`) and pulled after.
 */
import { z } from 'zod';
import {
  otcListParamsSchema,
  otcOrderIdParamsSchema,
  otcSideSchema,
  otcTakeParamsSchema,
} from '../../contract/api/otc.js';
import { moneySchema } from '../../contract/schema.js';
import { defineCommand, type RecordOf } from '../../sync/commands.js';
import { pricedCommand, queuedMoneyCommand } from './command-policies.js';

/** A command at a price the user saw, with the trade password. */
const priced = {
  ...pricedCommand,
  resourceOf: (_params: unknown, id: string) => `otc:new:${id}`,
} as const;

const listOf = <K extends string>(kind: K, uri: string) =>
  defineCommand({
    kind,
    uri,
    ...priced,
    input: otcListParamsSchema,
    stored: z.object({
      accountId: z.string(),
      volume: z.string(),
      price: z.string(),
      splittable: z.boolean(),
      tradePassword: z.string(),
    }),
    wireParamsOf: ({ accountId, volume, price, splittable, tradePassword }) => ({
      accountId,
      volume,
      price,
      splittable,
      tradePassword,
    }),
  });

export const otcCommands = [
  listOf('otc-buy', '/api/v1/otc/buy'),
  listOf('otc-sell', '/api/v1/otc/sell'),
  defineCommand({
    kind: 'otc-take',
    uri: '/api/v1/otc/take',
    ...priced,
    /** The order's side and the amount the user was shown to receive ride along to show the command. */
    input: otcTakeParamsSchema.extend({ side: otcSideSchema, received: moneySchema }),
    /** `side` is the order's (buy: the user sells into it); `side` and `received` are never sent. */
    stored: z.object({
      accountId: z.string(),
      orderId: z.string(),
      side: otcSideSchema,
      volume: z.string(),
      price: z.string(),
      received: z.string(),
      tradePassword: z.string(),
    }),
    wireParamsOf: ({ accountId, orderId, volume, price, tradePassword }) => ({
      accountId,
      orderId,
      volume,
      price,
      tradePassword,
    }),
  }),
  defineCommand({
    kind: 'otc-cancel',
    uri: '/api/v1/otc/cancel',
    ...queuedMoneyCommand,
    /** The order's account is named too (the route does not take it): it is pulled after the cancel. */
    input: otcOrderIdParamsSchema.extend({ accountId: otcListParamsSchema.shape.accountId }),
    stored: z.object({ accountId: z.string(), orderId: z.string() }),
    resourceOf: ({ orderId }) => `otc:order:${orderId}`,
    wireParamsOf: ({ orderId }) => ({ orderId }),
  }),
] as const;
/** An OTC command (list, take, cancel): each names its account (docs/protocol.md section 24). */
export type OtcCommand = RecordOf<(typeof otcCommands)[number]>;
