/**
 * Accounts, balances and wallet records through the API (issue "Money core 1"), on PGlite and
 * PostgreSQL: sub-accounts, transfers between one's own accounts (exactly once, 470, 403, hostile
 * amounts), assets and records adding up, operator adjustments with four-eyes review, the
 * newcomer incentive, the RAB price, and `ledger check` after each step.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { SUB_ACCOUNTS_MAX } from '../../contract/constants.js';
import { JobName } from '../../server/jobs/scheduler.js';
import { expectLedgerOk, operatorToken } from '../helpers/operator.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type Answer, type TestServer } from '../helpers/server.js';
import { cliContext } from '../../server/cli/cli-context.js';

const tiers = await availableTiers('ledger-api');

interface Account {
  id: string;
  kind: string;
  name: string;
  isDefault: boolean;
}
interface Assets {
  cash: string;
  hosting: string;
  held: string;
  rab: string;
  rabHeld: string;
  rabPriceUsdt: string;
  totalUsdt: string;
}
interface WalletRecord {
  id: string;
  kind: string;
  asset: string;
  book: string;
  amount: string;
  balanceAfter: string;
}

describe.each(tiers)('accounts and the ledger on %s', (tier) => {
  let t: TestServer;
  let financeA: string;
  let financeB: string;
  let token: string;
  let mainId: string;

  const assets = async (accountId: string, as = token) =>
    (await t.call<Assets>('plain', '/api/v1/user/assets', { accountId }, { token: as })).data;
  const records = async (accountId: string, extra: Record<string, unknown> = {}) =>
    t.call<{ items: WalletRecord[]; nextCursor: string | null }>(
      'plain',
      '/api/v1/wallet/records',
      { accountId, ...extra },
      { token },
    );
  const adjust = (accountId: string, amount: string, as = financeA, asset = 'USDT') =>
    t.call<{ id: string; status: string }>(
      'plain',
      '/api/admin/ledger/adjust',
      { accountId, asset, amount, reason: 'test funding' },
      { token: as, key: newKey(), lang: 'EN' },
    );
  const transfer = (params: Record<string, unknown>, key: string | undefined = newKey(), as = token) =>
    t.call<{ id: string; amount: string }>('plain', '/api/v1/account/transfer', params, {
      token: as,
      lang: 'EN',
      ...(key ? { key } : {}),
    });
  const createSub = async (name: string) =>
    t.call<Account>(
      'plain',
      '/api/v1/account/createSubAccount',
      { name },
      { token, key: newKey(), lang: 'EN' },
    );

  beforeAll(async () => {
    t = await startTestServer(tier);
    financeA = await operatorToken(t, 'fa@coffer.test', 'finance');
    financeB = await operatorToken(t, 'fb@coffer.test', 'finance');
    token = (await t.register('plain', 'money@coffer.test')).token;
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    mainId = list.data.items[0]?.id ?? '';
  });
  afterAll(async () => {
    await t.close();
  });

  test('a new user has one main account, the default, with nothing in it', async () => {
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    expect(list.data.items).toEqual([expect.objectContaining({ kind: 'main', isDefault: true })]);
    expect(await assets(mainId)).toMatchObject({
      cash: '0',
      hosting: '0',
      held: '0',
      rab: '0',
      totalUsdt: '0',
    });
    const byDefault = await t.call<Assets & { accountId: string }>(
      'plain',
      '/api/v1/user/assets',
      {},
      { token },
    );
    expect(byDefault.data).toMatchObject({ accountId: mainId, cash: '0' });
    await expectLedgerOk(t, financeA);
  });

  test('an operator adjustment at or below the review threshold is applied and shows in assets and records', async () => {
    expect((await adjust(mainId, '100')).data.status).toBe('applied');
    expect((await assets(mainId)).cash).toBe('100');
    const page = await records(mainId);
    expect(page.data.items[0]).toMatchObject({
      kind: 'data_adjustment',
      asset: 'USDT',
      book: 'cash',
      amount: '100',
      balanceAfter: '100',
    });
    await expectLedgerOk(t, financeA);
  });

  test('an adjustment above COFFER_ADJUST_REVIEW_ABOVE waits for a second finance operator, never the same one', async () => {
    /** A finance operator's approval or rejection of the adjustment `id`. */
    const review = (decision: 'approve' | 'reject', id: string, token: string) =>
      t.call('plain', `/api/admin/ledger/${decision}`, { id }, { token, key: newKey() });
    const pending = await adjust(mainId, '20000');
    expect(pending.data.status).toBe('pending_review');
    expect((await assets(mainId)).cash).toBe('100');
    const self = await review('approve', pending.data.id, financeA);
    expect(self.code).toBe(BodyCode.forbidden);
    const approved = await review('approve', pending.data.id, financeB);
    expect(approved.data).toMatchObject({ status: 'applied' });
    expect((await assets(mainId)).cash).toBe('20100');
    const twice = await review('reject', pending.data.id, financeB);
    expect(twice.code).toBe(BodyCode.conflict);
    const rejected = await adjust(mainId, '-20000');
    expect(rejected.data.status).toBe('pending_review');
    await review('reject', rejected.data.id, financeB);
    expect((await assets(mainId)).cash).toBe('20100');
    expect((await adjust(mainId, '-20000', financeA)).data.status).toBe('pending_review');
    await expectLedgerOk(t, financeA);
  });

  test('a negative adjustment larger than the available cash is refused with 470 and moves nothing', async () => {
    const poor = (await t.register('plain', 'poor@coffer.test')).token;
    const account =
      (await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token: poor })).data.items[0]
        ?.id ?? '';
    await adjust(account, '5');
    const refused = await adjust(account, '-5.01');
    expect(refused).toMatchObject({
      code: BodyCode.insufficientBalance,
      message: 'Insufficient available balance',
    });
    expect((await assets(account, poor)).cash).toBe('5');
    expect((await adjust(account, '-5')).data.status).toBe('applied');
    expect((await assets(account, poor)).cash).toBe('0');
    await expectLedgerOk(t, financeA);
  });

  test('sub-accounts: a name of 1 to 20 characters, at most 10, listed after the main account', async () => {
    expect((await createSub('')).code).toBe(BodyCode.invalidInput);
    expect((await createSub('x'.repeat(21))).code).toBe(BodyCode.invalidInput);
    for (let index = 1; index <= SUB_ACCOUNTS_MAX; index += 1) {
      expect((await createSub(`Savings ${index}`)).code).toBe(BodyCode.ok);
    }
    expect((await createSub('One too many')).code).toBe(BodyCode.conflict);
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    expect(list.data.items.map((account) => account.kind)).toEqual([
      'main',
      ...Array(SUB_ACCOUNTS_MAX).fill('sub'),
    ]);
  });

  test('account/switch sets the default only', async () => {
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    const sub = list.data.items[1]?.id ?? '';
    const before = await assets(mainId);
    const switched = await t.call<Account>(
      'plain',
      '/api/v1/account/switch',
      { accountId: sub },
      { token, key: newKey() },
    );
    expect(switched.data).toMatchObject({ id: sub, isDefault: true });
    const after = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    expect(after.data.items.filter((account) => account.isDefault).map((account) => account.id)).toEqual([
      sub,
    ]);
    expect(await assets(mainId)).toMatchObject({ cash: before.cash });
    await t.call('plain', '/api/v1/account/switch', { accountId: mainId }, { token, key: newKey() });
  });

  test('a transfer between own accounts moves available money once per Idempotency-Key and shows on both sides', async () => {
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    const sub = list.data.items[1]?.id ?? '';
    const key = newKey();
    const params = { fromAccountId: mainId, toAccountId: sub, asset: 'USDT', amount: '10.5' };
    const first = await transfer(params, key);
    const again = await transfer(params, key);
    expect(first.code).toBe(BodyCode.ok);
    expect(again).toEqual(first);
    expect((await assets(mainId)).cash).toBe('20089.5');
    expect((await assets(sub)).cash).toBe('10.5');
    expect((await records(mainId)).data.items[0]).toMatchObject({
      kind: 'account_transfer',
      amount: '-10.5',
      balanceAfter: '20089.5',
    });
    expect((await records(sub)).data.items[0]).toMatchObject({
      kind: 'account_transfer',
      amount: '10.5',
      balanceAfter: '10.5',
    });
    const conflict = await transfer({ ...params, amount: '11' }, key);
    expect(conflict.code).toBe(BodyCode.conflict);
    await expectLedgerOk(t, financeA);
  });

  test('more than the available amount is refused with 470 and moves nothing', async () => {
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    const sub = list.data.items[1]?.id ?? '';
    const refused = await transfer({
      fromAccountId: sub,
      toAccountId: mainId,
      asset: 'USDT',
      amount: '10.51',
    });
    expect(refused.code).toBe(BodyCode.insufficientBalance);
    expect(refused.message).toBe('Insufficient available balance');
    const rab = await transfer({ fromAccountId: sub, toAccountId: mainId, asset: 'RAB', amount: '1' });
    expect(rab.code).toBe(BodyCode.insufficientBalance);
    expect((await assets(sub)).cash).toBe('10.5');
    await expectLedgerOk(t, financeA);
  });

  test.each([
    ['3 decimals', '1.005'],
    ['negative', '-1'],
    ['zero', '0'],
    ['empty', ''],
    ['not a number', 'ten'],
    ['exponent', '1e3'],
    ['too large', '9'.repeat(30)],
  ])('a hostile amount (%s) is refused with 400 naming the field', async (_name, amount) => {
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    const sub = list.data.items[1]?.id ?? '';
    const refused = await transfer({ fromAccountId: mainId, toAccountId: sub, asset: 'USDT', amount });
    expect(refused).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'amount' } });
  });

  test("another user's account is 403, as the source, the target, for assets and for records", async () => {
    const other = (await t.register('plain', 'other@coffer.test')).token;
    const otherMain =
      (await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token: other })).data
        .items[0]?.id ?? '';
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    const sub = list.data.items[1]?.id ?? '';
    expect(
      (await transfer({ fromAccountId: otherMain, toAccountId: mainId, asset: 'USDT', amount: '1' })).code,
    ).toBe(BodyCode.forbidden);
    expect(
      (await transfer({ fromAccountId: mainId, toAccountId: otherMain, asset: 'USDT', amount: '1' })).code,
    ).toBe(BodyCode.forbidden);
    expect(
      (await transfer({ fromAccountId: mainId, toAccountId: mainId, asset: 'USDT', amount: '1' })).code,
    ).toBe(BodyCode.invalidInput);
    expect((await t.call('plain', '/api/v1/user/assets', { accountId: mainId }, { token: other })).code).toBe(
      BodyCode.forbidden,
    );
    expect((await t.call('plain', '/api/v1/wallet/records', { accountId: sub }, { token: other })).code).toBe(
      BodyCode.forbidden,
    );
    expect(
      (
        await t.call(
          'plain',
          '/api/v1/account/switch',
          { accountId: mainId },
          { token: other, key: newKey() },
        )
      ).code,
    ).toBe(BodyCode.forbidden);
  });

  test('transfers racing between two accounts, with and without repeated keys, leave both sides adding up', async () => {
    const list = await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token });
    const sub = list.data.items[2]?.id ?? '';
    const before = Number((await assets(mainId)).cash);
    const repeated = newKey();
    const answers: Answer[] = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        transfer({ fromAccountId: mainId, toAccountId: sub, asset: 'USDT', amount: '1' }),
      ),
      ...Array.from({ length: 4 }, () =>
        transfer({ fromAccountId: mainId, toAccountId: sub, asset: 'USDT', amount: '2' }, repeated),
      ),
      ...Array.from({ length: 3 }, () =>
        transfer({ fromAccountId: sub, toAccountId: mainId, asset: 'USDT', amount: '0.5' }),
      ),
    ]);
    expect(
      answers.every((answer) => answer.code === BodyCode.ok || answer.code === BodyCode.insufficientBalance),
    ).toBe(true);
    const subCash = Number((await assets(sub)).cash);
    const mainCash = Number((await assets(mainId)).cash);
    expect(mainCash + subCash).toBeCloseTo(before, 6);
    const subRecords = (await records(sub, { limit: 100 })).data.items;
    const sum = subRecords.reduce((total, record) => total + Number(record.amount), 0);
    expect(sum).toBeCloseTo(subCash, 6);
    expect(subRecords[0]?.balanceAfter).toBe((await assets(sub)).cash);
    await expectLedgerOk(t, financeA);
  });

  test('wallet records filter by kind and page by cursor without losing or repeating a line', async () => {
    const all: WalletRecord[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: Answer<{ items: WalletRecord[]; nextCursor: string | null }> = await records(mainId, {
        limit: 3,
        ...(cursor ? { cursor } : {}),
      });
      all.push(...page.data.items);
      cursor = page.data.nextCursor;
    }
    const once = (await records(mainId, { limit: 100 })).data.items;
    expect(all.map((record) => record.id)).toEqual(once.map((record) => record.id));
    const adjustments = (await records(mainId, { kind: 'data_adjustment', limit: 100 })).data.items;
    expect(adjustments.length).toBeGreaterThan(0);
    expect(adjustments.every((record) => record.kind === 'data_adjustment')).toBe(true);
    expect((await records(mainId, { kind: 'nonsense' })).code).toBe(BodyCode.invalidInput);
  });

  test('the RAB price values RAB in totalUsdt; 0 until set', async () => {
    expect((await assets(mainId)).rabPriceUsdt).toBe('0');
    await adjust(mainId, '10', financeA, 'RAB');
    const unpriced = await assets(mainId);
    expect(unpriced.rab).toBe('10');
    expect(unpriced.totalUsdt).toBe(unpriced.cash);
    await t.server.services.ledgerAdmin.updateSettings(cliContext(), { rabPriceUsdt: '0.333333' });
    const priced = await assets(mainId);
    expect(priced.rabPriceUsdt).toBe('0.333333');
    expect(Number(priced.totalUsdt)).toBeCloseTo(Number(priced.cash) + 3.33333, 6);
  });

  test("operators see the RAB price's versions, newest first, and the fees and limits the server runs with", async () => {
    await t.server.services.ledgerAdmin.updateSettings(cliContext(), { rabPriceUsdt: '0.4' });
    await t.server.services.ledgerAdmin.updateSettings(cliContext(), { rabPriceUsdt: '0.333333' });
    const overview = await t.call<{
      rabPriceVersions: Array<{ version: string; rabPriceUsdt: string }>;
      limits: Record<string, string>;
    }>('plain', '/api/admin/settings/limits', {}, { token: financeA });
    expect(overview.code, overview.message).toBe(200);
    const [newest, before] = overview.data.rabPriceVersions;
    expect([newest?.rabPriceUsdt, before?.rabPriceUsdt]).toEqual(['0.333333', '0.4']);
    expect(Number(newest?.version)).toBeGreaterThan(Number(before?.version));
    expect(overview.data.limits).toMatchObject({
      withdrawFee: '1',
      withdrawMinimum: '10',
      withdrawDailyLimit: '50000',
      unverifiedWithdrawDaily: '1000',
      newMethodCooldownHours: '24',
    });
  });

  test('a newcomer incentive, when set, is paid once to each new user at registration', async () => {
    await t.call(
      'plain',
      '/api/admin/settings/update',
      { newcomerIncentive: '5' },
      { token: financeA, key: newKey() },
    );
    const newcomer = (await t.register('plain', 'new@coffer.test')).token;
    const account =
      (await t.call<{ items: Account[] }>('plain', '/api/v1/account/list', {}, { token: newcomer })).data
        .items[0]?.id ?? '';
    expect((await assets(account, newcomer)).cash).toBe('5');
    const lines = await t.call<{ items: WalletRecord[] }>(
      'plain',
      '/api/v1/wallet/records',
      { accountId: account },
      { token: newcomer },
    );
    expect(lines.data.items.map((record) => record.kind)).toEqual(['newcomer_incentive']);
    await expectLedgerOk(t, financeA);
  });

  test('sync/pull brings the account-scoped balances and records of the named account, the accounts and the price', async () => {
    const pulled = await t.call<{ changes: Record<string, { upserts: Array<Record<string, unknown>> }> }>(
      'plain',
      '/api/v1/sync/pull',
      { cursors: {}, accountId: mainId },
      { token },
    );
    const { accounts, balances, records: lines, prices } = pulled.data.changes;
    expect(accounts?.upserts.length).toBe(SUB_ACCOUNTS_MAX + 1);
    const current = await assets(mainId);
    expect(balances?.upserts).toEqual([
      expect.objectContaining({
        id: mainId,
        cash: current.cash,
        hosting: current.hosting,
        held: current.held,
        rab: current.rab,
      }),
    ]);
    const listed = (await records(mainId, { limit: 100 })).data.items;
    expect(new Set(lines?.upserts.map((line) => line['id']))).toEqual(new Set(listed.map((line) => line.id)));
    expect(prices?.upserts).toEqual([expect.objectContaining({ id: 'RAB', usdt: '0.333333' })]);
    const other = (await t.register('plain', 'peeker@coffer.test')).token;
    const refused = await t.call(
      'plain',
      '/api/v1/sync/pull',
      { cursors: {}, accountId: mainId },
      { token: other },
    );
    expect(refused.code).toBe(BodyCode.forbidden);
  });

  test('the ledger check job runs, records its result, and customers cannot call the check', async () => {
    const run = await t.server.scheduler.runNow(JobName.ledgerCheck);
    expect(run).toMatchObject({ status: 'done', detail: { ok: true } });
    expect((await t.call('plain', '/api/admin/ledger/check', {}, { token })).code).toBe(BodyCode.notLoggedIn);
  });
});
