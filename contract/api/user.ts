/** Calls about the logged-in user under /api/v1/user and /api/v1/account. */
import { z } from 'zod';
import { isoTimeSchema } from '../schema.js';

export const kycStatusSchema = z.enum(['not_verified', 'pending_review', 'approved', 'rejected']);
export type KycStatus = z.infer<typeof kycStatusSchema>;

export const accountSchema = z.object({
  id: z.string(),
  kind: z.enum(['main', 'sub']),
  name: z.string(),
  createdAt: isoTimeSchema,
});
export type Account = z.infer<typeof accountSchema>;

export const userInfoSchema = z.object({
  id: z.string(),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  inviteCode: z.string(),
  /** Invite code of the user who referred this one; null at the top of the tree. */
  referrerInviteCode: z.string().nullable(),
  kycStatus: kycStatusSchema,
  tradePasswordSet: z.boolean(),
  authenticatorBound: z.boolean(),
  /** An anti-phishing code is set (the security centre); the code itself is never sent. */
  antiPhishingSet: z.boolean(),
  /** An operator froze the user: reading goes on, every money command answers 403 (reason `frozen`). */
  frozen: z.boolean(),
  lang: z.string(),
  defaultAccountId: z.string(),
  accounts: z.array(accountSchema),
  createdAt: isoTimeSchema,
});
export type UserInfo = z.infer<typeof userInfoSchema>;
