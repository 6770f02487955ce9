/**
 * The accounts' outbox commands: a transfer between two of the user's accounts (money with no
 * password: it may wait the hour of a money command), a new sub-account and the default account
 * the server shows first (the device's own choice is `account-select`). A transfer and a new
 * account change accounts besides the active one: every account is pulled after them.
 */
import { z } from 'zod';
import {
  accountIdParamsSchema,
  accountTransferParamsSchema,
  assetSchema,
  createSubAccountParamsSchema,
} from '../../contract/api/account.js';
import { MONEY_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import { DAY_MS, defineCommand } from '../../sync/commands.js';
import { everydayCommand } from './command-policies.js';

export const accountCommands = [
  defineCommand({
    kind: 'account-transfer',
    uri: '/api/v1/account/transfer',
    maxAgeMs: MONEY_COMMAND_EXPIRY_MS,
    requiresOnline: false,
    pullsEveryAccount: true,
    secrets: [],
    /** `amount` as the user typed it (at most 2 decimals); stored normalised (`"10.50"` -> `"10.5"`). */
    input: accountTransferParamsSchema,
    stored: z.object({
      fromAccountId: z.string(),
      toAccountId: z.string(),
      asset: assetSchema,
      amount: z.string(),
    }),
    // The paying account: a refused transfer holds later ones from that account back.
    resourceOf: ({ fromAccountId }) => `account:${fromAccountId}`,
    accountChangedBy: () => null,
    wireParamsOf: ({ fromAccountId, toAccountId, asset, amount }) => ({
      fromAccountId,
      toAccountId,
      asset,
      amount,
    }),
  }),
  defineCommand({
    kind: 'account-create',
    uri: '/api/v1/account/createSubAccount',
    maxAgeMs: DAY_MS,
    requiresOnline: false,
    pullsEveryAccount: true,
    secrets: [],
    input: createSubAccountParamsSchema,
    stored: z.object({ name: z.string() }),
    resourceOf: (_params, id) => `account:new:${id}`,
    accountChangedBy: () => null,
    wireParamsOf: ({ name }) => ({ name }),
  }),
  defineCommand({
    kind: 'account-switch',
    uri: '/api/v1/account/switch',
    ...everydayCommand,
    input: accountIdParamsSchema,
    stored: z.object({ accountId: z.string() }),
    resourceOf: () => 'account.default',
    wireParamsOf: ({ accountId }) => ({ accountId }),
  }),
] as const;
