/**
 * What every service is built with, built once in app.ts: the database, exactly-once commands,
 * the clock, and the server's error log. A service's constructor then lists only what is its own.
 */
import type { Clock } from '../clock.js';
import type { CommandRunner } from '../core/command-runner.js';
import type { Database } from '../db/database.js';

export interface ServiceCore {
  readonly db: Database;
  readonly commands: CommandRunner;
  readonly clock: Clock;
  /** Where a service reports what failed beside its work (a mail not sent, a chain not read): the error log. */
  readonly logError: (message: string, error?: unknown) => void;
}

/** A service built on the core: its fields are the core's, under the names every service uses. */
export abstract class CoreService {
  protected readonly db: Database;
  protected readonly commands: CommandRunner;
  protected readonly clock: Clock;
  protected readonly logError: ServiceCore['logError'];

  constructor(core: ServiceCore) {
    this.db = core.db;
    this.commands = core.commands;
    this.clock = core.clock;
    this.logError = core.logError;
  }
}
