/**
 * The authenticator and the passwords (spec sections 4, 5 and "Settings"): /api/v1/user/
 * getGoogle2Fa, bindGoogle2Fa, modifyGoogle2Fa, bindTradePassword, sendUpdateTradePasswordCode,
 * updateTradePassword, sendUpdateLoginPasswordCode, updateLoginPassword.
 */
import { z } from 'zod';
import {
  codeSchema,
  isoTimeSchema,
  newPasswordFields,
  passwordSchema,
  text,
  withMatchingConfirm,
} from '../schema.js';

/** A new authenticator key, shown once as a QR code (`otpauthUrl`) and as text to copy (`secret`). */
export const google2FaDataSchema = z.object({
  /** Base32, as authenticator apps take it. */
  secret: z.string(),
  /** `otpauth://totp/Coffer:<email>?secret=...&issuer=Coffer`. */
  otpauthUrl: z.string(),
});
export type Google2FaData = z.infer<typeof google2FaDataSchema>;

/** An authenticator app's 6-digit code. */
const authenticatorCodeSchema = codeSchema;

export const bindGoogle2FaParamsSchema = z.object({ code: authenticatorCodeSchema });
export type BindGoogle2FaParams = z.infer<typeof bindGoogle2FaParamsSchema>;

export const modifyGoogle2FaParamsSchema = z.object({
  /** A code of the key bound now. */
  oldCode: authenticatorCodeSchema,
  /** A code of the new key. */
  newCode: authenticatorCodeSchema,
  /** The new key's secret, as getGoogle2Fa showed it. */
  secret: text({ max: 128 }),
});
export type ModifyGoogle2FaParams = z.infer<typeof modifyGoogle2FaParamsSchema>;

/** The spec's "the two passwords do not match", on `confirmPassword` (withMatchingConfirm's rule, for the trade password). */
const mismatch = { error: 'server.passwords_mismatch', path: ['confirmPassword'] };

export const bindTradePasswordParamsSchema = z
  .object({ tradePassword: passwordSchema, confirmPassword: passwordSchema })
  .refine((value) => value.tradePassword === value.confirmPassword, mismatch);
export type BindTradePasswordParams = z.infer<typeof bindTradePasswordParamsSchema>;

export const updateTradePasswordParamsSchema = z
  .object({
    oldTradePassword: passwordSchema,
    tradePassword: passwordSchema,
    confirmPassword: passwordSchema,
    /** The e-mailed code from sendUpdateTradePasswordCode. */
    code: codeSchema,
  })
  .refine((value) => value.tradePassword === value.confirmPassword, mismatch);
export type UpdateTradePasswordParams = z.infer<typeof updateTradePasswordParamsSchema>;

export const updateLoginPasswordParamsSchema = withMatchingConfirm(
  z.object({
    oldPassword: passwordSchema,
    ...newPasswordFields,
    /** The e-mailed code from sendUpdateLoginPasswordCode. */
    code: codeSchema,
  }),
);
export type UpdateLoginPasswordParams = z.infer<typeof updateLoginPasswordParamsSchema>;

/** What a security change answers: withdrawals are refused until `withdrawalsLockedUntil` (null after a first binding). */
export const securityChangeDataSchema = z.object({
  done: z.literal(true),
  withdrawalsLockedUntil: isoTimeSchema.nullable(),
});
export type SecurityChangeData = z.infer<typeof securityChangeDataSchema>;
