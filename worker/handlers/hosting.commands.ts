/**
 * The hosting orders' outbox commands. An order from the account's cash carries the trade
 * password: it never waits for the network (as a withdrawal), each its own resource. An order's
 * increase, decrease and redeem carry no password (docs/protocol.md section 20): they wait in the
 * outbox while offline, at most the hour of a money command, in the order they were made (one
 * resource per order). The order's account rides along in the stored params (the routes take
 * only `orderId`) and is pulled after.
 */
import { z } from 'zod';
import {
  hostingChangeParamsSchema,
  hostingCreateParamsSchema,
  hostingRedeemParamsSchema,
} from '../../contract/api/hosting.js';
import { defineCommand, type RecordOf } from '../../sync/commands.js';
import { pricedCommand, queuedMoneyCommand } from './command-policies.js';

/** The account of a hosting order's change: named as `create` names it. */
const orderAccountSchema = hostingCreateParamsSchema.shape.accountId;

const orderChange = {
  ...queuedMoneyCommand,
  resourceOf: ({ orderId }: { orderId: string }) => `hosting:order:${orderId}`,
} as const;

const changeOf = <K extends string>(kind: K, uri: string) =>
  defineCommand({
    kind,
    uri,
    ...orderChange,
    input: hostingChangeParamsSchema.extend({ accountId: orderAccountSchema }),
    stored: z.object({ accountId: z.string(), orderId: z.string(), amount: z.string() }),
    // The account is the client's own note: the routes name the order only.
    wireParamsOf: ({ orderId, amount }) => ({ orderId, amount }),
  });

export const hostingCommands = [
  defineCommand({
    kind: 'hosting-create',
    uri: '/api/v1/hosting/create',
    ...pricedCommand,
    input: hostingCreateParamsSchema,
    stored: z.object({
      accountId: z.string(),
      productId: z.string(),
      amount: z.string(),
      tradePassword: z.string(),
    }),
    resourceOf: (_params, id) => `hosting:new:${id}`,
    wireParamsOf: ({ accountId, productId, amount, tradePassword }) => ({
      accountId,
      productId,
      amount,
      tradePassword,
    }),
  }),
  changeOf('hosting-add', '/api/v1/hosting/add'),
  changeOf('hosting-sub', '/api/v1/hosting/sub'),
  defineCommand({
    kind: 'hosting-redeem',
    uri: '/api/v1/hosting/redeem',
    ...orderChange,
    input: hostingRedeemParamsSchema.extend({ accountId: orderAccountSchema }),
    stored: z.object({ accountId: z.string(), orderId: z.string() }),
    wireParamsOf: ({ orderId }) => ({ orderId }),
  }),
] as const;
/** A hosting command (create, add, sub, redeem): each names the account of its order. */
export type HostingCommand = RecordOf<(typeof hostingCommands)[number]>;
