/**
 * The exchange's outbox command, at the price version the user saw: it carries that price and
 * the trade password, so it never waits for the network (a minute-old quote is refused, never
 * filled at a price the user did not see) and the password is blanked once it settles; its
 * account is named in its params and pulled after it. Each is its own resource.
 */
import { z } from 'zod';
import { exchangeDirectionSchema, exchangeSubmitParamsSchema } from '../../contract/api/exchange.js';
import { defineCommand } from '../../sync/commands.js';
import { pricedCommand } from './command-policies.js';

export const exchangeCommands = [
  defineCommand({
    kind: 'exchange-submit',
    uri: '/api/v1/exchange/submit',
    ...pricedCommand,
    input: exchangeSubmitParamsSchema,
    stored: z.object({
      accountId: z.string(),
      direction: exchangeDirectionSchema,
      amount: z.string(),
      priceVersion: z.string(),
      tradePassword: z.string(),
    }),
    resourceOf: (_params, id) => `exchange:new:${id}`,
    wireParamsOf: ({ accountId, direction, amount, priceVersion, tradePassword }) => ({
      accountId,
      direction,
      amount,
      priceVersion,
      tradePassword,
    }),
  }),
] as const;
