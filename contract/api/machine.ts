/**
 * Mining machines and tickets (docs/protocol.md section 22): the machines operators
 * offer (/api/admin/machine/list|add|update|disable, the public synced `machines`),
 * /api/v1/machine/list|info|index|buy|rent, the tickets operators issue
 * (/api/admin/ticket/issue) and /api/v1/user/tickets, and the account-scoped synced records
 * `owned_machines` and `tickets`.
 *
 * Money is a wire decimal string (USDT); hash power (T) and the daily output per T (USDT) are
 * exact decimal strings read with contract/machine-output.ts, never as floats.
 */
import { z } from 'zod';
import {
  MAX_MACHINE_DAYS,
  MAX_QUANTITY,
  MAX_TICKET_PRICE,
  isDailyOutput,
  isHashPower,
  normalizeDecimal,
} from '../machine-output.js';
import {
  accountPageParamsSchema,
  accountRecordOf,
  choiceOf,
  idParamsSchema,
  idSchema,
  isoTimeSchema,
  listOf,
  pageOf,
  recordTimes,
  text,
  tradeCommandOf,
  userAmountSchema,
} from '../schema.js';
import { accountIdListSchema } from './income.js';
import { catalogueUpdateOf, productNameParamSchema, productStatusSchema } from './hosting.js';

/** How a customer pays for machines: cash (USDT) or tickets. */
export const PAY_WITH = ['usdt', 'ticket'] as const;
export const payWithSchema = choiceOf(PAY_WITH);
export type PayWith = z.infer<typeof payWithSchema>;

/** How a customer holds machines: bought for the machine's term, or rented for days. */
export const ACQUISITIONS = ['buy', 'rent'] as const;
export type Acquisition = (typeof ACQUISITIONS)[number];

/** An owned machine earns while `active`; `expired` once its term's last day was paid. */
export const OWNED_MACHINE_STATUSES = ['active', 'expired'] as const;
export const ownedMachineStatusSchema = choiceOf(OWNED_MACHINE_STATUSES);
export type OwnedMachineStatus = z.infer<typeof ownedMachineStatusSchema>;

