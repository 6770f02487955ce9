/** Purges what has expired: verification codes, sessions, and idempotency keys past their 7 days. */
import { IDEMPOTENCY_KEY_TTL_DAYS } from '../../contract/constants.js';
import { purgeCodes } from '../repositories/code.repository.js';
import { purgeIdempotencyKeys } from '../repositories/job.repository.js';
import { purgeSessions } from '../repositories/session.repository.js';
import { JobName, type Job } from './scheduler.js';

const DAY_MS = 24 * 3600 * 1000;

export const purgeJob: Job = {
  name: JobName.purge,
  everySeconds: 3600,
  periodOf: (now) => now.toISOString().slice(0, 13), // one run per UTC hour
  async run(tx, now) {
    // Codes and sessions are kept a day past their end, so support can still see what happened.
    const dayAgo = new Date(now.getTime() - DAY_MS);
    // Keys live at least 7 days (CONTRACT.md); one more day of margin for clock skew between instances.
    const keysBefore = new Date(now.getTime() - (IDEMPOTENCY_KEY_TTL_DAYS + 1) * DAY_MS);
    return {
      codes: await purgeCodes(tx, dayAgo),
      sessions: await purgeSessions(tx, dayAgo),
      idempotencyKeys: await purgeIdempotencyKeys(tx, keysBefore),
    };
  },
};
