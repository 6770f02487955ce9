/**
 * AI dividends through the API, on PGlite and PostgreSQL: a finance operator publishes
 * a day's dividend; only accounts with valid hosting (≥ 500 USDT) at the day's end share, pro rata
 * by that balance, floored, the residue recorded to the rounding book so the total is exactly
 * accounted for; customers see their records (aiInfo, aiIncome, the `dividend_releases`
 * collection) and claim them (aiReceive) into cash once, with a `dividend` income line; a
 * repeated claim pays nothing more, and on PostgreSQL neither do racing claims; unclaimed records
 * expire after COFFER_DIVIDEND_CLAIM_DAYS. `ledger check` stays ok after every step. The CLI's
 * `dividend publish` follows the same rules.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { BodyCode } from '../../contract/codes.js';
import { parseMoney } from '../../contract/money.js';
import { dividendReleases, income } from '../../server/db/schema.js';
import { customerBook } from '../../server/ledger/books.js';
import { transfer } from '../../server/ledger/ledger.js';
import { withAdminCli } from '../helpers/admin-cli.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { withdrawFixtures } from '../helpers/withdraw.js';

const tiers = await availableTiers('dividend-api');

/** Days a record may be claimed in these tests (COFFER_DIVIDEND_CLAIM_DAYS). */
const CLAIM_DAYS = 3;
const DAY_S = 24 * 3600;

interface Dividend {
  id: string;
  day: string;
  mode: string;
  total: string;
  rate: string | null;
  eligibleBalance: string;
  accounts: number;
  distributed: string;
  residue: string;
  claimDays: number;
  expiresAt: string;
}
interface Release {
  id: string;
  accountId: string;
  dividendId: string;
  day: string;
  balance: string;
  amount: string;
  status: string;
  expiresAt: string;
  claimedAt: string | null;
}
interface AiInfo {
  accountId: string;
  claimable: string;
  claimableCount: number;
  claimed: string;
  expired: string;
  nextExpiresAt: string | null;
  rules: { validHostingThreshold: string; claimDays: number; timeZone: string };
}
interface Customer {
  token: string;
  accountId: string;
}

