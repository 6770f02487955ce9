/**
 * What a customer's order service is built with (hosting orders, mining machines): the database,
 * exactly-once commands, the clock, the trade password's check, the business time zone, and
 * where its record lists run.
 */
import type { Clock } from '../clock.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import type { SecurityService } from './security.service.js';

export abstract class CustomerService {
  constructor(
    protected readonly db: Database,
    protected readonly commands: CommandRunner,
    protected readonly clock: Clock,
    protected readonly security: SecurityService,
    protected readonly timezone: string,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    protected readonly reads: ReadRouting,
  ) {}
}
