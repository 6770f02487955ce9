/** What the operator CLI's commands share: their parsed `--options`, and names in every language. */
import type { z } from 'zod';
import { LOCALES } from '../../contract/locales.js';

/** `--option value` pairs as node:util's parseArgs gives them. */
export type Values = Record<string, string | boolean | undefined>;

/** Parses values with an admin route's schema, so the CLI refuses what the API refuses. */
export type Parse = <S extends z.ZodType>(schema: S, values: Record<string, unknown>) => z.output<S>;

/** The `--name-<locale>` options of a name given per language. */
export const NAME_OPTIONS = LOCALES.map((locale) => `name-${locale}`);

/** `--name` for every language, `--name-<locale>` for one; undefined when neither is given. */
export function nameOf(values: Values): string | Record<string, string> | undefined {
  const perLocale = Object.fromEntries(
    LOCALES.flatMap((locale) => {
      const value = values[`name-${locale}`];
      return typeof value === 'string' ? [[locale, value]] : [];
    }),
  );
  const all = typeof values['name'] === 'string' ? values['name'] : undefined;
  if (Object.keys(perLocale).length === 0) return all;
  return all === undefined
    ? perLocale
    : { ...Object.fromEntries(LOCALES.map((locale) => [locale, all])), ...perLocale };
}

/** The fields given (an update changes only those). */
export const withoutUndefined = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

/**
 * `--accounts`, `--<each>` and `--reason` of a grant to each of several accounts (an airdrop of
 * `amount`, a ticket issue of `count`).
 */
export const grantOf = (values: Values, each: 'amount' | 'count') => ({
  accountIds: values['accounts'],
  [each]: values[each],
  reason: values['reason'],
});
