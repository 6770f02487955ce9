/**
 * Passkeys (docs/protocol.md section 33): a signed-in user adds one after re-proving themselves
 * (/api/v1/passkey/*), then signs in with it without typing the e-mail (/api/v1/sso/passkey-*).
 * The options are WebAuthn's JSON forms (PublicKeyCredentialCreationOptionsJSON and
 * PublicKeyCredentialRequestOptionsJSON), handed as they are to @simplewebauthn/browser; the
 * responses are what its startRegistration and startAuthentication return.
 */
import { z } from 'zod';
import { PASSKEY_NAME_MAX_LENGTH } from '../constants.js';
import { codeSchema, idParamsSchema, isoTimeSchema, listOf, passwordSchema, text } from '../schema.js';

/** How long a challenge may be answered, once. */
export const PASSKEY_CHALLENGE_SECONDS = 300;

export const passkeyNameSchema = text({ max: PASSKEY_NAME_MAX_LENGTH });

/** The id of a challenge the server issued (base64url). */
const challengeIdSchema = text({ max: 64 }).refine((value) => /^[A-Za-z0-9_-]+$/.test(value), {
  error: 'server.passkey_challenge_unknown',
});

/** A base64url field of a WebAuthn response. */
const base64url = (max: number) =>
  text({ max }).refine((value) => /^[A-Za-z0-9_-]*={0,2}$/.test(value), {
    error: 'server.passkey_response_invalid',
  });

/**
 * A WebAuthn credential as @simplewebauthn/browser returns it: the credential's ids and type,
 * `response` with `clientDataJSON` first and then the ceremony's own fields, the attachment and
 * the extension results.
 */
function credentialResponseOf<T extends z.ZodRawShape>(response: T) {
  return z.object({
    id: base64url(1024),
    rawId: base64url(1024),
    type: z.literal('public-key', { error: 'server.passkey_response_invalid' }),
    response: z.object({ clientDataJSON: base64url(4096), ...response }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  });
}

/** What startRegistration returns. */
export const registrationResponseSchema = credentialResponseOf({
  attestationObject: base64url(16_384),
  authenticatorData: base64url(8192).optional(),
  transports: z
    .array(text({ max: 32 }))
    .max(10)
    .optional(),
  publicKeyAlgorithm: z.number().int().optional(),
  publicKey: base64url(4096).optional(),
});

/** What startAuthentication returns. */
export const authenticationResponseSchema = credentialResponseOf({
  authenticatorData: base64url(8192),
  signature: base64url(2048),
  userHandle: base64url(512).optional(),
});

/** Re-proving oneself before a passkey is added: the login password, and the authenticator code when one is bound. */
export const passkeyRegisterOptionsParamsSchema = z.object({
  password: passwordSchema,
  googleCode: codeSchema.optional(),
});
export type PasskeyRegisterOptionsParams = z.infer<typeof passkeyRegisterOptionsParamsSchema>;

/** `options`: PublicKeyCredentialCreationOptionsJSON (a discoverable credential is asked for). */
export const passkeyRegisterOptionsDataSchema = z.object({
  challengeId: z.string(),
  options: z.record(z.string(), z.unknown()),
  expiresAt: isoTimeSchema,
});
export type PasskeyRegisterOptionsData = z.infer<typeof passkeyRegisterOptionsDataSchema>;

export const passkeyRegisterParamsSchema = z.object({
  challengeId: challengeIdSchema,
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
export type PasskeyRegisterParams = z.infer<typeof passkeyRegisterParamsSchema>;

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoTimeSchema,
  /** The last sign-in with it, or null. */
  lastUsedAt: isoTimeSchema.nullable(),
  /** Whether the passkey is synced to other devices (multi-device, backed up). */
  synced: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListDataSchema = listOf(passkeySchema);
export type PasskeyListData = z.infer<typeof passkeyListDataSchema>;

export const passkeyRenameParamsSchema = idParamsSchema.extend({ name: passkeyNameSchema });
export type PasskeyRenameParams = z.infer<typeof passkeyRenameParamsSchema>;

export const passkeyRemoveParamsSchema = idParamsSchema;
export type PasskeyRemoveParams = z.infer<typeof passkeyRemoveParamsSchema>;

/** `options`: PublicKeyCredentialRequestOptionsJSON with no allowCredentials (discoverable). */
export const passkeyLoginOptionsDataSchema = passkeyRegisterOptionsDataSchema;
export type PasskeyLoginOptionsData = z.infer<typeof passkeyLoginOptionsDataSchema>;

export const passkeyLoginParamsSchema = z.object({
  challengeId: challengeIdSchema,
  response: authenticationResponseSchema,
});
export type PasskeyLoginParams = z.infer<typeof passkeyLoginParamsSchema>;
