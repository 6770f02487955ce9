/**
 * What a customer's money service is built with (hosting orders, mining machines, the exchange,
 * OTC): the database, exactly-once commands, the clock, the trade password's check, the service's
 * own settings, and where its record lists run.
 */
import type { Clock } from '../clock.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import type { SecurityService } from './security.service.js';

export abstract class CustomerService<Settings> {
  constructor(
    protected readonly db: Database,
    protected readonly commands: CommandRunner,
    protected readonly clock: Clock,
    protected readonly security: SecurityService,
    protected readonly settings: Settings,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    protected readonly reads: ReadRouting,
  ) {}
}

/** The settings of a customer's order service whose terms run in local days (hosting, machines). */
export interface OrderSettings {
  /** The business time zone (COFFER_TIMEZONE): terms and days are its local days. */
  timezone: string;
}
