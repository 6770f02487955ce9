/**
 * Hosting, interest and income through the API, on PGlite and PostgreSQL: the seeded
 * products, orders (create, add, sub, redeem) and their operator-log, the daily accrual job (a
 * whole term paid to the closed form, a change mid-day prorated by the minutes hosted, a re-run
 * paying nothing more, missed days caught up in order, interest paid at maturity), the early-exit
 * rule and its penalty, hostile amounts and ids, another user's order, exactly-once, races of
 * redeems and decreases, income records and airdrops, records readable by pull, and `ledger
 * check` after every step that moves money.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  hostingChangeRecordSchema,
  hostingOrderRecordSchema,
  type HostingCommandData,
  type HostingConfigData,
  type HostingOrderRecord,
} from '../../contract/api/hosting.js';
import { incomeRecordSchema } from '../../contract/api/income.js';
import { BodyCode } from '../../contract/codes.js';
import { moneyText, parseMoney } from '../../contract/money.js';
import { availableTiers } from '../helpers/database.js';
import { DAY_MS, ok, productFixtures, ZONE_OFFSET_MS, type ProductUser } from '../helpers/product.js';
import { newKey, useTestServer } from '../helpers/server.js';
import { TRADE_PASSWORD } from '../helpers/withdraw.js';
import { SEEDED_7_DAY_HOSTING } from '../helpers/seeded-catalogue.js';

const tiers = await availableTiers('hosting-api');

const usdt = (text: string) => parseMoney(text);

type User = ProductUser;

describe.each(tiers)('hosting on %s', (tier) => {
  const t = useTestServer(tier);
  const auditor = `hosting-audit-${tier}@coffer.test`;
  const {
    f,
    finance,
    user: hostingUser,
    assets,
    income,
    call,
    localDate,
    toLocal,
    expectCaughtUp,
  } = productFixtures<HostingCommandData>(() => t, `hosting-${tier}`);

  beforeAll(async () => {
    await f.addOperator(auditor, 'superadmin');
  });

  /** The audit log's newest entries (read as a superadmin). */
  const auditEntries = async () =>
    ok(
      await f.asFinance<{ items: Array<{ action: string; target: string }> }>(
        auditor,
        '/api/admin/audit/list',
        { limit: '100' },
      ),
    ).items;

  // ---- helpers ----

  const create = (user: User, productId: string, amount: string, extra: Record<string, unknown> = {}) =>
    call(user, '/api/v1/hosting/create', {
      accountId: user.accountId,
      productId,
      amount,
      tradePassword: TRADE_PASSWORD,
      ...extra,
    });

  const orderOf = async (user: User, orderId: string): Promise<HostingOrderRecord> => {
    const list = await t.call<{ items: HostingOrderRecord[] }>(
      'plain',
      '/api/v1/hosting/order',
      { accountId: user.accountId, limit: '100' },
      { token: user.token },
    );
    const order = list.data.items.find((item) => item.id === orderId);
    if (!order) throw new Error(`order ${orderId} not listed`);
    return order;
  };

  /** The scheduler's run of the accrual job for the period of now. */
  const runJob = () => t.server.scheduler.runNow('hosting-accrual');
  /** The job's work itself at the clock's now, outside the scheduler's once-per-period gate. */
  const accrueNow = () =>
    t.server.database.db.transaction((tx) => t.server.services.hostingAccrual.run(tx, t.clock.now()));

  // ---- products ----

  test('hosting-config lists the seeded products in the request’s language with the valid-hosting threshold "500"', async () => {
    const user = await hostingUser();
    const en = await t.call<HostingConfigData>(
      'plain',
      '/api/v1/hosting/hosting-config',
      {},
      { token: user.token, lang: 'EN' },
    );
    expect(en.code).toBe(200);
    expect(en.data.validHostingThreshold).toBe('500');
    expect(en.data.timeZone).toBe('Asia/Shanghai');
    expect(en.data.products.slice(0, 3)).toEqual([
      {
        id: '1',
        name: '7-day hosting',
        ...SEEDED_7_DAY_HOSTING,
      },
      {
        id: '2',
        name: '30-day hosting',
        days: 30,
        dailyRate: '0.0035',
        minimum: '100',
        maximum: '100000',
        payout: 'daily',
        earlyExit: true,
        penaltyRate: '0.03',
      },
      {
        id: '3',
        name: '90-day hosting',
        days: 90,
        dailyRate: '0.0045',
        minimum: '100',
        maximum: '100000',
        payout: 'daily',
        earlyExit: false,
        penaltyRate: '0',
      },
    ]);
    const cn = await t.call<HostingConfigData>(
      'plain',
      '/api/v1/hosting/hosting-config',
      {},
      { token: user.token },
    );
    expect(cn.data.products[0]?.name).toBe('7天托管');
    const anonymous = await t.call('plain', '/api/v1/hosting/hosting-config', {});
    expect(anonymous.code).toBe(BodyCode.notLoggedIn);
  });

  // ---- a whole term ----

  test('a 7-day order at 0.003 pays floor(principal × rate) each interest day into cash, then the principal back at maturity: the closed form to the minor unit', async () => {
    toLocal('10:00');
    const user = await hostingUser('2000');
    const created = ok(await create(user, '1', '1234.56'));
    const start = t.clock.now();
    const interestFrom = new Date(
      Math.floor((start.getTime() + ZONE_OFFSET_MS) / DAY_MS + 1) * DAY_MS - ZONE_OFFSET_MS,
    );
    expect(created.order).toMatchObject({
      accountId: user.accountId,
      productId: '1',
      amount: '1234.56',
      days: 7,
      dailyRate: '0.003',
      status: 'in_progress',
      closeReason: null,
      startAt: start.toISOString(),
      interestFrom: interestFrom.toISOString(),
      endAt: new Date(interestFrom.getTime() + 7 * DAY_MS).toISOString(),
      accruedInterest: '0',
      paidInterest: '0',
      dailyInterest: '3.70368',
    });
    expect(created.change).toMatchObject({
      kind: 'create',
      amount: '1234.56',
      penalty: '0',
      principalAfter: '1234.56',
    });
    expect(await assets(user)).toMatchObject({ cash: '765.44', hosting: '1234.56' });
    await f.expectLedgerOk(finance());

    const daily = (usdt('1234.56') * 3n) / 1000n; // floor(P × 0.003) in minor units
    for (let day = 1; day <= 8; day += 1) {
      toLocal('00:05');
      const run = await runJob();
      expect(run.status).toBe('done');
      const lines = (await income(user)).items;
      expect(lines).toHaveLength(day - 1);
    }
    const lines = (await income(user)).items;
    expect(lines.map((line) => line.amount)).toEqual(Array(7).fill(moneyText(daily)));
    expect(lines.every((line) => line.type === 'static' && line.status === 'arrived')).toBe(true);
    expect(new Set(lines.map((line) => line.earningsDate)).size).toBe(7);
    const total = daily * 7n;
    expect(await assets(user)).toMatchObject({ cash: moneyText(usdt('2000') + total), hosting: '0' });
    const order = await orderOf(user, created.order.id);
    expect(order).toMatchObject({
      status: 'expired',
      closeReason: 'matured',
      amount: '0',
      accruedInterest: moneyText(total),
      paidInterest: moneyText(total),
    });
    const log = await t.call<{ items: Array<{ kind: string; amount: string }> }>(
      'plain',
      '/api/v1/hosting/operator-log',
      { orderId: created.order.id },
      { token: user.token },
    );
    expect(log.data.items.map((item) => [item.kind, item.amount])).toEqual([
      ['maturity', '-1234.56'],
      ['create', '1234.56'],
    ]);
    await f.expectLedgerOk(finance());

    // A re-run pays nothing more: the scheduler's period is done, and the job's work itself finds nothing due.
    expect((await runJob()).status).toBe('already_done');
    expect(await accrueNow()).toMatchObject({ days: 0, matured: 0, paid: '0' });
    expect((await income(user)).items).toHaveLength(7);
    expect(await assets(user)).toMatchObject({ cash: moneyText(usdt('2000') + total) });
  });

  test('days missed while the job did not run are caught up by the next run, each day once, oldest first', async () => {
    toLocal('09:30');
    const user = await hostingUser('600');
    const created = ok(await create(user, '2', '500'));
    const first = localDate(1);
    for (let day = 0; day < 4; day += 1) toLocal('00:05'); // three interest days pass with no run
    const run = await runJob();
    expect(run.status).toBe('done');
    const lines = (await income(user)).items;
    expectCaughtUp(lines, first, '1.75');
    expect((await orderOf(user, created.order.id)).accruedInterest).toBe('5.25');
    expect(await accrueNow()).toMatchObject({ days: 0 });
    await f.expectLedgerOk(finance());
  });

  // ---- proration ----

  test('a change mid-day is prorated by the minutes each principal was hosted: floor(Σ principal × minutes × rate / 1440)', async () => {
    toLocal('10:00');
    const user = await hostingUser('2000');
    const created = ok(await create(user, '1', '1000'));
    const orderId = created.order.id;
    const day1 = localDate(1);
    toLocal('09:00');
    toLocal('16:00'); // interest day 1: 1000 for 960 minutes, then 1500 for 480
    const added = ok(await call(user, '/api/v1/hosting/add', { orderId, amount: '500' }));
    expect(added.change).toMatchObject({ kind: 'add', amount: '500', principalAfter: '1500' });
    expect(added.order.amount).toBe('1500');
    toLocal('08:00'); // day 2: 1500 for 480 minutes, then 1200 for 960; 300 out early at 1 % penalty
    const subbed = ok(await call(user, '/api/v1/hosting/sub', { orderId, amount: '300' }));
    expect(subbed.change).toMatchObject({
      kind: 'sub',
      amount: '-300',
      penalty: '3',
      principalAfter: '1200',
    });
    expect(await assets(user)).toMatchObject({ cash: '797', hosting: '1200' });
    toLocal('00:05');
    await runJob();
    const lines = (await income(user)).items;
    // (1000 × 960 + 1500 × 480) × 0.003 / 1440 = 3.5; (1500 × 480 + 1200 × 960) × 0.003 / 1440 = 3.9
    expect(lines.map((line) => [line.earningsDate, line.amount])).toEqual([
      [localDate(-1), '3.9'],
      [day1, '3.5'],
    ]);
    expect(await assets(user)).toMatchObject({ cash: '804.4', hosting: '1200' });
    await f.expectLedgerOk(finance());

    toLocal('12:00'); // redeemed early at noon: 1 % of 1200 kept, and the half day still earns
    const redeemed = ok(await call(user, '/api/v1/hosting/redeem', { orderId }));
    expect(redeemed.change).toMatchObject({
      kind: 'redeem',
      amount: '-1200',
      penalty: '12',
      principalAfter: '0',
    });
    expect(redeemed.order).toMatchObject({
      status: 'expired',
      closeReason: 'redeemed',
      amount: '0',
      penalty: '15',
    });
    expect(await assets(user)).toMatchObject({ cash: '1992.4', hosting: '0' });
    toLocal('00:05');
    await runJob();
    expect((await income(user)).items[0]).toMatchObject({ earningsDate: localDate(-1), amount: '1.8' });
    expect(await assets(user)).toMatchObject({ cash: '1994.2' });
    expect(await orderOf(user, orderId)).toMatchObject({ accruedInterest: '9.2', paidInterest: '9.2' });
    await f.expectLedgerOk(finance());
  });

  // ---- the early-exit rule ----

  test('a decrease leaving less than the product’s minimum redeems the whole order, with the penalty on all of it', async () => {
    toLocal('10:00');
    const user = await hostingUser('150');
    const created = ok(await create(user, '1', '150'));
    const answer = ok(await call(user, '/api/v1/hosting/sub', { orderId: created.order.id, amount: '60' }));
    expect(answer.change).toMatchObject({
      kind: 'redeem',
      amount: '-150',
      penalty: '1.5',
      principalAfter: '0',
    });
    expect(answer.order).toMatchObject({ status: 'expired', closeReason: 'redeemed' });
    expect(await assets(user)).toMatchObject({ cash: '148.5', hosting: '0' });
    const again = await call(user, '/api/v1/hosting/redeem', { orderId: created.order.id });
    expect(again.code).toBe(BodyCode.conflict);
    expect(again.message).toBe('This hosting order has already ended');
    await f.expectLedgerOk(finance());
  });

  test('a product without early exit refuses decreases and redeems before maturity with 409, and takes increases up to its maximum', async () => {
    toLocal('10:00');
    const user = await hostingUser('300');
    const created = ok(await create(user, '3', '100'));
    const orderId = created.order.id;
    const sub = await call(user, '/api/v1/hosting/sub', { orderId, amount: '10' });
    expect(sub).toMatchObject({
      code: 409,
      message: 'This product cannot be decreased or redeemed before maturity',
    });
    const redeem = await call(user, '/api/v1/hosting/redeem', { orderId });
    expect(redeem.code).toBe(409);
    expect(ok(await call(user, '/api/v1/hosting/add', { orderId, amount: '50.5' })).order.amount).toBe(
      '150.5',
    );
    const short = await call(user, '/api/v1/hosting/add', { orderId, amount: '150' });
    expect(short.code).toBe(BodyCode.insufficientBalance);
    const tooMuch = await call(user, '/api/v1/hosting/sub', { orderId, amount: '1' });
    expect(tooMuch.code).toBe(409);
    expect(await assets(user)).toMatchObject({ cash: '149.5', hosting: '150.5' });
    await f.expectLedgerOk(finance());
  });

  // ---- interest paid at maturity ----

  test('an at_maturity product accrues pending income lines and pays them, with the principal, at maturity', async () => {
    const added = ok(
      await f.asFinance<{ id: string; status: string }>(finance(), '/api/admin/hosting/product/add', {
        name: { en: 'Two days, paid at the end', 'zh-Hans': '两天到期付息' },
        days: '2',
        dailyRate: '0.0100',
        minimum: '10',
        maximum: '1000',
        payout: 'at_maturity',
        earlyExit: 'false',
      }),
    );
    expect(added).toMatchObject({
      status: 'active',
      dailyRate: '0.01',
      penaltyRate: '0',
      payout: 'at_maturity',
    });
    toLocal('10:00');
    const user = await hostingUser('100');
    const created = ok(await create(user, added.id, '100'));
    toLocal('00:05');
    await runJob();
    toLocal('00:05');
    await runJob();
    const pending = (await income(user)).items;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ amount: '1', status: 'pending_arrival', arrivedAt: null });
    expect(pending[0]?.arrivalDate).toBe(localDate(1));
    expect(await assets(user)).toMatchObject({ cash: '0', hosting: '100' });
    toLocal('00:05');
    await runJob();
    const arrived = (await income(user)).items;
    expect(arrived.map((line) => [line.status, line.amount, line.arrivalDate])).toEqual([
      ['arrived', '1', localDate()],
      ['arrived', '1', localDate()],
    ]);
    expect(await assets(user)).toMatchObject({ cash: '102', hosting: '0' });
    expect(await orderOf(user, created.order.id)).toMatchObject({
      status: 'expired',
      closeReason: 'matured',
      accruedInterest: '2',
      paidInterest: '2',
    });
    await f.expectLedgerOk(finance());
  });

  // ---- refusals ----

  test('create refuses amounts outside the product’s bounds, hostile amounts, unknown products, a wrong trade password and short cash, writing nothing', async () => {
    toLocal('10:00');
    const user = await hostingUser('150');
    const before = await assets(user);
    const range = await create(user, '1', '99.99');
    expect(range).toMatchObject({
      code: 400,
      message: 'Enter an amount from 100 to 100000 USDT',
      data: { field: 'amount' },
    });
    expect((await create(user, '1', '100000.01')).code).toBe(400);
    for (const amount of [
      '-100',
      '0',
      '100.001',
      '1e3',
      '0x64',
      'abc',
      '',
      '１００',
      '100.5.5',
      '9'.repeat(40),
      100,
      ['100'],
      { a: 1 },
      null,
    ]) {
      const answer = await create(user, '1', amount as never); // hostile input is the point
      expect([answer.code, answer.data], String(amount)).toEqual([400, { field: 'amount' }]);
    }
    for (const productId of ['999', 'abc', '0', '9'.repeat(30)]) {
      const answer = await create(user, productId, '100');
      expect([answer.code, answer.data], productId).toEqual([404, { field: 'productId' }]);
    }
    const wrong = await create(user, '1', '100', { tradePassword: 'wrong-password' });
    expect(wrong).toMatchObject({ code: 400, data: { field: 'tradePassword' } });
    const short = await create(user, '1', '150.01');
    expect(short.code).toBe(BodyCode.insufficientBalance);
    expect(await assets(user)).toEqual(before);
    expect(
      (await t.call<{ items: unknown[] }>('plain', '/api/v1/hosting/order', {}, { token: user.token })).data
        .items,
    ).toEqual([]);

    const { token } = await t.register('plain', `no-trade-${tier}@example.com`);
    const accounts = await t.call<{ items: Array<{ id: string }> }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token },
    );
    const noTrade = await t.call(
      'plain',
      '/api/v1/hosting/create',
      {
        accountId: accounts.data.items[0]?.id,
        productId: '1',
        amount: '100',
        tradePassword: TRADE_PASSWORD,
      },
      { token, key: newKey() },
    );
    expect(noTrade.code).toBe(BodyCode.tradePasswordNotSet);
  });

  test('hostile amounts on add and sub are refused with 400 naming amount, and nothing moves', async () => {
    toLocal('10:00');
    const user = await hostingUser('500');
    const { order } = ok(await create(user, '1', '200'));
    for (const uri of ['/api/v1/hosting/add', '/api/v1/hosting/sub']) {
      for (const amount of ['-1', '0', '0.001', '1e2', 'NaN', 'Infinity', '', ' ', '1,5', 12, true]) {
        const answer = await call(user, uri, { orderId: order.id, amount });
        expect([answer.code, answer.data], `${uri} ${String(amount)}`).toEqual([400, { field: 'amount' }]);
      }
    }
    const decimals = await call(user, '/api/v1/hosting/add', { orderId: order.id, amount: '1.001' });
    expect(decimals.message).toBe('Enter an amount above 0 with at most 2 decimals');
    const sub = await call(user, '/api/v1/hosting/sub', { orderId: order.id, amount: '200.01' });
    expect(sub).toMatchObject({
      code: 400,
      message: 'You can take out at most 200 USDT',
      data: { field: 'amount' },
    });
    const add = await call(user, '/api/v1/hosting/add', { orderId: order.id, amount: '99900' });
    expect(add).toMatchObject({ code: 400, data: { field: 'amount' } });
    expect(await assets(user)).toMatchObject({ cash: '300', hosting: '200' });
    expect(await orderOf(user, order.id)).toMatchObject({ amount: '200' });
    await f.expectLedgerOk(finance());
  });

  test('another user’s order id (or one that does not exist) is 403 naming orderId on every order call; another user’s account is 403', async () => {
    toLocal('10:00');
    const owner = await hostingUser('300');
    const other = await hostingUser('300');
    const { order } = ok(await create(owner, '1', '100'));
    for (const orderId of [order.id, '99999999', 'abc']) {
      for (const [uri, params] of [
        ['/api/v1/hosting/add', { orderId, amount: '10' }],
        ['/api/v1/hosting/sub', { orderId, amount: '10' }],
        ['/api/v1/hosting/redeem', { orderId }],
        ['/api/v1/hosting/operator-log', { orderId }],
      ] as const) {
        const answer = await call(other, uri, params);
        expect([answer.code, answer.data], `${uri} ${orderId}`).toEqual([403, { field: 'orderId' }]);
      }
    }
    const foreignAccount = await create(other, '1', '100', { accountId: owner.accountId });
    expect([foreignAccount.code, foreignAccount.data]).toEqual([403, { field: 'accountId' }]);
    for (const uri of ['/api/v1/hosting/order', '/api/v1/income/log', '/api/v1/hosting/operator-log']) {
      const answer = await t.call('plain', uri, { accountId: owner.accountId }, { token: other.token });
      expect([answer.code, answer.data], uri).toEqual([403, { field: 'accountId' }]);
    }
    expect(await assets(owner)).toMatchObject({ cash: '200', hosting: '100' });
    expect(await assets(other)).toMatchObject({ cash: '300', hosting: '0' });
  });

  test('a command repeated with its Idempotency-Key creates one order and answers the same bytes', async () => {
    toLocal('10:00');
    const user = await hostingUser('500');
    const key = newKey();
    const first = await create(user, '1', '100', {});
    expect(first.code).toBe(200);
    const params = {
      accountId: user.accountId,
      productId: '1',
      amount: '200',
      tradePassword: TRADE_PASSWORD,
    };
    const a = await call(user, '/api/v1/hosting/create', params, key);
    const b = await call(user, '/api/v1/hosting/create', params, key);
    expect(b).toEqual(a);
    const changed = await call(user, '/api/v1/hosting/create', { ...params, amount: '201' }, key);
    expect(changed.code).toBe(409);
    expect(await assets(user)).toMatchObject({ cash: '200', hosting: '300' });
  });

  // ---- races ----

  test('two redeems racing: one wins, the other is 409, and the principal comes back once', async () => {
    toLocal('10:00');
    for (let round = 0; round < 3; round += 1) {
      const user = await hostingUser('1000');
      const { order } = ok(await create(user, '1', '1000'));
      const answers = await Promise.all([
        call(user, '/api/v1/hosting/redeem', { orderId: order.id }),
        call(user, '/api/v1/hosting/redeem', { orderId: order.id }),
      ]);
      expect(answers.map((answer) => answer.code).sort()).toEqual([200, 409]);
      expect(await assets(user)).toMatchObject({ cash: '990', hosting: '0' });
    }
    await f.expectLedgerOk(finance());
  });

  test('a decrease racing a redeem: each is decided in turn, the money comes back once, never a negative balance', async () => {
    toLocal('10:00');
    for (let round = 0; round < 3; round += 1) {
      // A decrease that leaves less than the minimum is a whole redeem: exactly one wins.
      const user = await hostingUser('1000');
      const { order } = ok(await create(user, '1', '1000'));
      const whole = await Promise.all([
        call(user, '/api/v1/hosting/sub', { orderId: order.id, amount: '950' }),
        call(user, '/api/v1/hosting/redeem', { orderId: order.id }),
      ]);
      expect(whole.map((answer) => answer.code).sort()).toEqual([200, 409]);
      expect(await assets(user)).toMatchObject({ cash: '990', hosting: '0' });

      // A partial decrease: either it goes first and the redeem returns the rest, or it finds the order ended.
      const second = await hostingUser('1000');
      const { order: other } = ok(await create(second, '1', '1000'));
      const [sub, redeem] = await Promise.all([
        call(second, '/api/v1/hosting/sub', { orderId: other.id, amount: '400' }),
        call(second, '/api/v1/hosting/redeem', { orderId: other.id }),
      ]);
      expect(redeem.code).toBe(200);
      expect([200, 409]).toContain(sub.code);
      // 1 % of whatever left the order early, 400 + 600 or 1000: 10 either way.
      expect(await assets(second)).toMatchObject({ cash: '990', hosting: '0' });
    }
    await f.expectLedgerOk(finance());
  });

  // ---- income ----

  test('income/type-list names the six types in the request’s language; income/log filters by type and pages', async () => {
    const user = await hostingUser('0');
    const en = await t.call<{ items: Array<{ type: string; name: string }> }>(
      'plain',
      '/api/v1/income/type-list',
      {},
      { token: user.token, lang: 'EN' },
    );
    expect(en.data.items).toEqual([
      { type: 'static', name: 'Static income' },
      { type: 'promotion', name: 'Promotion income' },
      { type: 'management', name: 'Management income' },
      { type: 'airdrop', name: 'Airdrop' },
      { type: 'dividend', name: 'Dividend' },
      { type: 'mining_machine', name: 'Mining machine income' },
    ]);
    const cn = await t.call<{ items: Array<{ name: string }> }>(
      'plain',
      '/api/v1/income/type-list',
      {},
      { token: user.token },
    );
    expect(cn.data.items[0]?.name).toBe('静态收益');

    const airdrop = await f.asFinance<{ id: string; total: string }>(finance(), '/api/admin/income/airdrop', {
      accountIds: `${user.accountId}`,
      amount: '2.5',
      reason: 'welcome',
    });
    expect(airdrop.code, airdrop.message).toBe(200);
    await f.asFinance(finance(), '/api/admin/income/airdrop', {
      accountIds: [user.accountId],
      amount: '1',
      reason: 'again',
    });
    await f.asFinance(finance(), '/api/admin/income/airdrop', {
      accountIds: [user.accountId],
      amount: '0.5',
      reason: 'third',
    });
    const page1 = await income(user, { limit: '2' });
    expect(page1.items.map((line) => [line.type, line.amount, line.memo])).toEqual([
      ['airdrop', '0.5', 'third'],
      ['airdrop', '1', 'again'],
    ]);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await income(user, { limit: '2', cursor: page1.nextCursor });
    expect(page2).toMatchObject({
      items: [{ amount: '2.5', memo: 'welcome', status: 'arrived' }],
      nextCursor: null,
    });
    expect((await income(user, { type: 'static' })).items).toEqual([]);
    expect((await income(user, { type: 'airdrop' })).items).toHaveLength(3);
    const badType = await t.call('plain', '/api/v1/income/log', { type: 'bonus' }, { token: user.token });
    expect([badType.code, badType.data]).toEqual([400, { field: 'type' }]);
  });

  test('an airdrop pays each chosen account from incentive expense (kind airdrop), is audited, and names unknown accounts', async () => {
    const a = await hostingUser('0');
    const b = await hostingUser('0');
    const answer = await f.asFinance<{ id: string; accountIds: string[]; total: string }>(
      finance(),
      '/api/admin/income/airdrop',
      { accountIds: `${a.accountId},${b.accountId}`, amount: '3.25', reason: 'launch airdrop' },
    );
    expect(answer.code, answer.message).toBe(200);
    expect(answer.data).toMatchObject({
      amount: '3.25',
      total: '6.5',
      accountIds: [a.accountId, b.accountId],
    });
    for (const user of [a, b]) {
      expect(await assets(user)).toMatchObject({ cash: '3.25' });
      const records = await t.call<{
        items: Array<{ kind: string; amount: string; ref: { table: string } }>;
      }>('plain', '/api/v1/wallet/records', { accountId: user.accountId }, { token: user.token });
      expect(records.data.items[0]).toMatchObject({
        kind: 'airdrop',
        amount: '3.25',
        ref: { table: 'airdrops', id: answer.data.id },
      });
    }
    expect(
      (await auditEntries()).some(
        (entry) => entry.action === 'income.airdrop' && entry.target === answer.data.id,
      ),
    ).toBe(true);
    const unknown = await f.asFinance(finance(), '/api/admin/income/airdrop', {
      accountIds: '99999999',
      amount: '1',
      reason: 'x',
    });
    expect(unknown).toMatchObject({ code: 400, data: { field: 'accountIds' } });
    for (const amount of ['0', '-1', '1.0000001', 'abc']) {
      const refused = await f.asFinance(finance(), '/api/admin/income/airdrop', {
        accountIds: a.accountId,
        amount,
        reason: 'x',
      });
      expect([refused.code, refused.data], amount).toEqual([400, { field: 'amount' }]);
    }
    const user = await t.call(
      'plain',
      '/api/admin/income/airdrop',
      { accountIds: a.accountId, amount: '1', reason: 'x' },
      { token: a.token, key: newKey() },
    );
    expect(user.code).toBe(BodyCode.notLoggedIn);
    expect(await assets(a)).toMatchObject({ cash: '3.25' });
    await f.expectLedgerOk(finance());
  });

  // ---- operators' products ----

  test('operators add, update and disable products (finance only); orders keep the terms they were made under', async () => {
    const support = `hosting-support-${tier}@coffer.test`;
    await f.addOperator(support, 'support');
    const refused = await t.call(
      'plain',
      '/api/admin/hosting/product/add',
      {
        name: 'x',
        days: '1',
        dailyRate: '0.001',
        minimum: '1',
        maximum: '2',
        payout: 'daily',
        earlyExit: 'false',
      },
      { token: await f.adminLogin(support), key: newKey(), lang: 'EN' },
    );
    expect(refused.code).toBe(BodyCode.forbidden);

    const bad = await f.asFinance(finance(), '/api/admin/hosting/product/add', {
      name: 'Bad',
      days: '5',
      dailyRate: '0.001',
      minimum: '100',
      maximum: '50',
      payout: 'daily',
      earlyExit: true,
    });
    expect(bad).toMatchObject({ code: 400, data: { field: 'maximum' } });
    for (const [field, value] of [
      ['days', '0'],
      ['days', '3651'],
      ['days', '1.5'],
      ['dailyRate', '0'],
      ['dailyRate', '1'],
      ['dailyRate', '0.1e1'],
      ['penaltyRate', '-0.1'],
      ['payout', 'weekly'],
    ] as const) {
      const answer = await f.asFinance(finance(), '/api/admin/hosting/product/add', {
        name: 'Bad',
        days: '5',
        dailyRate: '0.001',
        minimum: '1',
        maximum: '50',
        payout: 'daily',
        earlyExit: true,
        penaltyRate: '0.1',
        [field]: value,
      });
      expect([answer.code, answer.data], `${field}=${value}`).toEqual([400, { field }]);
    }
    const days = await f.asFinance(finance(), '/api/admin/hosting/product/add', {
      name: 'Bad',
      days: '0',
      dailyRate: '0.001',
      minimum: '1',
      maximum: '50',
      payout: 'daily',
      earlyExit: true,
    });
    expect(days.message).toBe('Days must be a whole number from 1 to 3650');
    const rate = await f.asFinance(finance(), '/api/admin/hosting/product/add', {
      name: 'Bad',
      days: '5',
      dailyRate: '1.5',
      minimum: '1',
      maximum: '50',
      payout: 'daily',
      earlyExit: true,
    });
    expect(rate.message).toBe('Daily rate must be a decimal from 0 to below 1, such as 0.0035');

    const added = ok(
      await f.asFinance<{ id: string; name: string; names: Record<string, string> }>(
        finance(),
        '/api/admin/hosting/product/add',
        {
          name: '14-day test',
          days: '14',
          dailyRate: '0.002',
          minimum: '50',
          maximum: '5000',
          payout: 'daily',
          earlyExit: '1',
          penaltyRate: '0.05',
        },
      ),
    );
    expect(added.names).toMatchObject({ en: '14-day test', 'zh-Hans': '14-day test', vi: '14-day test' });
    toLocal('10:00');
    const user = await hostingUser('500');
    const { order } = ok(await create(user, added.id, '100'));
    expect(order).toMatchObject({ days: 14, dailyRate: '0.002', penaltyRate: '0.05' });

    const updated = ok(
      await f.asFinance<{ days: number; dailyRate: string }>(finance(), '/api/admin/hosting/product/update', {
        id: added.id,
        days: '21',
        dailyRate: '0.0025',
      }),
    );
    expect(updated).toMatchObject({ days: 21, dailyRate: '0.0025', penaltyRate: '0.05' });
    expect(await orderOf(user, order.id)).toMatchObject({ days: 14, dailyRate: '0.002' });

    const disabled = ok(
      await f.asFinance<{ status: string }>(finance(), '/api/admin/hosting/product/disable', {
        id: added.id,
      }),
    );
    expect(disabled.status).toBe('disabled');
    const config = await t.call<HostingConfigData>(
      'plain',
      '/api/v1/hosting/hosting-config',
      {},
      { token: user.token },
    );
    expect(config.data.products.map((product) => product.id)).not.toContain(added.id);
    expect((await create(user, added.id, '100')).code).toBe(BodyCode.notFound);
    const list = ok(
      await f.asFinance<{ items: Array<{ id: string; status: string }> }>(
        finance(),
        '/api/admin/hosting/product/list',
        {},
      ),
    );
    expect(list.items.find((item) => item.id === added.id)?.status).toBe('disabled');
    expect((await f.asFinance(finance(), '/api/admin/hosting/product/disable', { id: '99999' })).code).toBe(
      404,
    );
    const actions = (await auditEntries())
      .filter((entry) => entry.target === added.id)
      .map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['hosting.product_add', 'hosting.product_update', 'hosting.product_disable']),
    );
  });

  // ---- offline reading ----

  test('orders, their changes and income lines are pulled in the account-scoped collections hosting_orders, hosting_changes and income', async () => {
    toLocal('10:00');
    const user = await hostingUser('300');
    const { order } = ok(await create(user, '1', '200'));
    await f.asFinance(finance(), '/api/admin/income/airdrop', {
      accountIds: user.accountId,
      amount: '1',
      reason: 'pull',
    });
    // A pull delivers only changes below its snapshot's horizon, which on a PostgreSQL server shared
    // with other test files' databases a transaction elsewhere can hold back for a moment: pull again.
    const pull = () =>
      t.call<{ changes: Record<string, { upserts: unknown[]; deletes: string[] }> }>(
        'plain',
        '/api/v1/sync/pull',
        { cursors: {}, accountId: user.accountId },
        { token: user.token },
      );
    let pulled = await pull();
    for (let tries = 0; tries < 100 && !pulled.data.changes['income']?.upserts.length; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pulled = await pull();
    }
    expect(pulled.code).toBe(200);
    const orders = z.array(hostingOrderRecordSchema).parse(pulled.data.changes['hosting_orders']?.upserts);
    expect(orders.map((item) => [item.id, item.amount, item.names['en']])).toEqual([
      [order.id, '200', '7-day hosting'],
    ]);
    const changes = z.array(hostingChangeRecordSchema).parse(pulled.data.changes['hosting_changes']?.upserts);
    expect(changes.map((item) => [item.orderId, item.kind, item.amount])).toEqual([
      [order.id, 'create', '200'],
    ]);
    const lines = z.array(incomeRecordSchema).parse(pulled.data.changes['income']?.upserts);
    expect(lines.map((item) => [item.type, item.amount])).toEqual([['airdrop', '1']]);
    const other = await hostingUser('0');
    const foreign = await t.call(
      'plain',
      '/api/v1/sync/pull',
      { cursors: {}, accountId: user.accountId },
      { token: other.token },
    );
    expect(foreign.code).toBe(403);
  });
});
