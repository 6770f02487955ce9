/**
 * Checks the ledger's invariants every 10 minutes and records each result in job_runs; a failed
 * check is logged loudly (an error line naming every violation) for the operators on duty.
 */
import { checkLedger } from '../ledger/invariants.js';
import { JobName, type Job } from './scheduler.js';

export function ledgerCheckJob(alarm: (message: string) => void): Job {
  return {
    name: JobName.ledgerCheck,
    everySeconds: 600,
    periodOf: (now) => `${now.toISOString().slice(0, 15)}0`, // one run per 10 minutes (UTC)
    async run(tx, now) {
      const result = await checkLedger(tx, now);
      if (!result.ok) {
        alarm(
          `LEDGER CHECK FAILED: ${result.violations.length} violation(s): ${JSON.stringify(result.violations)}`,
        );
      }
      return { ...result };
    },
  };
}
