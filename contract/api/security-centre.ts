/**
 * The security centre (page pages/setting/setting5, docs/protocol.md): /api/v1/user/sessions,
 * session-revoke, anti-phishing, sendEmailUpdateCode and email-update.
 */
import { z } from 'zod';
import { booleanSchema } from './hosting.js';
import { ANTI_PHISHING_PATTERN } from '../validation.js';
import { codeSchema, emailSchema, idSchema, isoTimeSchema, listOf, passwordSchema, text } from '../schema.js';

/** One signed-in device: `device` is read from the sign-in's User-Agent ("Chrome 120 on Windows 10"). */
export const userSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  /** The client address the session signed in from. */
  ip: z.string(),
  createdAt: isoTimeSchema,
  /** Moves at most once a minute. */
  lastSeenAt: isoTimeSchema,
  /** The session making this call. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;

export const userSessionsDataSchema = listOf(userSessionSchema);
export type UserSessionsData = z.infer<typeof userSessionsDataSchema>;

/**
 * Exactly one of: `sessionId` (one of user/sessions' ids) or `others: true` (every session but
 * this one). `others` takes true/false or, from a form body, "true"/"false"/"1"/"0".
 */
export const sessionRevokeParamsSchema = z
  .object({
    sessionId: idSchema.optional(),
    others: booleanSchema.optional(),
  })
  .refine((value) => (value.sessionId !== undefined) !== (value.others === true), {
    error: 'server.session_revoke_target',
    path: ['sessionId'],
  });
export type SessionRevokeParams = z.infer<typeof sessionRevokeParamsSchema>;

export const sessionRevokeDataSchema = z.object({
  /** How many sessions ended. */
  revoked: z.number().int(),
});
export type SessionRevokeData = z.infer<typeof sessionRevokeDataSchema>;

/** 4 to 20 letters and digits (in contract/validation.ts, which the app's first page may load). */
export { ANTI_PHISHING_PATTERN };

export const antiPhishingParamsSchema = z.object({
  code: text({ max: 20 }).refine((value) => ANTI_PHISHING_PATTERN.test(value), {
    error: 'server.anti_phishing_format',
  }),
  /** Required when an authenticator is bound. */
  googleCode: codeSchema.optional(),
  /** Required when no authenticator is bound. */
  tradePassword: passwordSchema.optional(),
});
export type AntiPhishingParams = z.infer<typeof antiPhishingParamsSchema>;

export const sendEmailUpdateCodeParamsSchema = z.object({ newEmail: emailSchema });
export type SendEmailUpdateCodeParams = z.infer<typeof sendEmailUpdateCodeParamsSchema>;

export const emailUpdateParamsSchema = z.object({
  newEmail: emailSchema,
  /** The code mailed to the current address. */
  oldCode: codeSchema,
  /** The code mailed to the new address. */
  newCode: codeSchema,
});
export type EmailUpdateParams = z.infer<typeof emailUpdateParamsSchema>;

/** The new address, and when withdrawals open again (24 hours after the change). */
export const emailUpdateDataSchema = z.object({
  email: z.string(),
  withdrawalsLockedUntil: isoTimeSchema,
});
export type EmailUpdateData = z.infer<typeof emailUpdateDataSchema>;
