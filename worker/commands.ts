/**
 * Every outbox command kind of the client, assembled in one place from each feature's own list
 * (`handlers/*.commands.ts`), as `mergeHandlers` assembles the handlers. A kind defined twice
 * throws here, at the worker's start. The UI's command types derive from this list.
 */
import { defineCommands, type InputOf, type RecordOf } from '../sync/commands.js';
import { accountCommands } from './handlers/account.commands.js';
import { chatCommands } from './handlers/chat.commands.js';
import { dividendCommands } from './handlers/dividend.commands.js';
import { exchangeCommands } from './handlers/exchange.commands.js';
import { feedbackCommands } from './handlers/feedback.commands.js';
import { hostingCommands } from './handlers/hosting.commands.js';
import { identityCommands } from './handlers/identity.commands.js';
import { machineCommands } from './handlers/machine.commands.js';
import { otcCommands } from './handlers/otc.commands.js';
import { userCommands } from './handlers/user.commands.js';
import { withdrawCommands } from './handlers/withdraw.commands.js';

const commandLists = [
  userCommands,
  feedbackCommands,
  accountCommands,
  withdrawCommands,
  exchangeCommands,
  dividendCommands,
  hostingCommands,
  machineCommands,
  otcCommands,
  identityCommands,
  chatCommands,
] as const;

export const commandRegistry = defineCommands(...commandLists);

type AnyDefinition = (typeof commandLists)[number][number];
/** One row of the `outbox` table of `coffer-u{user}`: narrowing on `kind` narrows `params`. */
export type OutboxRecord = RecordOf<AnyDefinition>;
/** What the UI enqueues (`outbox-enqueue`): a kind and its params, as the route takes them. */
export type EnqueueInput = InputOf<AnyDefinition>;
export type { HostingCommand } from './handlers/hosting.commands.js';
export type { OtcCommand } from './handlers/otc.commands.js';