describe.each(tiers)('AI dividends on %s', (tier) => {
  let t: TestServer;
  let finance: string;
  let support: string;
  /** Calls an operator route as `email`, logged in afresh (the clock moves past a session's life). */
  const asOperator = <T = Dividend>(email: string, uri: string, params: Record<string, unknown>) =>
    fx.asFinance<T>(email, uri, params);
  const publish = (params: Record<string, unknown>, as = finance) =>
    asOperator(as, '/api/admin/dividend/publish', params);
  const fx = withdrawFixtures(() => t);
  const customers: Record<string, Customer> = {};
  let hostSerial = 0;

  const db = () => t.server.database.db;
  /** The platform's rounding book (all slots), in minor units. */
  const roundingBook = async () => {
    const result = await db().execute(
      sql`select coalesce(sum(balance), 0)::text as total from ledger_balances where owner = 0 and book = 'rounding' and asset = 'USDT'`,
    );
    return BigInt(
      z.object({ rows: z.array(z.object({ total: z.string() })) }).parse(result).rows[0]?.total ?? '',
    );
  };
  const customer = async (name: string): Promise<Customer> => {
    const { token } = await t.register('plain', `${name}-${tier}@coffer.test`);
    const accounts = await t.call<{ items: Array<{ id: string }> }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token },
    );
    return { token, accountId: accounts.data.items[0]?.id ?? '' };
  };
  /** Puts `amount` USDT into the account's hosting book now: funded by adjustment, then cash -> hosting. */
  const host = async (who: Customer, amount: string) => {
    await fx.fund(finance, who.accountId, amount);
    hostSerial += 1;
    await transfer(
      db(),
      [
        {
          key: `test:hosting:${hostSerial}`,
          kind: 'trust_deposit',
          asset: 'USDT',
          from: customerBook(Number(who.accountId), 'cash'),
          to: customerBook(Number(who.accountId), 'hosting'),
          amount: parseMoney(amount),
          ref: { table: 'test', id: String(hostSerial) },
        },
      ],
      t.clock.now(),
    );
  };
  const info = (who: Customer) =>
    t.call<AiInfo>(
      'plain',
      '/api/v1/user/aiInfo',
      { accountId: who.accountId },
      { token: who.token, lang: 'EN' },
    );
  const releases = (who: Customer, extra: Record<string, unknown> = {}) =>
    t.call<{ items: Release[]; nextCursor: string | null }>(
      'plain',
      '/api/v1/user/aiIncome',
      { accountId: who.accountId, ...extra },
      { token: who.token, lang: 'EN' },
    );
  const claim = (who: Customer, params: Record<string, unknown> = {}, key = newKey()) =>
    t.call<{ accountId: string; amount: string; items: Release[] }>(
      'plain',
      '/api/v1/user/aiReceive',
      { accountId: who.accountId, ...params },
      { token: who.token, key, lang: 'EN' },
    );
  /** The customer's dividend lines in the income table. */
  const dividendLines = (who: Customer) =>
    db()
      .select()
      .from(income)
      .where(and(eq(income.accountId, Number(who.accountId)), eq(income.type, 'dividend')));
  const cash = async (who: Customer) =>
    (
      await t.call<{ cash: string }>(
        'plain',
        '/api/v1/user/assets',
        { accountId: who.accountId },
        { token: who.token },
      )
    ).data.cash;

  beforeAll(async () => {
    t = await startTestServer(tier, { COFFER_DIVIDEND_CLAIM_DAYS: String(CLAIM_DAYS) });
    const [financeA] = await fx.operators(`dividend-${tier}`);
    finance = financeA;
    await fx.addOperator(`dividend-support-${tier}@coffer.test`, 'support');
    support = `dividend-support-${tier}@coffer.test`;
    // 2026-01-05 10:00 in Asia/Shanghai: hosting balances during the local day 2026-01-05.
    for (const name of ['below', 'exact', 'larger', 'odd', 'none'])
      customers[name] = await customer(`dividend-${name}`);
    await host(customers['below'] as Customer, '499.99');
    await host(customers['exact'] as Customer, '500');
    await host(customers['larger'] as Customer, '1234.56');
    await host(customers['odd'] as Customer, '777.777777');
    // After the day's end (16:00Z) the balances of 2026-01-05 are settled; later moves do not count.
    t.clock.advance(15 * 3600);
    await host(customers['below'] as Customer, '0.01');
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  test('a day not over yet, a day with no valid hosting, both or neither of total and rate, and a rate of 1 are refused', async () => {
    const today = await publish({ day: '2026-01-06', total: '10' });
    expect(today).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'day' } });
    expect(today.message).toContain('has not ended yet');
    const empty = await publish({ day: '2026-01-04', total: '10' });
    expect(empty).toMatchObject({
      code: BodyCode.conflict,
      message: 'No account held valid hosting (at least 500 USDT) at the end of 2026-01-04',
    });
    for (const params of [
      { day: '2026-01-05', total: '10', rate: '0.001' },
      { day: '2026-01-05' },
      { day: '2026-01-05', rate: '1' },
      { day: '2026-01-05', total: '-1' },
      { day: '2026-02-30', total: '10' },
    ]) {
      const answer = await publish(params);
      expect(answer.code, JSON.stringify(params)).toBe(BodyCode.invalidInput);
    }
    const bySupport = await publish({ day: '2026-01-05', total: '10' }, support);
    expect(bySupport.code).toBe(BodyCode.forbidden);
  });

  test('shares go pro rata to valid hosting at the day’s end (499.99 not eligible, 500.00 eligible), floored; the residue goes to rounding and the total is exactly accounted for', async () => {
    const roundingBefore = await roundingBook();
    const total = '100.000001';
    const published = await publish({ day: '2026-01-05', total });
    expect(published.code, published.message).toBe(BodyCode.ok);
    const balances: Record<string, bigint> = {
      exact: 500_000_000n,
      larger: 1_234_560_000n,
      odd: 777_777_777n,
    };
    const sum = Object.values(balances).reduce((acc, value) => acc + value, 0n);
    const totalMinor = parseMoney(total);
    const expected = Object.fromEntries(
      Object.entries(balances).map(([name, balance]) => [name, (totalMinor * balance) / sum]),
    );
    const shared = Object.values(expected).reduce((acc, value) => acc + value, 0n);
    expect(published.data).toMatchObject({
      day: '2026-01-05',
      mode: 'total',
      total,
      accounts: 3,
      eligibleBalance: '2512.337777',
      claimDays: CLAIM_DAYS,
    });
    expect(parseMoney(published.data.distributed)).toBe(shared);
    expect(parseMoney(published.data.residue)).toBe(totalMinor - shared);
    expect((await roundingBook()) - roundingBefore).toBe(totalMinor - shared);
    for (const [name, share] of Object.entries(expected)) {
      const list = await releases(customers[name] as Customer);
      expect(list.data.items).toHaveLength(1);
      expect(list.data.items[0]).toMatchObject({ status: 'to_be_claimed', day: '2026-01-05' });
      expect(parseMoney(list.data.items[0]?.amount ?? '')).toBe(share);
    }
    expect((await releases(customers['below'] as Customer)).data.items).toEqual([]);
    expect((await releases(customers['none'] as Customer)).data.items).toEqual([]);
    const again = await publish({ day: '2026-01-05', rate: '0.01' });
    expect(again).toMatchObject({
      code: BodyCode.conflict,
      message: 'The dividend of 2026-01-05 is already published',
    });
    await fx.expectLedgerOk(finance);
  });

  test('aiInfo says what is claimable now, what was claimed, and the rules', async () => {
    const answer = await info(customers['larger'] as Customer);
    expect(answer.code).toBe(BodyCode.ok);
    const [record] = (await releases(customers['larger'] as Customer)).data.items;
    expect(answer.data).toMatchObject({
      claimable: record?.amount,
      claimableCount: 1,
      claimed: '0',
      expired: '0',
      nextExpiresAt: record?.expiresAt,
      rules: { validHostingThreshold: '500', claimDays: CLAIM_DAYS, timeZone: 'Asia/Shanghai' },
    });
  });

  test('a claim moves the record to cash once, with an arrived `dividend` income line; repeated (a new key) it pays nothing more; replayed (the same key) it answers the same', async () => {
    const who = customers['larger'] as Customer;
    const [record] = (await releases(who)).data.items;
    const before = parseMoney(await cash(who));
    const key = newKey();
    const first = await claim(who, { id: record?.id }, key);
    expect(first.code, first.message).toBe(BodyCode.ok);
    expect(first.message).toBe('Claimed');
    expect(first.data).toMatchObject({
      amount: record?.amount,
      items: [{ id: record?.id, status: 'claimed' }],
    });
    expect(parseMoney(await cash(who)) - before).toBe(parseMoney(record?.amount ?? ''));
    const replay = await claim(who, { id: record?.id }, key);
    expect(replay).toEqual(first);
    const repeat = await claim(who, { id: record?.id });
    expect(repeat).toMatchObject({
      code: BodyCode.conflict,
      message: 'This dividend has already been claimed',
    });
    expect(parseMoney(await cash(who)) - before).toBe(parseMoney(record?.amount ?? ''));
    const lines = await dividendLines(who);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      status: 'arrived',
      earningsDate: '2026-01-05',
      key: `dividend:release:${record?.id}`,
    });
    const records = await t.call<{ items: Array<{ kind: string; amount: string }> }>(
      'plain',
      '/api/v1/wallet/records',
      { accountId: who.accountId, kind: 'dividend' },
      { token: who.token },
    );
    expect(records.data.items.map((item) => item.amount)).toEqual([record?.amount]);
    expect((await info(who)).data).toMatchObject({
      claimable: '0',
      claimableCount: 0,
      claimed: record?.amount,
    });
    await fx.expectLedgerOk(finance);
  });

  test('a claim is account-scoped: another customer’s record is refused (403) and pays nothing; another’s account too', async () => {
    const owner = customers['odd'] as Customer;
    const stranger = customers['none'] as Customer;
    const [record] = (await releases(owner)).data.items;
    const theirs = await claim(stranger, { id: record?.id });
    expect(theirs).toMatchObject({ code: BodyCode.forbidden, data: { field: 'id' } });
    const otherAccount = await t.call(
      'plain',
      '/api/v1/user/aiReceive',
      { accountId: owner.accountId },
      { token: stranger.token, key: newKey() },
    );
    expect(otherAccount).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
    const nothing = await claim(stranger);
    expect(nothing).toMatchObject({ code: BodyCode.conflict, message: 'There is no dividend to claim' });
    expect((await releases(owner)).data.items[0]?.status).toBe('to_be_claimed');
  });

  test('records read offline: the account-scoped `dividend_releases` collection', async () => {
    const who = customers['larger'] as Customer;
    type Pulled = { changes: Record<string, { upserts: Array<Record<string, unknown>> }> };
    // A pull delivers only changes below its snapshot's horizon, which on a PostgreSQL server shared
    // with other test files' databases a transaction elsewhere can hold back for a moment: pull again.
    const pull = () =>
      t.call<Pulled>(
        'plain',
        '/api/v1/sync/pull',
        { cursors: {}, accountId: who.accountId },
        { token: who.token },
      );
    let pulled = await pull();
    for (
      let tries = 0;
      tries < 100 && !pulled.data.changes['dividend_releases']?.upserts.length;
      tries += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pulled = await pull();
    }
    expect(pulled.data.changes['dividend_releases']?.upserts).toMatchObject([
      { status: 'claimed', day: '2026-01-05' },
    ]);
  });

  test.runIf(tier === 'postgres')(
    'two claims racing over one record (and two racing claims of everything) pay once',
    async () => {
      const who = customers['exact'] as Customer;
      const [record] = (await releases(who)).data.items;
      const before = parseMoney(await cash(who));
      const results = await Promise.all([
        claim(who, { id: record?.id }),
        claim(who, { id: record?.id }),
        claim(who),
        claim(who),
      ]);
      const paid = results.filter((result) => result.code === BodyCode.ok);
      expect(paid).toHaveLength(1);
      expect(results.filter((result) => result.code === BodyCode.conflict)).toHaveLength(3);
      expect(parseMoney(await cash(who)) - before).toBe(parseMoney(record?.amount ?? ''));
      const lines = await dividendLines(who);
      expect(lines).toHaveLength(1);
      await fx.expectLedgerOk(finance);
    },
  );

  test('a rate dividend pays floor(balance × rate) to each valid account, with no residue', async () => {
    t.clock.advance(DAY_S);
    const answer = await publish({ day: '2026-01-06', rate: '0.0010' });
    expect(answer.code, answer.message).toBe(BodyCode.ok);
    expect(answer.data).toMatchObject({ mode: 'rate', rate: '0.001', residue: '0', accounts: 4 });
    // 499.99 + 0.01 after the first day's end: valid hosting on 2026-01-06.
    const below = (await releases(customers['below'] as Customer)).data.items;
    expect(below.map((item) => [item.day, item.balance, item.amount])).toEqual([
      ['2026-01-06', '500', '0.5'],
    ]);
    const odd = (await releases(customers['odd'] as Customer, { status: 'to_be_claimed' })).data.items;
    // Newest first: the rate's share, then its share of the first day's total (not claimed yet).
    expect(odd.map((item) => [item.day, item.amount])).toEqual([
      ['2026-01-06', '0.777777'],
      ['2026-01-05', '30.958328'], // floor(100.000001 × 777.777777 / 2512.337777)
    ]);
    expect(parseMoney(answer.data.total)).toBe(500_000n + 500_000n + 1_234_560n + 777_777n);
  });

  test('claiming everything pays every claimable record of the account at once', async () => {
    const who = customers['odd'] as Customer;
    const before = parseMoney(await cash(who));
    const all = await claim(who);
    expect(all.code, all.message).toBe(BodyCode.ok);
    expect(all.data.items).toHaveLength(2);
    expect(all.data.amount).toBe('31.736105');
    expect(parseMoney(await cash(who)) - before).toBe(parseMoney('31.736105'));
    expect((await releases(who, { status: 'to_be_claimed' })).data.items).toEqual([]);
    await fx.expectLedgerOk(finance);
  });

  test(`records not claimed within COFFER_DIVIDEND_CLAIM_DAYS (${CLAIM_DAYS}) expire: shown expired, never paid, and the job writes it`, async () => {
    const who = customers['below'] as Customer;
    const [record] = (await releases(who)).data.items;
    const expiresAt = Date.parse(record?.expiresAt ?? '');
    // The records of 2026-01-06 were published a day after the first ones: CLAIM_DAYS from then.
    expect(expiresAt).toBe(t.clock.now().getTime() + CLAIM_DAYS * DAY_S * 1000);
    t.clock.advance(CLAIM_DAYS * DAY_S - 60);
    expect((await info(who)).data.claimableCount).toBe(1);
    t.clock.advance(60);
    expect((await releases(who)).data.items[0]?.status).toBe('expired');
    expect((await releases(who, { status: 'expired' })).data.items).toHaveLength(1);
    expect((await releases(who, { status: 'to_be_claimed' })).data.items).toHaveLength(0);
    expect((await info(who)).data).toMatchObject({ claimable: '0', claimableCount: 0, expired: '0.5' });
    const before = await cash(who);
    const late = await claim(who, { id: record?.id });
    expect(late).toMatchObject({
      code: BodyCode.conflict,
      message: 'This dividend expired without being claimed',
    });
    expect(await cash(who)).toBe(before);
    const run = await t.server.scheduler.runNow('dividend-expiry');
    expect(run.status).toBe('done');
    expect(Number(run.detail?.['expired'])).toBeGreaterThanOrEqual(1);
    const [row] = await db()
      .select()
      .from(dividendReleases)
      .where(eq(dividendReleases.id, Number(record?.id)));
    expect(row?.status).toBe('expired');
    await fx.expectLedgerOk(finance);
  });
});

describe('the CLI', () => {
  test(
    '`dividend publish` refuses a day without valid hosting (exit 1, nothing published), and `dividend list` lists',
    { timeout: 120_000 },
    () =>
      withAdminCli('coffer-dividend-cli-', async (admin) => {
        const refused = await admin('dividend', 'publish', '--day', '2020-01-01', '--total', '10').catch(
          (error: unknown) => error,
        );
        expect(refused).toMatchObject({ code: 1 });
        expect(String((refused as { stderr?: string }).stderr)).toContain(
          'No account held valid hosting (at least 500 USDT) at the end of 2020-01-01',
        );
        expect((await admin('dividend', 'list')).stdout).not.toMatch(/^\d+\t/m);
      }),
  );
});
