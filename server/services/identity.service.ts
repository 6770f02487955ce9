/**
 * Real-name verification: a customer submits a document (type, number, name, 1 to 3 images) and
 * reads their status; compliance reviews the queue oldest first and approves or rejects with a
 * reason. The number is sealed at rest with a blind index beside it, so the reviewer sees every
 * other account that submitted the same document, and one document is approved for one user.
 * Every change reaches the customer's `identity` record (synced) in the same transaction, and the
 * outcome of a review is mailed (in their last language) and pushed to their devices once committed.
 */
import type {
  AdminIdentityDetail,
  IdentityRecord,
  IdentityStatus,
  IdentityStoreParams,
  RejectReason,
} from '../../contract/api/identity.js';
import { BodyCode } from '../../contract/codes.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, notFound } from '../core/errors.js';
import { existingRowId } from '../core/params.js';
import type { Executor } from '../db/database.js';
import {
  approvedSubmissionOf,
  latestSubmissionOf,
  latestSubmissionsOf,
  lockDocument,
  sameDocumentElsewhere,
  submissionQueue,
  submissionsOf,
  type IdentitySubmissionRow,
} from '../repositories/identity.repository.js';
import { insertRow, updateRow } from '../repositories/rows.js';
import { identitySubmissions } from '../db/schema.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { recordChange } from '../repositories/sync.repository.js';
import { findUserById } from '../repositories/user.repository.js';
import type { SecretBox } from '../security/secret-box.js';
import { actorOf, operatorIdOf } from './operator.service.js';
import type { UploadService } from './upload.service.js';
import type { UserMail } from './user-mail.js';
import { silentNotifier, type UserNotifier } from './user-notifier.js';
import type { Letter } from '../mail/letters.js';
import { CoreService, type ServiceCore } from './service-core.js';

const INDEX_PURPOSE = 'identity-number';
/** Where the customer sees and resubmits their verification. */
const IDENTITY_PAGE = 'pages/setting/setting2';
const sealContext = (userId: number) => `identity:${userId}`;

/** The number as compared: letters upper-cased, spaces and hyphens gone. */
export const normalizedNumber = (number: string): string => number.replace(/[\s-]/g, '').toUpperCase();

