/**
 * The claim of AI dividends (one record, or every claimable one of the account): money to cash
 * with no trade password and no price, so it may wait in the outbox for an hour; its account is
 * named in its params and pulled after it. Each is its own resource.
 */
import { z } from 'zod';
import { aiReceiveParamsSchema } from '../../contract/api/dividend.js';
import { moneySchema } from '../../contract/schema.js';
import { defineCommand } from '../../sync/commands.js';
import { queuedMoneyCommand } from './command-policies.js';

export const dividendCommands = [
  defineCommand({
    kind: 'dividend-claim',
    uri: '/api/v1/user/aiReceive',
    ...queuedMoneyCommand,
    /** `amount` is the sum the user saw, kept to show the command; the server pays what the records hold. */
    input: aiReceiveParamsSchema.required({ accountId: true }).extend({ amount: moneySchema }),
    /** `id` null claims every claimable record; `amount` is only shown (never sent). */
    stored: z.object({ accountId: z.string(), id: z.string().nullable(), amount: z.string() }),
    toStored: ({ accountId, id, amount }) => ({ accountId, id: id ?? null, amount }),
    resourceOf: (_params, id) => `dividend:claim:${id}`,
    wireParamsOf: ({ accountId, id }) => (id === null ? { accountId } : { accountId, id }),
  }),
] as const;
