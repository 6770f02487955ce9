/**
 * Real-name verification: each submission of a user's document, reviewed by compliance.
 */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, id, optionalRef, status, userRef } from './columns.js';

/**
 * One submission (a resubmission after a rejection is a new row, so the history stays). The
 * number is sealed with the server key (`number_sealed`) beside a keyed blind index of the type
 * and the normalised number (`number_index`), so the same document is found across accounts
 * without storing it in clear; `number_masked` is what the customer is shown. `images` are upload
 * ids, private from the submission on (uploads.purpose `identity`). At most one submission of a
 * user waits at a time, and one document is approved for one user only (both unique indexes).
 */
export const identitySubmissions = pgTable(
  'identity_submissions',
  {
    id: id(),
    userId: userRef(),
    documentType: text('document_type').notNull(),
    numberSealed: text('number_sealed').notNull(),
    numberIndex: text('number_index').notNull(),
    numberMasked: text('number_masked').notNull(),
    realName: text('real_name').notNull(),
    images: jsonb('images').$type<string[]>().notNull(),
    status: status(),
    reason: text('reason'),
    reasonText: text('reason_text'),
    submittedAt: at('submitted_at').notNull(),
    reviewedAt: at('reviewed_at'),
    reviewedBy: optionalRef('reviewed_by'),
  },
  (t) => [
    index('identity_submissions_user').on(t.userId, t.id),
    index('identity_submissions_queue').on(t.status, t.id),
    index('identity_submissions_number').on(t.numberIndex),
    uniqueIndex('identity_submissions_one_pending')
      .on(t.userId)
      .where(sql`${t.status} = 'pending_review'`),
    uniqueIndex('identity_submissions_one_approved_document')
      .on(t.numberIndex)
      .where(sql`${t.status} = 'approved'`),
    check('identity_submissions_status', sql`${t.status} in ('pending_review', 'approved', 'rejected')`),
    check(
      'identity_submissions_document_type',
      sql`${t.documentType} in ('id_card', 'passport', 'driving_licence')`,
    ),
  ],
);
