/**
 * The mining machines' outbox commands, a buy and a rent: each carries the trade password, so it
 * never waits for the network (sent only while online, expired after a minute) and is never
 * retried (the password is blanked once it settles); its account is named in its params and
 * pulled after it. Each is its own resource: a refused one holds nothing back.
 */
import { z } from 'zod';
import {
  machineBuyParamsSchema,
  machineRentParamsSchema,
  payWithSchema,
} from '../../contract/api/machine.js';
import { defineCommand } from '../../sync/commands.js';
import { pricedCommand } from './command-policies.js';

const machineCommand = {
  ...pricedCommand,
  resourceOf: (_params: unknown, id: string) => `machine:new:${id}`,
} as const;

export const machineCommands = [
  defineCommand({
    kind: 'machine-buy',
    uri: '/api/v1/machine/buy',
    ...machineCommand,
    input: machineBuyParamsSchema,
    stored: z.object({
      accountId: z.string(),
      machineId: z.string(),
      quantity: z.number().int(),
      payWith: payWithSchema,
      tradePassword: z.string(),
    }),
    wireParamsOf: ({ accountId, machineId, quantity, payWith, tradePassword }) => ({
      accountId,
      machineId,
      quantity: String(quantity),
      payWith,
      tradePassword,
    }),
  }),
  defineCommand({
    kind: 'machine-rent',
    uri: '/api/v1/machine/rent',
    ...machineCommand,
    /** `quantity` defaults to 1 here, so the stored command shows what is sent. */
    input: machineRentParamsSchema.extend({ quantity: machineRentParamsSchema.shape.quantity.default(1) }),
    stored: z.object({
      accountId: z.string(),
      machineId: z.string(),
      days: z.number().int(),
      quantity: z.number().int(),
      tradePassword: z.string(),
    }),
    wireParamsOf: ({ accountId, machineId, days, quantity, tradePassword }) => ({
      accountId,
      machineId,
      days: String(days),
      quantity: String(quantity),
      tradePassword,
    }),
  }),
] as const;