/** The number as its owner sees it: the first and last two characters, the rest starred. */
export function maskedNumber(number: string): string {
  const plain = normalizedNumber(number);
  return `${plain.slice(0, 2)}${'*'.repeat(Math.max(plain.length - 4, 1))}${plain.slice(-2)}`;
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** The customer's record; `not_verified` when nothing was submitted. */
export function toIdentityRecord(userId: number, row: IdentitySubmissionRow | undefined): IdentityRecord {
  return {
    id: String(userId),
    status: (row?.status ?? 'not_verified') as IdentityStatus, // the table's check allows only the wire's statuses
    documentType: (row?.documentType ?? null) as IdentityRecord['documentType'], // checked by the table
    documentNumber: row?.numberMasked ?? null,
    realName: row?.realName ?? null,
    reason: row?.status === 'rejected' ? ((row.reason ?? 'other') as RejectReason) : null, // written from the contract's list
    reasonText: row?.status === 'rejected' ? row.reasonText : null,
    submittedAt: iso(row?.submittedAt ?? null),
    reviewedAt: iso(row?.reviewedAt ?? null),
  };
}

/** Whether the user's real name is approved (without it withdrawals are limited: withdraw.service). */
export async function isRealNameApproved(db: Executor, userId: number): Promise<boolean> {
  return (await latestSubmissionOf(db, userId))?.status === 'approved';
}

const conflict = (key: string) => new BusinessError(BodyCode.conflict, key);

export class IdentityService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly secrets: SecretBox,
    private readonly uploads: UploadService,
    private readonly mail: UserMail,
    /** Pushes the review's outcome to the user's devices, after commit, beside the mail. */
    private readonly notifier: UserNotifier = silentNotifier,
  ) {
    super(core);
  }

  /** Submits a document for review: 409 while one waits or once approved; the images become private. */
  store(ctx: RequestContext, params: IdentityStoreParams): Promise<IdentityRecord> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const latest = await latestSubmissionOf(tx, userId, true);
      if (latest?.status === 'pending_review') throw conflict('server.identity_pending');
      if (latest?.status === 'approved') throw conflict('server.identity_approved');
      const images = await this.uploads.claimForIdentity(tx, userId, params.images);
      const number = normalizedNumber(params.documentNumber);
      const row = await insertRow(tx, identitySubmissions, {
        userId,
        documentType: params.documentType,
        numberSealed: this.secrets.seal(number, sealContext(userId)),
        numberIndex: this.#index(params.documentType, number),
        numberMasked: maskedNumber(number),
        realName: params.realName.trim(),
        images,
        status: 'pending_review',
        submittedAt: this.clock.now(),
      });
      await this.#changed(tx, userId);
      return toIdentityRecord(userId, row);
    });
  }

  async info(ctx: RequestContext): Promise<IdentityRecord> {
    const userId = userIdOf(ctx);
    return toIdentityRecord(userId, await latestSubmissionOf(this.db, userId));
  }

  /** The review queue: submissions in `status`, oldest first. */
  async list(params: { status: string; cursor?: string | undefined; limit?: number | undefined }) {
    const limit = params.limit ?? 20;
    const after = params.cursor && /^\d{1,15}$/.test(params.cursor) ? Number(params.cursor) : 0;
    const rows = await submissionQueue(this.db, params.status, after, limit);
    return {
      items: rows.map(({ submission, email }) => this.#item(submission, email)),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.submission.id) : null,
    };
  }

  /** A user's latest submission in full, its images as expiring links; audited (who looked at whom). */
  detail(ctx: RequestContext, params: { userId: string }): Promise<AdminIdentityDetail> {
    const userId = existingRowId(params.userId);
    return this.db.transaction(async (tx) => {
      const [user, history] = await Promise.all([findUserById(tx, userId), submissionsOf(tx, userId)]);
      const latest = history[0];
      if (!user || !latest) throw notFound();
      const elsewhere = await sameDocumentElsewhere(tx, latest.numberIndex, userId);
      const statusOf = new Map(
        (
          await latestSubmissionsOf(tx, [...new Set(elsewhere.map(({ submission }) => submission.userId))])
        ).map((row) => [row.userId, row.status]),
      );
      const seen = new Set<number>();
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: 'identity.view',
        target: `user:${userId}`,
        detail: { submissionId: String(latest.id) },
        at: this.clock.now(),
      });
      return {
        ...this.#item(latest, user.email),
        documentNumber: this.secrets.open(latest.numberSealed, sealContext(userId)),
        reason: latest.status === 'rejected' ? ((latest.reason ?? 'other') as RejectReason) : null, // written from the contract's list
        reasonText: latest.reasonText,
        reviewedBy: latest.reviewedBy === null ? null : String(latest.reviewedBy),
        images: latest.images.map((id) => this.uploads.signedLink(id)),
        sameDocument: elsewhere
          .filter(({ submission }) => !seen.has(submission.userId) && seen.add(submission.userId))
          .map(({ submission, email }) => ({
            userId: String(submission.userId),
            email,
            status: (statusOf.get(submission.userId) ?? submission.status) as IdentityStatus, // checked by the table
            submittedAt: submission.submittedAt.toISOString(),
          })),
        history: history.slice(1).map((row) => ({
          submissionId: String(row.id),
          status: row.status as IdentityStatus, // checked by the table
          reason: row.status === 'rejected' ? ((row.reason ?? 'other') as RejectReason) : null, // written from the contract's list
          submittedAt: row.submittedAt.toISOString(),
          reviewedAt: iso(row.reviewedAt),
        })),
      };
    });
  }

  /** Approves the waiting submission; 409 when the same document is approved for another user. */
  approve(ctx: RequestContext, params: { userId: string }): Promise<IdentityRecord> {
    return this.#review(ctx, params.userId, async (tx, row) => {
      await lockDocument(tx, row.numberIndex);
      const taken = await approvedSubmissionOf(tx, row.numberIndex);
      if (taken && taken.userId !== row.userId) throw conflict('server.identity_document_taken');
      return { status: 'approved', reason: null, reasonText: null };
    });
  }

  /** Rejects the waiting submission with a reason from the list (and the reviewer's words for `other`). */
  reject(ctx: RequestContext, params: { userId: string; reason: RejectReason; note?: string | undefined }) {
    return this.#review(ctx, params.userId, () =>
      Promise.resolve({
        status: 'rejected',
        reason: params.reason,
        reasonText: params.reason === 'other' ? (params.note?.trim() ?? null) : null,
      }),
    );
  }

  async #review(
    ctx: RequestContext,
    rawUserId: string,
    decide: (
      tx: Executor,
      row: IdentitySubmissionRow,
    ) => Promise<{ status: IdentityStatus; reason: string | null; reasonText: string | null }>,
  ): Promise<IdentityRecord> {
    const userId = existingRowId(rawUserId);
    const record = await this.commands.run(ctx, async (tx) => {
      const latest = await latestSubmissionOf(tx, userId, true);
      if (!latest) throw notFound();
      if (latest.status !== 'pending_review') throw conflict('server.identity_not_pending');
      const decision = await decide(tx, latest);
      const now = this.clock.now();
      const saved = await updateRow(tx, identitySubmissions, latest.id, {
        ...decision,
        reviewedAt: now,
        reviewedBy: operatorIdOf(ctx),
      });
      await appendAudit(tx, {
        actor: actorOf(ctx),
        action: decision.status === 'approved' ? 'identity.approve' : 'identity.reject',
        target: `user:${userId}`,
        detail: { submissionId: String(latest.id), reason: decision.reason, text: decision.reasonText },
        at: now,
      });
      await this.#changed(tx, userId);
      return toIdentityRecord(userId, saved);
    });
    this.notifier.notify(userId, {
      kind: record.status === 'approved' ? 'identity_approved' : 'identity_rejected',
    });
    await this.#tell(userId, record);
    return record;
  }

  /** Mails the review's outcome (a repeat of the same call mails again: it says the same). */
  async #tell(userId: number, record: IdentityRecord): Promise<void> {
    const letter: Letter =
      record.status === 'approved'
        ? {
            subjectKey: 'mail.identity_approved_subject',
            paragraphs: [{ key: 'mail.identity_approved_body' }],
          }
        : {
            subjectKey: 'mail.identity_rejected_subject',
            paragraphs: [
              { key: 'mail.identity_rejected_body' },
              {
                key: `mail.identity_reason_${record.reason ?? 'other'}`,
                vars: { text: record.reasonText ?? '' },
              },
              { key: 'mail.identity_rejected_again', vars: { page: IDENTITY_PAGE } },
            ],
          };
    try {
      await this.mail.send(userId, letter);
    } catch (error) {
      this.logError(`identity review mail to user ${userId} not sent: ${String(error)}`);
    }
  }

  #item(row: IdentitySubmissionRow, email: string) {
    return {
      submissionId: String(row.id),
      userId: String(row.userId),
      email,
      status: row.status as IdentityStatus, // checked by the table
      documentType: row.documentType as AdminIdentityDetail['documentType'], // checked by the table
      realName: row.realName,
      submittedAt: row.submittedAt.toISOString(),
      reviewedAt: iso(row.reviewedAt),
    };
  }

  #index(documentType: string, number: string): string {
    return this.secrets.digest(`${documentType}|${number}`, INDEX_PURPOSE);
  }

  #changed(tx: Executor, userId: number) {
    return recordChange(tx, {
      collection: 'identity',
      scopeId: userId,
      recordId: String(userId),
      deleted: false,
      at: this.clock.now(),
    });
  }
}
