/**
 * Delivery (trade settlement) records (docs/protocol.md section 21): trades the
 * platform publishes, not a customer's own positions. Operators add them one by one
 * (/api/admin/hosting/delivery/add) or from a CSV file (/api/admin/hosting/delivery/import, CLI
 * `delivery import`); customers read them (/api/v1/hosting/delivery-list) and the public synced
 * collection `delivery`, so they show offline.
 *
 * Figures are exact decimal strings, never floats: `margin` and `profitLoss` are USDT (money,
 * at most 6 decimals, integer minor units inside), prices, lots and the spread are exact decimals
 * kept as the operator wrote them, normalised (trailing zeros trimmed).
 */
import { z } from 'zod';
import { formatMoney, parseMoney } from '../money.js';
import { choiceOf, idPageParamsSchema, idParamsSchema, isoTimeSchema, pageOf, text } from '../schema.js';

export const DELIVERY_DIRECTIONS = ['buy', 'sell'] as const;
export const deliveryDirectionSchema = choiceOf(DELIVERY_DIRECTIONS);
export type DeliveryDirection = z.infer<typeof deliveryDirectionSchema>;

/** At most this many records in one CSV import (all of them, or none, are published). */
export const DELIVERY_IMPORT_MAX_ROWS = 1000;
/** The longest CSV text the API takes (its body limit is 64 KB); the CLI takes longer files. */
export const DELIVERY_IMPORT_MAX_CHARS = 60_000;

/**
 * An exact decimal of at most `fraction` fraction digits and 12 whole digits, in plain notation,
 * normalised (`"1.2500"` -> `"1.25"`); `positive` refuses 0.
 */
export function exactDecimal(fraction: number, positive: boolean) {
  const pattern = new RegExp(`^(0|[1-9]\\d{0,11})(\\.\\d{1,${fraction}})?$`);
  return text({ max: 40 }).transform((value, context) => {
    if (!pattern.test(value) || (positive && /^[0.]+$/.test(value))) {
      context.addIssue({ code: 'custom', message: 'server.field_invalid' });
      return z.NEVER;
    }
    return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
  });
}

/** USDT on a record: a wire decimal (at most 6 fraction digits), normalised; `signed` allows below 0. */
function usdt(signed: boolean) {
  return text({ max: 40 }).transform((value, context) => {
    try {
      const amount = parseMoney(value);
      if (signed || amount >= 0n) return formatMoney(amount);
    } catch {
      // falls through to the issue below
    }
    context.addIssue({ code: 'custom', message: 'server.field_invalid' });
    return z.NEVER;
  });
}

/** A time with its zone (`Z` or `+08:00`), as ISO 8601 in UTC with `Z`. */
const zonedTimeSchema = text({ max: 40 }).transform((value, context) => {
  const parsed = z.iso.datetime({ offset: true }).safeParse(value);
  const at = parsed.success ? new Date(value) : null;
  if (at === null || Number.isNaN(at.getTime())) {
    context.addIssue({ code: 'custom', message: 'server.field_invalid' });
    return z.NEVER;
  }
  return at.toISOString();
});

/** What an operator publishes about one trade; the CSV's columns carry the same names. */
export const deliveryAddParamsSchema = z
  .object({
    /** The trade's order number, unique among published records. */
    orderNo: text({ max: 40 }).refine((value) => /^[A-Za-z0-9_.-]+$/.test(value), {
      error: 'server.field_invalid',
    }),
    /** The instrument traded (`XAUUSD`, `BTC/USDT`). */
    symbol: text({ max: 20 }).refine((value) => /^[A-Za-z0-9/._-]+$/.test(value), {
      error: 'server.field_invalid',
    }),
    direction: deliveryDirectionSchema,
    lots: exactDecimal(4, true),
    /** The leverage as a whole number (100 for 1:100). */
    leverage: text({ max: 6 })
      .refine((value) => /^[1-9]\d{0,3}$/.test(value), { error: 'server.field_invalid' })
      .transform(Number),
    openPrice: exactDecimal(8, true),
    closePrice: exactDecimal(8, true),
    openTime: zonedTimeSchema,
    closeTime: zonedTimeSchema,
    margin: usdt(false),
    spread: exactDecimal(8, false),
    profitLoss: usdt(true),
  })
  .refine((value) => value.closeTime >= value.openTime, {
    error: 'server.delivery_close_before_open',
    path: ['closeTime'],
  });
export type DeliveryAddParams = z.output<typeof deliveryAddParamsSchema>;
/** The fields of a record an operator gives, in the order a CSV file's header names them. */
export const DELIVERY_COLUMNS = [
  'orderNo',
  'symbol',
  'direction',
  'lots',
  'leverage',
  'openPrice',
  'closePrice',
  'openTime',
  'closeTime',
  'margin',
  'spread',
  'profitLoss',
] as const satisfies ReadonlyArray<keyof DeliveryAddParams>;

/** A CSV file: a header line naming the columns (DELIVERY_COLUMNS, any order), a record per line. */
export const deliveryImportParamsSchema = z.object({
  csv: text({ max: DELIVERY_IMPORT_MAX_CHARS, multiline: true }),
});
export const deliveryImportDataSchema = z.object({
  /** How many records were published (every line of the file). */
  imported: z.number().int(),
  /** Their ids, in the file's order. */
  ids: z.array(z.string()),
});
export type DeliveryImportData = z.infer<typeof deliveryImportDataSchema>;

export const deliveryDeleteParamsSchema = idParamsSchema;
export const deliveryDeleteDataSchema = z.object({ done: z.literal(true) });

/** One published trade (the public `delivery` collection; id = the record's id). */
export const deliveryRecordSchema = z.object({
  id: z.string(),
  orderNo: z.string(),
  symbol: z.string(),
  direction: deliveryDirectionSchema,
  lots: z.string(),
  leverage: z.number().int(),
  openPrice: z.string(),
  closePrice: z.string(),
  openTime: isoTimeSchema,
  closeTime: isoTimeSchema,
  /** USDT. */
  margin: z.string(),
  spread: z.string(),
  /** USDT, signed: below 0 is a loss. */
  profitLoss: z.string(),
  publishedAt: isoTimeSchema,
});
export type DeliveryRecord = z.infer<typeof deliveryRecordSchema>;

export const deliveryListParamsSchema = idPageParamsSchema;
export const deliveryListDataSchema = pageOf(deliveryRecordSchema);
export type DeliveryListData = z.infer<typeof deliveryListDataSchema>;
