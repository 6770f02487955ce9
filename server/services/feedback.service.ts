/** Feedback tickets: customers submit and read their own; support replies (audited). */
import type { PushFeedbackParams } from '../../contract/api/content.js';
import type { Executor } from '../db/database.js';
import { invalidField, notFound } from '../core/errors.js';
import { rowIdOf } from '../core/params.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import {
  insertFeedback,
  listAllFeedback,
  listFeedbackOf,
  replyFeedback,
} from '../repositories/content.repository.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import { findUpload } from '../repositories/upload.repository.js';
import { actorOf, operatorIdOf } from './operator.service.js';
import { toFeedbackRecord } from './records.js';
import { silentNotifier, type UserNotifier } from './user-notifier.js';
import { CoreService, type ServiceCore } from './service-core.js';

const pageArgs = (params: { cursor?: string | undefined; limit?: number | undefined }) => ({
  limit: params.limit ?? 20,
  before: params.cursor && /^\d{1,15}$/.test(params.cursor) ? Number(params.cursor) : undefined,
});

export class FeedbackService extends CoreService {
  constructor(
    core: ServiceCore,
    /** Tells the customer, after commit, that support replied to their ticket. */
    private readonly notifier: UserNotifier = silentNotifier,
  ) {
    super(core);
  }

  /** Submits a ticket; every image must be the caller's own upload. */
  push(ctx: RequestContext, params: PushFeedbackParams) {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      await this.assertOwnImages(tx, userId, params.images);
      const now = this.clock.now();
      const row = await insertFeedback(tx, {
        userId,
        title: params.title,
        content: params.content,
        images: params.images,
        status: 'awaiting_reply',
        createdAt: now,
        updatedAt: now,
      });
      await recordChange(tx, {
        collection: 'feedback',
        scopeId: userId,
        recordId: String(row.id),
        deleted: false,
        at: now,
      });
      return toFeedbackRecord(row);
    });
  }

  async listOwn(ctx: RequestContext, params: { cursor?: string | undefined; limit?: number | undefined }) {
    const { limit, before } = pageArgs(params);
    const rows = await listFeedbackOf(this.db, userIdOf(ctx), before, limit);
    return {
      items: rows.map(toFeedbackRecord),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.id) : null,
    };
  }

  async listAll(params: {
    status?: 'awaiting_reply' | 'replied' | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  }) {
    const { limit, before } = pageArgs(params);
    const rows = await listAllFeedback(this.db, before, limit, params.status);
    return {
      items: rows.map((row) => ({
        ...toFeedbackRecord(row.feedback),
        userId: String(row.feedback.userId),
        email: row.email,
      })),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.feedback.id) : null,
    };
  }

  /**
   * Support's reply: the ticket becomes `replied`, and reaches the customer's next pull; once
   * committed the customer is pushed (a replayed command pushes nothing).
   */
  async reply(ctx: RequestContext, params: { id: string; reply: string }) {
    const replied = { to: null as number | null };
    const record = await this.commands.run(ctx, async (tx) => {
      const { record: saved, userId } = await this.replyIn(tx, actorOf(ctx), operatorIdOf(ctx), params);
      replied.to = userId;
      return saved;
    });
    if (replied.to !== null) this.notifier.notify(replied.to, { kind: 'feedback_replied' });
    return record;
  }

  private async replyIn(
    tx: Executor,
    actor: string,
    operatorId: number | null,
    params: { id: string; reply: string },
  ) {
    const now = this.clock.now();
    const id = rowIdOf(params.id);
    const row =
      id === null ? undefined : await replyFeedback(tx, id, { reply: params.reply, operatorId, at: now });
    if (!row) throw notFound();
    await appendAudit(tx, {
      actor,
      action: 'feedback.reply',
      target: `feedback:${row.id}`,
      detail: {},
      at: now,
    });
    await recordChange(tx, {
      collection: 'feedback',
      scopeId: row.userId,
      recordId: String(row.id),
      deleted: false,
      at: now,
    });
    return { record: toFeedbackRecord(row), userId: row.userId };
  }

  private async assertOwnImages(tx: Executor, userId: number, images: string[]) {
    for (const url of images) {
      const upload = await findUpload(tx, url.split('/').pop() ?? '');
      if (!upload || upload.ownerUserId !== userId || upload.purpose !== 'general')
        throw invalidField('images');
    }
  }
}
