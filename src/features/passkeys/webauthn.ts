/**
 * The browser's WebAuthn calls (they need the window, so they run in the page, never in the
 * worker), through @simplewebauthn/browser. A refusal by the user or the browser comes back as
 * a message key, so the page can say it in the user's language.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { PasskeyLoginParams, PasskeyRegisterParams } from '../../../contract/api/passkeys.js';

/** The browser's answers as the contract reads them (the same JSON; its extension results are a plain object). */
type RegistrationResponse = PasskeyRegisterParams['response'];
type AuthenticationResponse = PasskeyLoginParams['response'];

export type WebAuthnResult<T> =
  | { ok: true; response: T }
  | { ok: false; reason: 'passkeys.cancelled' | 'passkeys.failed' | 'passkeys.already_added' };

/** Whether this browser can use passkeys at all (and the page is a secure context). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

function failure(error: unknown): WebAuthnResult<never> {
  const name = error instanceof Error ? error.name : '';
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return { ok: false, reason: 'passkeys.already_added' };
  }
  if (name === 'NotAllowedError' || name === 'AbortError') return { ok: false, reason: 'passkeys.cancelled' };
  return { ok: false, reason: 'passkeys.failed' };
}

/** Asks the authenticator for a new passkey with the server's creation options. */
export async function createPasskey(
  options: Record<string, unknown>,
): Promise<WebAuthnResult<RegistrationResponse>> {
  try {
    // The server answers WebAuthn's JSON form as @simplewebauthn/server made it.
    const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
    const response = await startRegistration({ optionsJSON });
    return { ok: true, response: response as RegistrationResponse };
  } catch (error) {
    return failure(error);
  }
}

/** Asks the authenticator to sign the server's challenge with one of its passkeys for this site. */
export async function signWithPasskey(
  options: Record<string, unknown>,
): Promise<WebAuthnResult<AuthenticationResponse>> {
  try {
    const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
    const response = await startAuthentication({ optionsJSON });
    return { ok: true, response: response as AuthenticationResponse };
  } catch (error) {
    return failure(error);
  }
}
