/**
 * Real-name verification (spec: the real-name record; docs/protocol.md §30): the customer's
 * submission and its status, and the compliance operators' review.
 */
import { z } from 'zod';
import {
  choiceOf,
  idSchema,
  isoTimeSchema,
  pageOf,
  pageParamsSchema,
  text,
  uploadUrlSchema,
} from '../schema.js';

export const IDENTITY_STATUSES = ['not_verified', 'pending_review', 'approved', 'rejected'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

export const DOCUMENT_TYPES = ['id_card', 'passport', 'driving_licence'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Why a submission was rejected (Ballerine's list); `other` carries the reviewer's text. */
export const REJECT_REASONS = ['unreadable', 'expired', 'name_mismatch', 'altered', 'other'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Images of one submission: the front, the back (ID card, driving licence), a photo holding it. */
export const IDENTITY_IMAGES_MAX = 3;

/** Letters and digits, with spaces or hyphens between them as printed on the document. */
const DOCUMENT_NUMBER = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{2,30})[A-Za-z0-9]$/;

export const identityStoreParamsSchema = z.object({
  documentType: choiceOf(DOCUMENT_TYPES),
  documentNumber: text({ max: 32 }).refine((value) => DOCUMENT_NUMBER.test(value), {
    error: 'server.document_number_invalid',
  }),
  realName: text({ max: 64 }),
  images: z
    .array(uploadUrlSchema)
    .min(1, { error: 'server.identity_images_count' })
    .max(IDENTITY_IMAGES_MAX, { error: 'server.identity_images_count' }),
});
export type IdentityStoreParams = z.infer<typeof identityStoreParamsSchema>;

/**
 * The customer's verification as they see it (the synced `identity` record, id = the user id):
 * the number masked to its first and last two characters; no image.
 */
export const identityRecordSchema = z.object({
  id: z.string(),
  status: z.enum(IDENTITY_STATUSES),
  documentType: z.enum(DOCUMENT_TYPES).nullable(),
  documentNumber: z.string().nullable(),
  realName: z.string().nullable(),
  /** Why the last submission was rejected; null unless rejected. */
  reason: z.enum(REJECT_REASONS).nullable(),
  /** The reviewer's words when the reason is `other`. */
  reasonText: z.string().nullable(),
  submittedAt: isoTimeSchema.nullable(),
  reviewedAt: isoTimeSchema.nullable(),
});
export type IdentityRecord = z.infer<typeof identityRecordSchema>;

/** Operators' review. */
export const adminIdentityListParamsSchema = pageParamsSchema.extend({
  status: choiceOf(['pending_review', 'approved', 'rejected']).default('pending_review'),
});
export const adminIdentityItemSchema = z.object({
  submissionId: z.string(),
  userId: z.string(),
  email: z.string(),
  status: z.enum(IDENTITY_STATUSES),
  documentType: z.enum(DOCUMENT_TYPES),
  realName: z.string(),
  submittedAt: isoTimeSchema,
  reviewedAt: isoTimeSchema.nullable(),
});
/** The queue oldest first; `nextCursor` is the last submission id of the page. */
export const adminIdentityListDataSchema = pageOf(adminIdentityItemSchema);

export const adminIdentityUserParamsSchema = z.object({ userId: idSchema });
export const adminIdentityDetailDataSchema = adminIdentityItemSchema.extend({
  /** The whole number: compliance sees it to compare with the images. */
  documentNumber: z.string(),
  reason: z.enum(REJECT_REASONS).nullable(),
  reasonText: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  /** Signed links that expire (`expiresAt`, within 5 minutes); the images have no other way out. */
  images: z.array(z.object({ url: z.string(), expiresAt: isoTimeSchema })),
  /** Every other account that submitted the same document (the same type and number). */
  sameDocument: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      status: z.enum(IDENTITY_STATUSES),
      submittedAt: isoTimeSchema,
    }),
  ),
  /** This user's earlier submissions, newest first. */
  history: z.array(
    z.object({
      submissionId: z.string(),
      status: z.enum(IDENTITY_STATUSES),
      reason: z.enum(REJECT_REASONS).nullable(),
      submittedAt: isoTimeSchema,
      reviewedAt: isoTimeSchema.nullable(),
    }),
  ),
});
export type AdminIdentityDetail = z.infer<typeof adminIdentityDetailDataSchema>;

export const adminIdentityRejectParamsSchema = z
  .object({
    userId: idSchema,
    reason: choiceOf(REJECT_REASONS),
    note: text({ max: 300, multiline: true }).optional(),
  })
  .refine((params) => params.reason !== 'other' || (params.note ?? '').trim() !== '', {
    error: 'server.identity_reason_text',
    path: ['note'],
  });
