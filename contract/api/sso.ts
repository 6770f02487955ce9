/** Auth calls under /api/v1/sso (spec section 7, CONTRACT.md). */
import { z } from 'zod';
import { INVITE_CODE_MAX_LENGTH } from '../constants.js';
import {
  codeSchema,
  emailSchema,
  isoTimeSchema,
  newPasswordFields,
  passwordSchema,
  text,
  withMatchingConfirm,
} from '../schema.js';

const inviteCodeSchema = text({ max: INVITE_CODE_MAX_LENGTH });

export const sendCodeParamsSchema = z.object({ email: emailSchema });
export type SendCodeParams = z.infer<typeof sendCodeParamsSchema>;

export const sendCodeDataSchema = z.object({
  /** Seconds until another code may be asked for (the 60 s countdown). */
  resendAfter: z.number().int(),
  expiresAt: isoTimeSchema,
});
export type SendCodeData = z.infer<typeof sendCodeDataSchema>;

export const checkRegisterInfoParamsSchema = z
  .object({
    email: emailSchema,
    inviteCode: inviteCodeSchema,
    password: passwordSchema.optional(),
    confirmPassword: passwordSchema.optional(),
  })
  .refine((value) => value.confirmPassword === undefined || value.password === value.confirmPassword, {
    error: 'server.passwords_mismatch',
    path: ['confirmPassword'],
  });
export type CheckRegisterInfoParams = z.infer<typeof checkRegisterInfoParamsSchema>;

export const checkDataSchema = z.object({ valid: z.literal(true) });

export const registerParamsSchema = withMatchingConfirm(
  z.object({
    email: emailSchema,
    code: codeSchema,
    inviteCode: inviteCodeSchema,
    ...newPasswordFields,
  }),
);
export type RegisterParams = z.infer<typeof registerParamsSchema>;

export const sessionDataSchema = z.object({
  token: z.string(),
  expiresAt: isoTimeSchema,
  userId: z.string(),
});
export type SessionData = z.infer<typeof sessionDataSchema>;

export const emailLoginParamsSchema = z.object({ email: emailSchema, password: passwordSchema });
export type EmailLoginParams = z.infer<typeof emailLoginParamsSchema>;

export const checkForgetCodeParamsSchema = z.object({ email: emailSchema, code: codeSchema });
export type CheckForgetCodeParams = z.infer<typeof checkForgetCodeParamsSchema>;

/** The checked code, and the new password. */
export const forgotParamsSchema = withMatchingConfirm(checkForgetCodeParamsSchema.extend(newPasswordFields));
export type ForgotParams = z.infer<typeof forgotParamsSchema>;

export const doneDataSchema = z.object({ done: z.literal(true) });
