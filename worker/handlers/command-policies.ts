/**
 * The outbox policies that commands of several features share: how long one may wait, whether it
 * needs the network, what it keeps secret and which account it changes. A feature spreads one
 * into defineCommand and adds its own kind, uri, schemas and resource.
 */
import { MONEY_COMMAND_EXPIRY_MS, ONLINE_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import { DAY_MS } from '../../sync/commands.js';

/** The account a command names in its params: it is pulled after the command. */
const namedAccount = ({ accountId }: { accountId: string }) => accountId;

/**
 * Spends an account's money at a price the user saw, with the trade password: sent only while
 * online, expired after a minute, never retried (the password is blanked once it settles).
 */
export const pricedCommand = {
  maxAgeMs: ONLINE_COMMAND_EXPIRY_MS,
  requiresOnline: true,
  pullsEveryAccount: false,
  secrets: ['tradePassword'],
  accountChangedBy: namedAccount,
} as const;

/** Moves an account's money with no secret and no price: it may wait in the outbox for the hour of a money command. */
export const queuedMoneyCommand = {
  maxAgeMs: MONEY_COMMAND_EXPIRY_MS,
  requiresOnline: false,
  pullsEveryAccount: false,
  secrets: [],
  accountChangedBy: namedAccount,
} as const;

/** The user's own change, with no secret and no account's money: it may wait a day for the network. */
export const everydayCommand = {
  maxAgeMs: DAY_MS,
  requiresOnline: false,
  pullsEveryAccount: false,
  secrets: [],
  accountChangedBy: () => null,
} as const;
