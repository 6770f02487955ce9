/**
 * Expires AI dividend records not claimed in time (COFFER_DIVIDEND_CLAIM_DAYS after their
 * publication): their status becomes `expired` and the change is synced. Idempotent: a record is
 * expired once, and a claim locks its record, so the two never both win.
 */
import type { DividendService } from '../services/dividend.service.js';
import { JobName, type Job } from './scheduler.js';

export function dividendExpiryJob(dividends: DividendService): Job {
  return {
    name: JobName.dividendExpiry,
    everySeconds: 600,
    periodOf: (now) => now.toISOString().slice(0, 15), // one run per ten minutes (UTC)
    run: (tx, now) => dividends.expire(tx, now),
  };
}
