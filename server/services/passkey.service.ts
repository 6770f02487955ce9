/**
 * Passkeys (docs/protocol.md section 33): WebAuthn credentials with @simplewebauthn/server.
 *
 * Rules that must stay true:
 * - a passkey is added only after the user re-proved themselves in the same flow: the login
 *   password (wrong ones lock like wrong logins), plus an authenticator code when one is bound;
 * - every challenge is random, lives PASSKEY_CHALLENGE_SECONDS and is used once: it is taken from
 *   the shared counter store (Redis when REDIS_URL is set) before the response is checked, so a
 *   replayed or late response finds nothing;
 * - a registration challenge is bound to the user who asked for it;
 * - the relying party id and the expected origin come from COFFER_PUBLIC_URL;
 * - the signature counter must grow when the authenticator counts (a counter that stays or goes
 *   back is refused: the credential may have been cloned); the row is locked while it moves.
 */
import crypto from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { BodyCode } from '../../contract/codes.js';
import {
  PASSKEY_CHALLENGE_SECONDS,
  type Passkey,
  type PasskeyListData,
  type PasskeyLoginOptionsData,
  type PasskeyLoginParams,
  type PasskeyRegisterOptionsData,
  type PasskeyRegisterOptionsParams,
  type PasskeyRegisterParams,
  type PasskeyRemoveParams,
  type PasskeyRenameParams,
} from '../../contract/api/passkeys.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { existingRowId } from '../core/params.js';
import { BusinessError, invalidField, notFound, notLoggedIn } from '../core/errors.js';
import type { Transaction } from '../db/database.js';
import {
  deletePasskey,
  insertPasskey,
  listPasskeysOfUser,
  lockPasskeyByCredential,
  notePasskeyUse,
  renamePasskey,
  type PasskeyRow,
} from '../repositories/passkey.repository.js';
import { findUserById, lockUser, type UserRow } from '../repositories/user.repository.js';
import type { CounterStore } from '../security/counters.js';
import type { Limits } from '../security/limits.js';
import { verifyPassword } from '../security/passwords.js';
import type { SecurityService } from './security.service.js';
import { CoreService, type ServiceCore } from './service-core.js';

/** How many passkeys one user may keep. */
export const PASSKEYS_PER_USER = 10;

/** Who the passkeys are for: COFFER_PUBLIC_URL's host and origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/** The relying party of a public URL: its host name and origin. */
export const relyingPartyOf = (publicUrl: URL): RelyingParty => ({
  id: publicUrl.hostname,
  name: 'Coffer',
  origin: publicUrl.origin,
});

type Purpose = 'register' | 'login';
interface StoredChallenge {
  challenge: string;
  userId: number | null;
}

/** WebAuthn's options as the contract's JSON object. */
const asJson = (options: object) => options as Record<string, unknown>;

/** An unknown, used, expired or another user's challenge: 404 naming `challengeId`. */
const challengeUnknown = () =>
  new BusinessError(
    BodyCode.notFound,
    'server.passkey_challenge_unknown',
    { field: 'challengeId' },
    { field: 'challengeId' },
  );
const responseInvalid = () => invalidField('response', 'server.passkey_response_invalid');
const counterBackwards = () => invalidField('response', 'server.passkey_counter_backwards');
/** 400 when a user already keeps `count` passkeys, the most allowed. */
const assertRoomFor = (count: number): void => {
  if (count >= PASSKEYS_PER_USER) {
    throw new BusinessError(BodyCode.invalidInput, 'server.passkey_limit', { max: PASSKEYS_PER_USER });
  }
};

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: String(row.id),
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  synced: row.backedUp,
});

