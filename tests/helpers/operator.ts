/**
 * Operators ready for the admin API, as a person gets one in the console: created with a
 * one-time password, signed in, the password changed, an authenticator bound; each call then uses
 * a session signed in with a fresh code (which counts as a step-up for 5 minutes), signing in
 * again once the step-up has run out (tests move the clock).
 */
import { expect } from 'vitest';
import type { OperatorRole } from '../../contract/api/admin.js';
import { cliContext } from '../../server/cli/cli-context.js';
import { totpCode, totpStep, TOTP_DRIFT_STEPS, TOTP_PERIOD_SECONDS } from '../../server/security/totp.js';
import { call as httpCall } from './http.js';
import { newKey, type Answer, type CallOptions, type TestServer, type Transport } from './server.js';

/** Where an operator is set up: a test server in this process, or one over HTTP with a real clock. */
export interface AdminClient {
  call<T = Record<string, unknown>>(
    uri: string,
    params: Record<string, unknown>,
    options: CallOptions & { transport?: Transport },
  ): Promise<Answer<T>>;
  now(): Date;
  /** Makes the operator as the CLI does (a trusted local tool); absent: it exists already with FIRST_PASSWORD. */
  createOperator?(email: string, role: OperatorRole, password: string): Promise<void>;
  /** True when time passes by itself: out of fresh codes, wait for the next step instead of failing. */
  realTime: boolean;
}

/** A Coffer over real HTTP whose clock is `now` (COFFER_NOW plus the time since it started). */
export const httpAdminClient = (base: string, now: () => Date): AdminClient => ({
  call: async <T>(uri: string, params: Record<string, unknown>, options: CallOptions) => {
    const headers: Record<string, string> = { lang: options.lang ?? 'EN' };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (options.key) headers['idempotency-key'] = options.key;
    return (await httpCall(base, uri, params, headers)) as Answer<T>; // the route's data schema
  },
  now,
  realTime: true,
});

/** A test server's admin client (its manual clock). */
export const testServerClient = (t: TestServer): AdminClient => ({
  call: (uri, params, options) => t.call(options.transport ?? 'plain', uri, params, options),
  now: () => t.clock.now(),
  createOperator: async (email, role, password) => {
    await t.server.services.operators.create(cliContext(), { email, role, password });
  },
  realTime: false,
});

export const FIRST_PASSWORD = 'secret123';
export const OPERATOR_PASSWORD = 'operator-pass-1';

export interface ReadyOperator {
  email: string;
  /** The bound authenticator's secret (Base32). */
  secret: string;
  /** A session signed in with a code, within its step-up. */
  token(): Promise<string>;
  /** Calls an admin route as this operator (an Idempotency-Key is added unless `options.key` is given). */
  call<T = Record<string, unknown>>(
    uri: string,
    params?: Record<string, unknown>,
    options?: CallOptions & { transport?: Transport },
  ): Promise<Answer<T>>;
  /** A code of the next time step the server has not accepted yet (within its drift window). */
  nextCode(): Promise<string>;
}

/** Throws with the answer when it is not a success. */
export function ok<T>(answer: Answer<T>, what: string): T {
  if (answer.code !== 200) throw new Error(`${what}: ${answer.code} ${answer.message}`);
  return answer.data;
}

/** Signs up an operator of `role` on a test server the way the console does; ready to act. */
export function readyOperator(t: TestServer, email: string, role: OperatorRole): Promise<ReadyOperator> {
  return setUpOperator(testServerClient(t), email, role);
}

/** Signs up an operator of `role` through `client` the way the console does; ready to act. */
export async function setUpOperator(
  client: AdminClient,
  email: string,
  role: OperatorRole,
): Promise<ReadyOperator> {
  await client.createOperator?.(email, role, FIRST_PASSWORD);
  const first = ok(
    await client.call<{ token: string }>('/api/admin/auth/login', { email, password: FIRST_PASSWORD }, {}),
    'first sign-in',
  ).token;
  const as = () => ({ token: first, lang: 'EN', key: newKey() });
  ok(
    await client.call(
      '/api/admin/auth/password',
      { oldPassword: FIRST_PASSWORD, newPassword: OPERATOR_PASSWORD },
      as(),
    ),
    'password change',
  );
  const { secret } = ok(
    await client.call<{ secret: string }>('/api/admin/auth/authenticator', {}, as()),
    'authenticator',
  );
  let lastStep = totpStep(client.now());
  ok(
    await client.call(
      '/api/admin/auth/bind-authenticator',
      { googleCode: await totpCode(secret, client.now()) },
      as(),
    ),
    'bind',
  );

  const nextCode = async (): Promise<string> => {
    const now = totpStep(client.now());
    const step = Math.max(now, lastStep + 1);
    if (step > now + TOTP_DRIFT_STEPS) {
      if (!client.realTime) throw new Error(`${email}: no unused code left at this time: move the clock`);
      const nextStepAt = (now + 1) * TOTP_PERIOD_SECONDS * 1000;
      await new Promise((resolve) => setTimeout(resolve, nextStepAt - client.now().getTime() + 50));
      return nextCode();
    }
    lastStep = step;
    return totpCode(secret, new Date(step * TOTP_PERIOD_SECONDS * 1000));
  };
  let session: { token: string; elevatedUntil: number } | null = null;
  const token = async () => {
    if (session && client.now().getTime() < session.elevatedUntil) return session.token;
    const googleCode = await nextCode();
    const signedIn = ok(
      await client.call<{ token: string }>(
        '/api/admin/auth/login',
        { email, password: OPERATOR_PASSWORD, googleCode },
        {},
      ),
      'sign-in',
    );
    // The step-up lasts 5 minutes from the sign-in; sign in again a little before it ends.
    session = { token: signedIn.token, elevatedUntil: client.now().getTime() + 4 * 60 * 1000 };
    return session.token;
  };
  return {
    email,
    secret,
    token,
    nextCode,
    call: async (uri, params = {}, options = {}) =>
      client.call(uri, params, {
        lang: 'EN',
        key: newKey(),
        ...options,
        token: options.token ?? (await token()),
      }),
  };
}

/**
 * A session of a new operator of `role`, set up as the console does and signed in with a code
 * (stepped up for 5 minutes, idle for at most 30): for tests that keep one token throughout.
 */
export async function operatorToken(t: TestServer, email: string, role: OperatorRole): Promise<string> {
  return (await readyOperator(t, email, role)).token();
}

/** The ledger's invariants hold: `ledger check` asked through the admin API by `finance`. */
export async function expectLedgerOk(t: TestServer, finance: string): Promise<void> {
  const check = await t.call<{ ok: boolean; violations: unknown[] }>(
    'plain',
    '/api/admin/ledger/check',
    {},
    { token: finance },
  );
  expect(check.data).toMatchObject({ ok: true, violations: [] });
}
