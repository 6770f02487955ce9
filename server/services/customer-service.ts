/**
 * What a customer's money service is built with (hosting orders, mining machines, the exchange,
 * OTC): the service core, the trade password's check, the service's own settings, and where its
 * record lists run.
 */
import type { ReadRouting } from '../db/read-routing.js';
import type { SecurityService } from './security.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

export abstract class CustomerService<Settings> extends CoreService {
  constructor(
    core: ServiceCore,
    protected readonly security: SecurityService,
    protected readonly settings: Settings,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    protected readonly reads: ReadRouting,
  ) {
    super(core);
  }
}

/** The settings of a customer's order service whose terms run in local days (hosting, machines). */
export interface OrderSettings {
  /** The business time zone (COFFER_TIMEZONE): terms and days are its local days. */
  timezone: string;
}