export class PasskeyService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly security: SecurityService,
    private readonly limits: Limits,
    private readonly challenges: CounterStore,
    private readonly party: RelyingParty,
  ) {
    super(core);
  }

  // ---- adding one (signed in) ----

  /**
   * Checks the login password (and the authenticator code when one is bound), then answers the
   * creation options of a discoverable credential with a new challenge for this user.
   */
  async registerOptions(
    ctx: RequestContext,
    params: PasskeyRegisterOptionsParams,
  ): Promise<PasskeyRegisterOptionsData> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const user = await lockUser(tx, userId);
      if (!user) throw notLoggedIn();
      await this.limits.assertNotLocked(user.email, ctx.ip);
      if (!(await verifyPassword(params.password, user.passwordHash))) {
        await this.limits.recordFailure(user.email, ctx.ip);
        throw invalidField('password', 'server.passkey_password_wrong');
      }
      await this.limits.clearAccount(user.email);
      if (user.authenticatorSecret !== null) {
        if (params.googleCode === undefined) throw invalidField('googleCode', 'server.field_required');
        await this.security.verifyAuthenticatorCode(tx, userId, params.googleCode);
      }
      const existing = await listPasskeysOfUser(tx, userId);
      assertRoomFor(existing.length);
      const options = await generateRegistrationOptions({
        rpName: this.party.name,
        rpID: this.party.id,
        userID: new TextEncoder().encode(`coffer-user-${user.id}`),
        userName: user.email,
        userDisplayName: user.nickname || user.email,
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      return { options: asJson(options), ...(await this.issue('register', options.challenge, userId)) };
    });
  }

  /** Verifies the new credential against this user's challenge (used up either way) and stores it under `name`. */
  async register(ctx: RequestContext, params: PasskeyRegisterParams): Promise<Passkey> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      const stored = await this.take('register', params.challengeId);
      if (!stored || stored.userId !== userId) throw challengeUnknown();
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          // The contract's schema checked its shape (optional fields may be absent, never undefined).
          response: params.response as RegistrationResponseJSON,
          ...this.expected(stored),
        });
      } catch {
        throw responseInvalid();
      }
      if (!verified.verified) throw responseInvalid();
      const info = verified.registrationInfo;
      assertRoomFor((await listPasskeysOfUser(tx, userId)).length);
      const row = await insertPasskey(tx, {
        userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? params.response.response.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name: params.name,
        createdAt: this.clock.now(),
      });
      if (!row) throw new BusinessError(BodyCode.conflict, 'server.passkey_exists');
      return toPasskey(row);
    });
  }

  // ---- the list ----

  async list(ctx: RequestContext): Promise<PasskeyListData> {
    const rows = await listPasskeysOfUser(this.db, userIdOf(ctx));
    return { items: rows.map(toPasskey) };
  }

  async rename(ctx: RequestContext, params: PasskeyRenameParams): Promise<{ done: true }> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      if (!(await renamePasskey(tx, userId, existingRowId(params.id), params.name))) throw notFound();
      return { done: true as const };
    });
  }

  /** Deletes one of the caller's passkeys: it signs in no more (sessions it started stay, like a password change's). */
  async remove(ctx: RequestContext, params: PasskeyRemoveParams): Promise<{ done: true }> {
    const userId = userIdOf(ctx);
    return this.commands.run(ctx, async (tx) => {
      if (!(await deletePasskey(tx, userId, existingRowId(params.id)))) throw notFound();
      return { done: true as const };
    });
  }

  // ---- signing in (auth.service.ts) ----

  /** Request options for a discoverable credential (no allowCredentials: no e-mail is typed). */
  async loginOptions(): Promise<PasskeyLoginOptionsData> {
    const options = await generateAuthenticationOptions({
      rpID: this.party.id,
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
    });
    return { options: asJson(options), ...(await this.issue('login', options.challenge, null)) };
  }

  /**
   * In the sign-in's transaction: uses the challenge up, verifies the assertion against the stored
   * passkey, moves its counter and answers its user. Every refusal is a 400 on `response` or
   * `challengeId`; the caller counts it against the client address.
   */
  async verifyLogin(tx: Transaction, params: PasskeyLoginParams): Promise<UserRow> {
    const stored = await this.take('login', params.challengeId);
    if (!stored) throw challengeUnknown();
    const passkey = await lockPasskeyByCredential(tx, params.response.id);
    if (!passkey) throw invalidField('response', 'server.passkey_unknown');
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: params.response as AuthenticationResponseJSON,
        ...this.expected(stored),
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports,
        },
      });
    } catch (error) {
      if (error instanceof Error && /counter value/i.test(error.message)) throw counterBackwards();
      throw responseInvalid();
    }
    if (!verified.verified) throw responseInvalid();
    const user = await findUserById(tx, passkey.userId);
    if (!user) throw invalidField('response', 'server.passkey_unknown');
    await notePasskeyUse(tx, passkey.id, {
      counter: verified.authenticationInfo.newCounter,
      backedUp: verified.authenticationInfo.credentialBackedUp,
      lastUsedAt: this.clock.now(),
    });
    return user;
  }

  // ---- challenges ----

  /** What every ceremony's response must match: the stored challenge, this party, a verified user. */
  private expected(stored: StoredChallenge) {
    return {
      expectedChallenge: stored.challenge,
      expectedOrigin: this.party.origin,
      expectedRPID: this.party.id,
      requireUserVerification: true,
    };
  }

  private async issue(purpose: Purpose, challenge: string, userId: number | null) {
    const challengeId = crypto.randomBytes(18).toString('base64url');
    const value: StoredChallenge = { challenge, userId };
    await this.challenges.put(
      `passkey:${purpose}:${challengeId}`,
      JSON.stringify(value),
      PASSKEY_CHALLENGE_SECONDS,
    );
    const expiresAt = new Date(this.clock.now().getTime() + PASSKEY_CHALLENGE_SECONDS * 1000);
    return { challengeId, expiresAt: expiresAt.toISOString() };
  }

  private async take(purpose: Purpose, challengeId: string): Promise<StoredChallenge | null> {
    const value = await this.challenges.take(`passkey:${purpose}:${challengeId}`);
    return value === null ? null : (JSON.parse(value) as StoredChallenge);
  }
}
