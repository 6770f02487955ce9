/** Calls about the logged-in user under /api/v1/user and /api/v1/account. */
import { z } from 'zod';
import { isoTimeSchema } from '../schema.js';
import { accountRecordSchema } from './account.js';
import { IDENTITY_STATUSES } from './identity.js';

/** The user's real-name verification status (identity.ts). */
export const kycStatusSchema = z.enum(IDENTITY_STATUSES);

/** One of the user's accounts as user/info lists it (the default one is `defaultAccountId`). */
export const accountSchema = accountRecordSchema.omit({ isDefault: true });
export type Account = z.infer<typeof accountSchema>;

/** The user as their own profile shows them, in this order (user/info and the synced `profile` record). */
export const profileFields = {
  id: z.string(),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  inviteCode: z.string(),
};

export const userInfoSchema = z.object({
  ...profileFields,
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
