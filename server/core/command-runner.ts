/**
 * Exactly-once commands (CONTRACT.md "Exactly once"). The key row is written first in the
 * effect's transaction, so a concurrent repeat of the same key waits on it and then replays.
 */
import { BodyCode } from '../../contract/codes.js';
import { BusinessError, ReplayedAnswer } from './errors.js';
import { idempotencyOwnerOf, type RequestContext } from './context.js';
import type { Clock } from '../clock.js';
import type { Database, Transaction } from '../db/database.js';
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  storeIdempotentAnswer,
} from '../repositories/idempotency.repository.js';

type Outcome<T> = { ok: true; data: T } | { ok: false; error: BusinessError };

/**
 * A refusal whose writes must stay (a wrong code's try counter): the effect returns it instead
 * of throwing, the transaction commits, and the caller gets `error`.
 */
export class Refusal {
  constructor(readonly error: BusinessError) {}
}

type Effect<T> = (tx: Transaction) => Promise<T | Refusal>;

export class CommandRunner {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `effect` in one transaction, exactly once per (owner, Idempotency-Key).
   * - A first call commits the effect and its answer together, or neither (on an unexpected error).
   * - A thrown business refusal rolls the effect back but stores the refusal, so a repeat gets it
   *   again; a returned Refusal keeps the effect's writes.
   * - A repeat throws ReplayedAnswer with the stored text; the same key with another body: 409.
   * Without a key the effect simply runs in a transaction.
   */
  async run<T>(ctx: RequestContext, effect: Effect<T>): Promise<T> {
    const idempotency = ctx.idempotency;
    if (!idempotency) {
      const result = await this.db.transaction(effect);
      if (result instanceof Refusal) throw result.error;
      return result;
    }
    const owner = idempotencyOwnerOf(ctx.caller);
    const outcome = await this.db.transaction(async (tx): Promise<Outcome<T>> => {
      const claimed = await claimIdempotencyKey(
        tx,
        { owner, key: idempotency.key, requestHash: idempotency.requestHash },
        this.clock.now(),
      );
      if (!claimed) {
        const stored = await findIdempotencyKey(tx, owner, idempotency.key);
        if (!stored || stored.requestHash !== idempotency.requestHash || stored.answer === null) {
          throw new BusinessError(BodyCode.conflict, 'server.idempotency_conflict');
        }
        throw new ReplayedAnswer(stored.answer);
      }
      let result: Outcome<T>;
      try {
        const data = await tx.transaction(effect);
        result = data instanceof Refusal ? { ok: false, error: data.error } : { ok: true, data };
      } catch (error) {
        if (!(error instanceof BusinessError)) throw error;
        result = { ok: false, error };
      }
      const answer = result.ok ? ctx.renderSuccess(result.data) : ctx.renderError(result.error);
      await storeIdempotentAnswer(tx, owner, idempotency.key, answer);
      ctx.answerText = answer;
      return result;
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.data;
  }
}
