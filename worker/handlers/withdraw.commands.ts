/**
 * The withdrawal's outbox command: it carries an authenticator code (good for a minute) and the
 * trade password, so it never waits for the network (sent only while online, expired after a
 * minute) and both are blanked once it settles; its account is named in its params and pulled
 * after it. Each is its own resource: a refused one holds nothing back.
 */
import { z } from 'zod';
import { withdrawCreateParamsSchema } from '../../contract/api/withdraw.js';
import { defineCommand, type RecordOf } from '../../sync/commands.js';
import { pricedCommand } from './command-policies.js';

export const withdrawCommands = [
  defineCommand({
    kind: 'withdraw-create',
    uri: '/api/v1/withdraw/create',
    ...pricedCommand,
    secrets: ['googleCode', 'tradePassword'],
    /** The account is required here (the route defaults it): a command names its account. */
    input: withdrawCreateParamsSchema.required({ accountId: true }),
    stored: z.object({
      accountId: z.string(),
      amount: z.string(),
      methodId: z.string(),
      googleCode: z.string(),
      tradePassword: z.string(),
    }),
    resourceOf: (_params, id) => `withdraw:new:${id}`,
    wireParamsOf: ({ accountId, amount, methodId, googleCode, tradePassword }) => ({
      accountId,
      amount,
      methodId,
      googleCode,
      tradePassword,
    }),
  }),
] as const;
export type WithdrawCommand = RecordOf<(typeof withdrawCommands)[number]>;
