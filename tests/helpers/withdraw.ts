/**
 * Withdrawal fixtures over a test server: finance operators, a user ready to withdraw (trade
 * password, authenticator, a method past its cooldown, funded cash), codes of the user's key, and
 * the ledger check.
 */
import { expect } from 'vitest';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/security/totp.js';
import { newKey, type TestServer } from './server.js';
import type { OperatorRole } from '../../contract/api/admin.js';
import { readyOperator, type ReadyOperator } from './operator.js';

export const TRADE_PASSWORD = 'trade123';
/** A checksummed BEP20 address nobody holds the key of (the EIP-55 spec's first example). */
export const EVM_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const CARD_NUMBER = '4111111111111111';

export interface WithdrawalRecordLike {
  id: string;
  status: string;
  stage: string;
  amount: string;
  fee: string;
  total: string;
  reason: string | null;
  txHash: string | null;
  reference: string | null;
}

export interface ReadyUser {
  token: string;
  userId: string;
  accountId: string;
  secret: string;
  methodId: string;
  email: string;
}

export function withdrawFixtures(t: () => TestServer) {
  const ready = new Map<string, ReadyOperator>();

  /**
   * Two finance operators, set up as the console does; each is named by its e-mail, and signs in
   * again when its step-up has run out (tests move the clock past it).
   */
  const operators = async (prefix: string): Promise<[string, string]> => {
    const emails = ['a', 'b'].map((name) => `${prefix}-fin-${name}@coffer.test`);
    for (const email of emails) ready.set(email, await readyOperator(t(), email, 'finance'));
    return [emails[0] ?? '', emails[1] ?? ''];
  };
  /** Sets up an operator of another role, named by its e-mail like the finance ones. */
  const addOperator = async (email: string, role: OperatorRole) => {
    ready.set(email, await readyOperator(t(), email, role));
  };
  const operatorOf = (email: string): ReadyOperator => {
    const operator = ready.get(email);
    if (!operator) throw new Error(`no operator ${email}: make it with operators() or addOperator()`);
    return operator;
  };
  /** A session of the operator `email`, signed in with a code (stepped up for 5 minutes). */
  const adminLogin = (email: string) => operatorOf(email).token();
  /** Calls an operator route as the finance operator `email`. */
  const asFinance = <T = WithdrawalRecordLike>(email: string, uri: string, params: Record<string, unknown>) =>
    operatorOf(email).call<T>(uri, params);

  /** Moves the clock to the start of the next 30-second step, so a code of "now" is fresh. */
  const nextStep = () => {
    const ms = t().clock.now().getTime();
    t().clock.advance((TOTP_PERIOD_SECONDS * 1000 - (ms % (TOTP_PERIOD_SECONDS * 1000))) / 1000);
  };
  const codeNow = (secret: string, offsetSeconds = 0) =>
    totpCode(secret, new Date(t().clock.now().getTime() + offsetSeconds * 1000));

  const call = <T = WithdrawalRecordLike>(
    uri: string,
    params: Record<string, unknown>,
    token: string,
    key = newKey(),
  ) => t().call<T>('plain', uri, params, { token, key, lang: 'EN' });

  /** Funds an account's cash through an operator adjustment (below the review threshold). */
  const fund = async (finance: string, accountId: string, amount: string) => {
    const answer = await asFinance<{ status: string }>(finance, '/api/admin/ledger/adjust', {
      accountId,
      asset: 'USDT',
      amount,
      reason: 'test funding',
    });
    expect(answer.code, answer.message).toBe(200);
  };

  /**
   * Registers a user, binds an authenticator and a trade password, adds a method (a BEP20 address
   * or a bank card) and lets its cooldown pass (the clock moves 25 hours: keep the window in mind).
   */
  const readyUser = async (
    email: string,
    method: 'chain' | 'bank' = 'chain',
    address = EVM_ADDRESS,
  ): Promise<ReadyUser> => {
    const { token, userId } = await t().register('plain', email);
    const key = await t().call<{ secret: string }>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    nextStep();
    const bound = await call('/api/v1/user/bindGoogle2Fa', { code: await codeNow(key.data.secret) }, token);
    expect(bound.code, bound.message).toBe(200);
    const trade = await call(
      '/api/v1/user/bindTradePassword',
      { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
      token,
    );
    expect(trade.code, trade.message).toBe(200);
    const added =
      method === 'chain'
        ? await call<{ id: string }>(
            '/api/v1/user/add-chain-payment',
            { currency: 'USDT', network: 'BEP20', address },
            token,
          )
        : await call<{ id: string }>(
            '/api/v1/user/add-bank-payment',
            { bankName: 'Bank of Test', cardNumber: CARD_NUMBER, holderName: 'Test Holder', branch: 'Main' },
            token,
          );
    expect(added.code, added.message).toBe(200);
    t().clock.advance(25 * 3600);
    const accounts = await t().call<{ items: Array<{ id: string }> }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token },
    );
    return {
      token,
      userId,
      accountId: accounts.data.items[0]?.id ?? '',
      secret: key.data.secret,
      methodId: added.data.id,
      email,
    };
  };

  /** A withdrawal request with a fresh code (the clock moves to the next step first). */
  const withdraw = async (
    user: ReadyUser,
    amount: string,
    extra: Record<string, unknown> = {},
    key = newKey(),
  ) => {
    nextStep();
    return call(
      '/api/v1/withdraw/create',
      {
        accountId: user.accountId,
        amount,
        methodId: user.methodId,
        googleCode: await codeNow(user.secret),
        tradePassword: TRADE_PASSWORD,
        ...extra,
      },
      user.token,
      key,
    );
  };

  const assets = async (user: ReadyUser) =>
    (
      await t().call<{ cash: string; held: string }>(
        'plain',
        '/api/v1/user/assets',
        { accountId: user.accountId },
        { token: user.token },
      )
    ).data;

  const expectLedgerOk = async (finance: string) => {
    const check = await asFinance<{ ok: boolean; violations: unknown[] }>(
      finance,
      '/api/admin/ledger/check',
      {},
    );
    expect(check.data).toMatchObject({ ok: true, violations: [] });
  };

  /** Moves the clock to the next 10:00 in Asia/Shanghai on a weekday (02:00Z), inside the window. */
  const toMorning = () => {
    const now = t().clock.now();
    let next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 2, 0, 0);
    if (next <= now.getTime()) next += 86_400_000;
    while ([0, 6].includes(new Date(next).getUTCDay())) next += 86_400_000;
    t().clock.advance((next - now.getTime()) / 1000);
  };

  /** A ready user made in the morning, whose cash `finance` then funds with `amount` the next morning. */
  const fundedUser = async (
    finance: string,
    email: string,
    amount: string,
    method: 'chain' | 'bank' = 'chain',
    address = EVM_ADDRESS,
  ): Promise<ReadyUser> => {
    toMorning();
    const user = await readyUser(email, method, address);
    toMorning();
    await fund(finance, user.accountId, amount);
    return user;
  };

  return {
    adminLogin,
    addOperator,
    asFinance,
    operators,
    nextStep,
    codeNow,
    call,
    fund,
    readyUser,
    fundedUser,
    withdraw,
    assets,
    expectLedgerOk,
    toMorning,
  };
}
