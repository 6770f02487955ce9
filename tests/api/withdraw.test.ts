/**
 * Withdrawals through the API (CONTRACT.md codes 300, 470, 471, 472, 4900, 4901), on
 * PGlite and PostgreSQL: the order of the first checks, the window and the calendar, the method's
 * cooldown and ownership, the minimum and the daily limit, the trade password and the one-time
 * code (a retry under the same Idempotency-Key replays instead of failing on a used code), the
 * hold of amount + fee, the operators' approval (two different ones above the threshold), a
 * rejection's reversal, a bank card paid by hand, the records and the synced collection; and on
 * PostgreSQL, withdrawals racing on one balance. The ledger's invariants hold after each.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import {
  TRADE_PASSWORD,
  withdrawFixtures,
  type ReadyUser,
  type WithdrawalRecordLike,
} from '../helpers/withdraw.js';
import { cliContext } from '../../server/cli/cli-context.js';

const tiers = await availableTiers('withdraw-api');

interface IndexData {
  available: string;
  fee: string;
  minimum: string;
  dailyLimit: string;
  dailyRemaining: string;
  maximum: string;
  reviewAbove: string;
  window: { open: boolean; nextOpen: string | null; closesAt: string | null };
  lockedUntil: string | null;
  tradePasswordSet: boolean;
  authenticatorBound: boolean;
  method: { usable: boolean; usableAt: string } | null;
}

describe.each(tiers)('withdrawals on %s', (tier) => {
  let t: TestServer;
  let financeA: string;
  let financeB: string;
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    // The real-name limit (tests/api/identity.test.ts) is out of the way of the other rules here.
    t = await startTestServer(tier, {
      COFFER_WITHDRAW_DAILY_LIMIT: '20000',
      COFFER_UNVERIFIED_WITHDRAW_DAILY: '50000',
    });
    [financeA, financeB] = await f.operators(tier);
  });
  afterAll(async () => t?.close());

  const index = async (user: ReadyUser, extra: Record<string, unknown> = {}) =>
    (
      await t.call<IndexData>(
        'plain',
        '/api/v1/withdraw/index',
        { accountId: user.accountId, ...extra },
        { token: user.token },
      )
    ).data;
  const approve = (id: string, as = financeA) => f.asFinance(as, '/api/admin/withdraw/approve', { id });
  const reject = (id: string, reason = 'address on a sanctions list', as = financeA) =>
    f.asFinance(as, '/api/admin/withdraw/reject', { id, reason });
  const paid = (id: string, reference: string, as = financeA) =>
    f.asFinance(as, '/api/admin/withdraw/paid', { id, reference });

  test('create checks 300 (no trade password), then 4900 (no authenticator), then 4901 (no method), before anything else', async () => {
    const { token } = await t.register('plain', `order-${tier}@example.com`);
    const empty = () => t.call('plain', '/api/v1/withdraw/create', {}, { token, key: newKey(), lang: 'EN' });
    expect((await empty()).code).toBe(BodyCode.tradePasswordNotSet);
    await f.call(
      '/api/v1/user/bindTradePassword',
      { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
      token,
    );
    expect((await empty()).code).toBe(BodyCode.authenticatorNotBound);
    const key = await t.call<{ secret: string }>('plain', '/api/v1/user/getGoogle2Fa', {}, { token });
    f.nextStep();
    await f.call('/api/v1/user/bindGoogle2Fa', { code: await f.codeNow(key.data.secret) }, token);
    const noMethod = await empty();
    expect(noMethod.code).toBe(BodyCode.noWithdrawalMethod);
    expect(noMethod.message).toMatch(/withdrawal method/i);
    // With all three in place, a bad body is a 400 naming its field.
    await f.call(
      '/api/v1/user/add-chain-payment',
      { currency: 'USDT', network: 'BEP20', address: '0x' + 'ab'.repeat(20) },
      token,
    );
    const invalid = await empty();
    expect(invalid.code).toBe(BodyCode.invalidInput);
  });

  test('index shows the fee, minimum, daily limit and what remains, the maximum, the window and the method cooldown', async () => {
    const user = await f.fundedUser(financeA, `index-${tier}@example.com`, '500');
    const data = await index(user, { methodId: user.methodId });
    expect(data).toMatchObject({
      available: '500',
      fee: '1',
      minimum: '10',
      dailyLimit: '20000',
      dailyRemaining: '20000',
      maximum: '499',
      reviewAbove: '10000',
      window: { open: true, nextOpen: null },
      lockedUntil: null,
      tradePasswordSet: true,
      authenticatorBound: true,
      method: { usable: true },
    });
    await f.expectLedgerOk(financeA);
  });

  test("a new method is usable only after COFFER_NEW_METHOD_COOLDOWN_HOURS; another user's method is 403, an unknown one 400", async () => {
    const user = await f.fundedUser(financeA, `cool-${tier}@example.com`, '100');
    const fresh = await f.call<{ id: string }>(
      '/api/v1/user/add-bank-payment',
      { bankName: 'New Bank', cardNumber: '5555555555554444', holderName: 'Cool Down', branch: 'East' },
      user.token,
    );
    expect((await index(user, { methodId: fresh.data.id })).method).toMatchObject({ usable: false });
    const cooling = await f.withdraw(user, '20', { methodId: fresh.data.id });
    expect(cooling.code).toBe(BodyCode.invalidInput);
    expect(cooling.message).toMatch(/can be used from/);
    const other = await f.readyUser(`cool-other-${tier}@example.com`);
    f.toMorning();
    expect((await f.withdraw(user, '20', { methodId: other.methodId })).code).toBe(BodyCode.forbidden);
    expect((await f.withdraw(user, '20', { methodId: '999999' })).code).toBe(BodyCode.invalidInput);
    expect((await f.assets(user)).cash).toBe('100');
  });

  test("outside working days 09:00 to 21:00 (Asia/Shanghai) and on an operator's holiday: 471 with data.nextOpen", async () => {
    const user = await f.fundedUser(financeA, `window-${tier}@example.com`, '100');
    // 20:59:59 local is inside, 21:00 is not.
    t.clock.advance(10 * 3600 + 59 * 60); // 12:59:00Z = 20:59 local
    const late = await f.withdraw(user, '10'); // nextStep moves to 20:59:30
    expect(late.code, late.message).toBe(200);
    t.clock.advance(30);
    const closed = await f.withdraw(user, '10');
    expect(closed.code).toBe(BodyCode.outsideWithdrawalWindow);
    expect(closed.data).toMatchObject({ nextOpen: expect.stringMatching(/T01:00:00\.000Z$/) });
    expect(closed.message).toMatch(/09:00 to 21:00/);
    // A holiday closes a weekday.
    f.toMorning();
    const today = t.clock.now().toISOString().slice(0, 10);
    await t.server.services.calendar.set(cliContext(), { date: today, kind: 'holiday' });
    expect((await f.withdraw(user, '10')).code).toBe(BodyCode.outsideWithdrawalWindow);
    await t.server.services.calendar.set(cliContext(), { date: today, kind: 'normal' });
    expect((await f.withdraw(user, '10')).code).toBe(200);
  });

  test('amounts: more than 2 decimals, negative, not a number, below the minimum, over the daily limit: 400 on amount; nothing held', async () => {
    const user = await f.fundedUser(financeA, `amounts-${tier}@example.com`, '5000');
    for (const amount of ['10.001', '-10', 'abc', '1e3', '', '9.99', '0']) {
      const answer = await f.withdraw(user, amount);
      expect(answer.code, `${amount}: ${answer.message}`).toBe(BodyCode.invalidInput);
    }
    expect((await f.withdraw(user, '9.99')).message).toMatch(/minimum withdrawal is 10 USDT/);
    expect((await f.assets(user)).held).toBe('0');
  });

  test('a wrong trade password is 400 naming it, a wrong code and a reused code are 472, a retry under the same key replays', async () => {
    const user = await f.fundedUser(financeA, `codes-${tier}@example.com`, '100');
    const wrongPassword = await f.withdraw(user, '10', { tradePassword: 'nope-nope' });
    expect(wrongPassword.code).toBe(BodyCode.invalidInput);
    expect(wrongPassword.message).toMatch(/trade password/i);
    f.nextStep();
    const wrongCode = await f.call(
      '/api/v1/withdraw/create',
      {
        accountId: user.accountId,
        amount: '10',
        methodId: user.methodId,
        googleCode: '000000',
        tradePassword: TRADE_PASSWORD,
      },
      user.token,
    );
    expect(wrongCode.code).toBe(BodyCode.oneTimeCodeRejected);
    const key = newKey();
    const code = await f.codeNow(user.secret, 30);
    const params = {
      accountId: user.accountId,
      amount: '10',
      methodId: user.methodId,
      googleCode: code,
      tradePassword: TRADE_PASSWORD,
    };
    const first = await f.call('/api/v1/withdraw/create', params, user.token, key);
    expect(first.code, first.message).toBe(200);
    // The same request again under the same key: the stored answer, not a used-code refusal.
    const replay = await f.call('/api/v1/withdraw/create', params, user.token, key);
    expect(replay).toEqual(first);
    // Under a new key the code is spent.
    const reused = await f.call('/api/v1/withdraw/create', params, user.token);
    expect(reused.code).toBe(BodyCode.oneTimeCodeRejected);
    expect(await f.assets(user)).toMatchObject({ cash: '89', held: '11' });
    await f.expectLedgerOk(financeA);
  });

  test('amount + fee is held at request; 470 when the cash is short; the record and the synced collection show it', async () => {
    const user = await f.fundedUser(financeA, `hold-${tier}@example.com`, '50');
    const short = await f.withdraw(user, '50');
    expect(short.code).toBe(BodyCode.insufficientBalance);
    const created = await f.withdraw(user, '49');
    expect(created.code, created.message).toBe(200);
    expect(created.data).toMatchObject({
      amount: '49',
      fee: '1',
      total: '50',
      status: 'pending',
      stage: 'awaiting_review',
    });
    expect(await f.assets(user)).toMatchObject({ cash: '0', held: '50' });
    const list = await t.call<{ items: WithdrawalRecordLike[] }>(
      'plain',
      '/api/v1/withdraw/list',
      { accountId: user.accountId },
      { token: user.token },
    );
    expect(list.data.items.map((item) => item.id)).toEqual([created.data.id]);
    const pulled = await t.call<{ changes: Record<string, { upserts: WithdrawalRecordLike[] }> }>(
      'plain',
      '/api/v1/sync/pull',
      { accountId: user.accountId, cursors: {} },
      { token: user.token },
    );
    expect(pulled.data.changes['withdrawals']?.upserts).toEqual([
      expect.objectContaining({ id: created.data.id, status: 'pending' }),
    ]);
    await f.expectLedgerOk(financeA);
  });

  test('a rejection releases the hold as withdrawal_reversal with the reason; it cannot be approved or rejected again', async () => {
    const user = await f.fundedUser(financeA, `reject-${tier}@example.com`, '100');
    const created = await f.withdraw(user, '30');
    const rejected = await reject(created.data.id);
    expect(rejected.code, rejected.message).toBe(200);
    expect(rejected.data).toMatchObject({
      status: 'failed',
      stage: 'rejected',
      reason: 'address on a sanctions list',
    });
    expect(await f.assets(user)).toMatchObject({ cash: '100', held: '0' });
    expect((await approve(created.data.id)).code).toBe(BodyCode.conflict);
    expect((await reject(created.data.id)).code).toBe(BodyCode.conflict);
    const records = await t.call<{ items: Array<{ kind: string; amount: string; book: string }> }>(
      'plain',
      '/api/v1/wallet/records',
      { accountId: user.accountId, kind: 'withdrawal_reversal' },
      { token: user.token },
    );
    expect(records.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'withdrawal_reversal', amount: '31', book: 'cash' }),
      ]),
    );
    await f.expectLedgerOk(financeA);
  });

  test('above COFFER_WITHDRAW_REVIEW_ABOVE two different finance operators approve; a bank card is then marked paid with its reference', async () => {
    const user = await f.fundedUser(financeA, `big-${tier}@example.com`, '9000', 'bank');
    await f.fund(financeB, user.accountId, '9000');
    const big = await f.withdraw(user, '10000.01');
    expect(big.code, big.message).toBe(200);
    const first = await approve(big.data.id, financeA);
    expect(first.data).toMatchObject({
      stage: 'awaiting_review',
      approvalsNeeded: 2,
      // Who approved first, by actor and e-mail; a bank card has no transaction to confirm.
      approvals: [{ by: expect.stringMatching(/^operator:\d+$/), email: financeA }],
      confirmations: null,
    });
    const again = await approve(big.data.id, financeA);
    expect(again.code).toBe(BodyCode.forbidden);
    const second = await approve(big.data.id, financeB);
    expect(second.data).toMatchObject({ stage: 'approved' });
    expect((await paid(big.data.id, '')).code).toBe(BodyCode.invalidInput);
    const done = await paid(big.data.id, 'BANK-REF-0001');
    expect(done.data).toMatchObject({ status: 'success', stage: 'paid', reference: 'BANK-REF-0001' });
    expect(await f.assets(user)).toMatchObject({ cash: '7998.99', held: '0' });
    // A small one needs one approval.
    const small = await f.withdraw(user, '100');
    expect((await approve(small.data.id, financeB)).data).toMatchObject({
      stage: 'approved',
      approvalsNeeded: 1,
    });
    // The CLI approves and pays as a named operator.
    const cli = await f.withdraw(user, '10');
    await t.server.services.withdraw.approve(cliContext('ops'), { id: cli.data.id });
    const cliPaid = await t.server.services.withdraw.paid(cliContext('ops'), {
      id: cli.data.id,
      reference: 'CLI-1',
    });
    expect(cliPaid).toMatchObject({
      status: 'success',
      approvedBy: ['cli:ops'],
      approvals: [{ by: 'cli:ops', email: null }],
    });
    await f.expectLedgerOk(financeA);
  });

  test('the daily limit counts pending and successful withdrawals of the business day, not rejected ones', async () => {
    const user = await f.fundedUser(financeA, `daily-${tier}@example.com`, '9000');
    await f.fund(financeA, user.accountId, '9000');
    await f.fund(financeA, user.accountId, '9000');
    const first = await f.withdraw(user, '15000');
    expect(first.code, first.message).toBe(200);
    const over = await f.withdraw(user, '5000.01');
    expect(over.code).toBe(BodyCode.invalidInput);
    expect(over.message).toMatch(/5000 USDT remains/);
    await reject(first.data.id);
    expect((await f.withdraw(user, '5000.01')).code).toBe(200);
  });

  test('after a trade password change withdrawals are refused for 24 hours with data.lockedUntil', async () => {
    const user = await f.fundedUser(financeA, `locked-${tier}@example.com`, '100');
    await f.call('/api/v1/user/sendUpdateTradePasswordCode', {}, user.token);
    const changed = await f.call(
      '/api/v1/user/updateTradePassword',
      {
        oldTradePassword: TRADE_PASSWORD,
        tradePassword: TRADE_PASSWORD + 'x',
        confirmPassword: TRADE_PASSWORD + 'x',
        code: t.mailer.lastCode(user.email),
      },
      user.token,
    );
    expect(changed.code, changed.message).toBe(200);
    const locked = await f.withdraw(user, '10', { tradePassword: TRADE_PASSWORD + 'x' });
    expect(locked.code).toBe(BodyCode.forbidden);
    expect(locked.data).toMatchObject({ lockedUntil: expect.any(String) });
    expect((await index(user)).lockedUntil).toBe(
      (locked.data as unknown as { lockedUntil: string }).lockedUntil,
    );
    t.clock.advance(24 * 3600);
    f.toMorning();
    expect((await f.withdraw(user, '10', { tradePassword: TRADE_PASSWORD + 'x' })).code).toBe(200);
  });
});

describe.each(tiers.filter((tier) => tier === 'postgres'))('withdrawals racing on %s', (tier) => {
  let t: TestServer;
  let finance: string;
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    t = await startTestServer(tier);
    [finance] = await f.operators(`race-${tier}`);
  });
  afterAll(async () => t?.close());

  test('parallel withdrawals on one balance: one wins, the others are refused (470 or 472), never a negative balance', async () => {
    const user = await f.fundedUser(finance, 'race@example.com', '40');
    f.nextStep();
    const codes = await Promise.all([-30, 0, 30].map((offset) => f.codeNow(user.secret, offset)));
    const answers = await Promise.all(
      codes.map((googleCode) =>
        f.call(
          '/api/v1/withdraw/create',
          {
            accountId: user.accountId,
            amount: '30',
            methodId: user.methodId,
            googleCode,
            tradePassword: TRADE_PASSWORD,
          },
          user.token,
        ),
      ),
    );
    const won = answers.filter((answer) => answer.code === 200);
    expect(won).toHaveLength(1);
    for (const answer of answers.filter((item) => item.code !== 200))
      expect([BodyCode.insufficientBalance, BodyCode.oneTimeCodeRejected]).toContain(answer.code);
    expect(await f.assets(user)).toMatchObject({ cash: '9', held: '31' });
    await f.expectLedgerOk(finance);
  });

  test('the same request sent five times at once under one key makes one withdrawal', async () => {
    const user = await f.fundedUser(finance, 'race-key@example.com', '100');
    f.nextStep();
    const key = newKey();
    const params = {
      accountId: user.accountId,
      amount: '20',
      methodId: user.methodId,
      googleCode: await f.codeNow(user.secret),
      tradePassword: TRADE_PASSWORD,
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => f.call('/api/v1/withdraw/create', params, user.token, key)),
    );
    const ids = new Set(answers.filter((answer) => answer.code === 200).map((answer) => answer.data.id));
    expect(ids.size).toBe(1);
    expect(await f.assets(user)).toMatchObject({ cash: '79', held: '21' });
    await f.expectLedgerOk(finance);
  });
});