/** Spec "Tickets: available, used". */
export const TICKET_STATUSES = ['available', 'used'] as const;
export const ticketStatusSchema = choiceOf(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

/** Where a ticket came from: an operator's issue, or a reward of another feature. */
export const TICKET_SOURCES = ['operator', 'reward'] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

/** The most tickets one issue gives each account. */
export const TICKET_ISSUE_MAX = 1000;
/** A machine's USDT price and rent per day are at most this many USDT (sums stay far inside Minor). */
export const MACHINE_PRICE_MAX_USDT = 1_000_000_000n;

// ---- machines ----

/**
 * A machine on offer, as synced (the public `machines` collection; id = the machine's id). A
 * disabled machine stays in the collection (its holders still see its name) with `status`
 * `disabled`, and is no longer offered.
 */
export const machineRecordSchema = z.object({
  id: z.string(),
  /** The machine's name in each language (locale -> name). */
  names: z.record(z.string(), z.string()),
  /** Hash power of one machine in T, an exact decimal ("12.5"). */
  hashPower: z.string(),
  /** USDT price of one machine. */
  price: z.string(),
  /** Tickets that buy one machine; 0: not sold for tickets. */
  ticketPrice: z.number().int(),
  /** The term in local days (after the day it is bought). */
  days: z.number().int(),
  /** USDT one T earns a day, an exact decimal ("0.35"). */
  dailyOutput: z.string(),
  /** What one machine earns a day: floor(hashPower × dailyOutput), USDT. */
  machineDailyOutput: z.string(),
  /** USDT to rent one machine for a day; null: not for rent. */
  rentPrice: z.string().nullable(),
  status: productStatusSchema,
  updatedAt: isoTimeSchema,
});
export type MachineRecord = z.infer<typeof machineRecordSchema>;

/** A machine as /api/v1/machine/list and info answer it: its name in the request's language too. */
export const machineSchema = machineRecordSchema.extend({ name: z.string() });
export type Machine = z.infer<typeof machineSchema>;

/** /api/v1/machine/list: the machines on offer. */
export const machineListDataSchema = listOf(machineSchema);
export type MachineListData = z.infer<typeof machineListDataSchema>;

/** /api/v1/machine/info. */
export const machineInfoParamsSchema = idParamsSchema;

// ---- buy and rent ----

/** A whole number from `min` to `max` written in digits (form bodies carry strings). */
const wholeSchema = (min: number, max: number, messageKey: string) =>
  z.union([z.number(), text({ max: 10 })], { error: 'server.field_invalid' }).transform((value, context) => {
    const number = typeof value === 'number' ? value : /^[1-9]\d{0,8}$|^0$/.test(value) ? Number(value) : NaN;
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    context.addIssue({ code: 'custom', message: messageKey });
    return z.NEVER;
  });

export const quantitySchema = wholeSchema(1, MAX_QUANTITY, 'server.machine_quantity_invalid');
const termDaysSchema = wholeSchema(1, MAX_MACHINE_DAYS, 'server.machine_days_invalid');

/** /api/v1/machine/buy: the trade password confirms it, so it is sent only while online. */
export const machineBuyParamsSchema = tradeCommandOf({
  machineId: idSchema,
  /** 1 to 100 machines. */
  quantity: quantitySchema,
  payWith: payWithSchema,
});
export type MachineBuyParams = z.infer<typeof machineBuyParamsSchema>;

/**
 * /api/v1/machine/rent: `days` (1 to the machine's term) at its rent price a day, paid from the
 * account's cash at once; like a buy it names its account and carries the trade password.
 */
export const machineRentParamsSchema = tradeCommandOf({
  machineId: idSchema,
  days: termDaysSchema,
  /** 1 to 100 machines; 1 when absent. */
  quantity: quantitySchema.optional(),
});
export type MachineRentParams = z.infer<typeof machineRentParamsSchema>;

/** A holding of machines (the `owned_machines` collection; id = the holding's id). */
export const ownedMachineRecordSchema = accountRecordOf({
  machineId: z.string(),
  /** The machine's name in each language (locale -> name). */
  names: z.record(z.string(), z.string()),
  acquisition: z.enum(ACQUISITIONS),
  payWith: payWithSchema,
  quantity: z.number().int(),
  /** Hash power of one machine, T, as bought. */
  hashPower: z.string(),
  /** quantity × hashPower, T. */
  totalHashPower: z.string(),
  /** USDT per T a day, as bought. */
  dailyOutput: z.string(),
  /** What the holding earns a day: floor(quantity × hashPower × dailyOutput). */
  holdingDailyOutput: z.string(),
  /** Days of the term (the machine's, or the rent's). */
  days: z.number().int(),
  /** Days paid so far. */
  paidDays: z.number().int(),
  /** Days of the term not yet paid (the day under way counts): days − paidDays. */
  daysLeft: z.number().int(),
  /** USDT paid ("0" when paid with tickets). */
  price: z.string(),
  /** Tickets used. */
  tickets: z.number().int(),
  status: ownedMachineStatusSchema,
  /** When it was bought or rented. */
  startAt: isoTimeSchema,
  /** The local midnight after it: it earns from here. */
  earnFrom: isoTimeSchema,
  /** The local midnight ending the term's last day: it stops earning here. */
  endAt: isoTimeSchema,
  /** USDT earned (paid into cash) so far. */
  earned: z.string(),
  ...recordTimes,
});
export type OwnedMachineRecord = z.infer<typeof ownedMachineRecordSchema>;

/** A ticket (the `tickets` collection; id = the ticket's id). */
export const ticketRecordSchema = accountRecordOf({
  status: ticketStatusSchema,
  source: z.enum(TICKET_SOURCES),
  /** The operator's reason, or the reward's note; null when none. */
  memo: z.string().nullable(),
  /** When it was used, and the holding it paid for; null while available. */
  usedAt: isoTimeSchema.nullable(),
  usedFor: z.string().nullable(),
  ...recordTimes,
});
export type TicketRecord = z.infer<typeof ticketRecordSchema>;

/** The answer of buy and rent: the new holding and the tickets it used (none for USDT). */
export const machineCommandDataSchema = z.object({
  machine: ownedMachineRecordSchema,
  tickets: z.array(ticketRecordSchema),
});
export type MachineCommandData = z.infer<typeof machineCommandDataSchema>;

/** /api/v1/machine/index: the account's machines, newest first (`status` filters), with totals. */
export const machineIndexParamsSchema = accountPageParamsSchema.extend({
  status: ownedMachineStatusSchema.optional(),
});
export const machineIndexDataSchema = pageOf(ownedMachineRecordSchema).extend({
  /** Over the account's active holdings: T, and USDT a day. */
  activeHashPower: z.string(),
  activeDailyOutput: z.string(),
  /** USDT all the account's machines earned. */
  totalEarned: z.string(),
});
export type MachineIndexData = z.infer<typeof machineIndexDataSchema>;

/** /api/v1/user/tickets: the account's tickets, newest first (`status` filters), and how many are available. */
export const ticketListParamsSchema = accountPageParamsSchema.extend({
  status: ticketStatusSchema.optional(),
});
export const ticketListDataSchema = pageOf(ticketRecordSchema).extend({ available: z.number().int() });
export type TicketListData = z.infer<typeof ticketListDataSchema>;

// ---- operators ----

const decimalSchema = (valid: (text: string) => boolean, messageKey: string) =>
  text({ max: 24 }).transform((value, context) => {
    if (valid(value)) return normalizeDecimal(value);
    context.addIssue({ code: 'custom', message: messageKey });
    return z.NEVER;
  });

const priceSchema = userAmountSchema.refine(
  (value) => BigInt(value.split('.')[0] ?? '0') < MACHINE_PRICE_MAX_USDT,
  { error: 'server.machine_price_invalid' },
);

/** A rent price a day, or "0" for a machine not for rent (stored as null). */
const rentPriceSchema = text({ max: 40 }).transform((value, context) => {
  if (/^0(\.0{1,2})?$/.test(value)) return null;
  const parsed = priceSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  context.addIssue({ code: 'custom', message: 'server.machine_price_invalid' });
  return z.NEVER;
});

const ticketPriceSchema = wholeSchema(0, MAX_TICKET_PRICE, 'server.machine_ticket_price_invalid');

/** /api/admin/machine/add. */
export const machineAddParamsSchema = z.object({
  name: productNameParamSchema,
  hashPower: decimalSchema(isHashPower, 'server.machine_hash_power_invalid'),
  price: priceSchema,
  /** Tickets for one machine; 0 (the default): not sold for tickets. */
  ticketPrice: ticketPriceSchema.optional(),
  days: termDaysSchema,
  dailyOutput: decimalSchema(isDailyOutput, 'server.machine_daily_output_invalid'),
  /** USDT a day to rent one; absent or "0": not for rent. */
  rentPrice: rentPriceSchema.optional(),
});
export type MachineAddParams = z.infer<typeof machineAddParamsSchema>;

/** /api/admin/machine/update: the fields given change (holdings already made keep their terms). */
export const machineUpdateParamsSchema = catalogueUpdateOf(machineAddParamsSchema);
export type MachineUpdateParams = z.infer<typeof machineUpdateParamsSchema>;

/** /api/admin/machine/disable: no longer offered; machines already held earn on. */
export const machineIdParamsSchema = idParamsSchema;

/** A machine as operators see it. */
export const adminMachineSchema = machineSchema.extend({
  createdAt: isoTimeSchema,
  updatedBy: z.string(),
});
export type AdminMachine = z.infer<typeof adminMachineSchema>;
export const adminMachineListDataSchema = listOf(adminMachineSchema);

/** /api/admin/ticket/issue: `count` tickets to each account, with a reason. */
export const ticketIssueParamsSchema = z.object({
  accountIds: accountIdListSchema,
  count: wholeSchema(1, TICKET_ISSUE_MAX, 'server.ticket_count_invalid'),
  reason: text({ max: 200 }),
});
export type TicketIssueParams = z.infer<typeof ticketIssueParamsSchema>;

export const ticketIssueDataSchema = z.object({
  id: z.string(),
  /** Tickets given to each account. */
  count: z.number().int(),
  reason: z.string(),
  accountIds: z.array(z.string()),
  /** count × the number of accounts. */
  total: z.number().int(),
  createdBy: z.string(),
  createdAt: isoTimeSchema,
});
export type TicketIssueData = z.infer<typeof ticketIssueDataSchema>;
