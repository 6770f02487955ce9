/** Column builders every table shares: the identity key and timestamps (with time zone, as Date). */
import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** A bigint identity primary key named `id`. */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
/** A timestamp with time zone, read as a Date. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
