/**
 * The RAB/USDT exchange through the API ("no surprise fills"), on PGlite and
 * PostgreSQL: price versions, the stale-version refusal, both directions' figures and rounding
 * to the minor unit, the fee and the rounding residue in the platform's books, bounds and
 * hostile amounts, the trade password, ownership, exactly-once, records readable by pull, and
 * `ledger check` after every step that moves money. On PostgreSQL, a price change racing
 * submits never fills at the old price.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { expectLedgerOk, operatorToken } from '../helpers/operator.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type Answer, type TestServer } from '../helpers/server.js';
import { cliContext } from '../../server/cli/cli-context.js';

const tiers = await availableTiers('exchange-api');

interface ExchangeIndex {
  accountId: string;
  rab: string;
  rabHeld: string;
  usdt: string;
  price: string;
  priceVersion: string | null;
  priceUpdatedAt: string | null;
  open: boolean;
  feeRate: string;
  minimum: string;
  maximum: string;
}
interface ExchangeRecord {
  id: string;
  accountId: string;
  direction: string;
  amountIn: string;
  assetIn: string;
  amountOut: string;
  assetOut: string;
  fee: string;
  rounding: string;
  price: string;
  priceVersion: string;
  feeRate: string;
  createdAt: string;
}
interface WalletRecord {
  id: string;
  kind: string;
  asset: string;
  amount: string;
  ref: { table: string; id: string };
}

const TRADE_PASSWORD = 'trade123';

describe.each(tiers)('the RAB/USDT exchange on %s', (tier) => {
  let t: TestServer;
  let finance: string;
  let token: string;
  let accountId: string;

  const mainAccountOf = async (as: string) =>
    (await t.call<{ items: Array<{ id: string }> }>('plain', '/api/v1/account/list', {}, { token: as })).data
      .items[0]?.id ?? '';
  const fund = async (account: string, asset: 'USDT' | 'RAB', amount: string) => {
    const answer = await t.call<{ status: string }>(
      'plain',
      '/api/admin/ledger/adjust',
      { accountId: account, asset, amount, reason: 'exchange test funding' },
      { token: finance, key: newKey() },
    );
    expect(answer).toMatchObject({ code: BodyCode.ok, data: { status: 'applied' } });
  };
  const setPrice = async (usdt: string) => {
    const answer = await t.call<{ rabPriceUsdt: string; rabPriceVersion: string | null }>(
      'plain',
      '/api/admin/settings/update',
      { rabPriceUsdt: usdt },
      { token: finance, key: newKey() },
    );
    expect(answer.code).toBe(BodyCode.ok);
    return answer.data;
  };
  const index = async (account = accountId, as = token) =>
    (await t.call<ExchangeIndex>('plain', '/api/v1/exchange/index', { accountId: account }, { token: as }))
      .data;
  const submit = (params: Record<string, unknown>, options: { key?: string; as?: string } = {}) =>
    t.call<ExchangeRecord>(
      'plain',
      '/api/v1/exchange/submit',
      { accountId, tradePassword: TRADE_PASSWORD, ...params },
      { token: options.as ?? token, key: options.key ?? newKey(), lang: 'EN' },
    );
  const exchangeRows = async () =>
    (
      await t.call<{ items: ExchangeRecord[] }>(
        'plain',
        '/api/v1/exchange/list',
        { accountId, limit: 100 },
        { token },
      )
    ).data.items;
  /** A platform book's balance (the sum of its slots), as a wire decimal in minor units. */
  const platformBook = async (book: string, asset: string): Promise<bigint> => {
    const result = (await t.server.database.db.execute(
      sql`select coalesce(sum(balance), 0)::text as total from ledger_balances where owner = 0 and book = ${book} and asset = ${asset}`,
    )) as unknown as { rows: Array<{ total: string }> }; // one row of text on PGlite and pg alike
    return BigInt(result.rows[0]?.total ?? '0');
  };
  const books = async () => ({
    feeRevenue: await platformBook('fee_revenue', 'USDT'),
    rounding: await platformBook('rounding', 'USDT'),
    inventoryUsdt: await platformBook('exchange_inventory', 'USDT'),
    inventoryRab: await platformBook('exchange_inventory', 'RAB'),
  });

  beforeAll(async () => {
    t = await startTestServer(tier);
    finance = await operatorToken(t, 'finance@coffer.test', 'finance');
    token = (await t.register('plain', 'trader@coffer.test')).token;
    accountId = await mainAccountOf(token);
    const bound = await t.call(
      'plain',
      '/api/v1/user/bindTradePassword',
      { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
      { token, key: newKey() },
    );
    expect(bound.code).toBe(BodyCode.ok);
    await fund(accountId, 'USDT', '1000');
    await fund(accountId, 'RAB', '1000');
  });
  afterAll(async () => {
    await t.close();
  });

  test('while no price was ever set the exchange is closed: index says so, a submit is 409 and moves nothing', async () => {
    expect(await index()).toMatchObject({
      accountId,
      rab: '1000',
      rabHeld: '0',
      usdt: '1000',
      price: '0',
      priceVersion: null,
      priceUpdatedAt: null,
      open: false,
      feeRate: '0.002',
      minimum: '1',
      maximum: '100000',
    });
    const refused = await submit({ direction: 'rab_to_usdt', amount: '10', priceVersion: '1' });
    expect(refused).toMatchObject({ code: BodyCode.conflict, data: { price: '0', priceVersion: null } });
    expect(refused.message).toMatch(/closed/);
    expect(await exchangeRows()).toEqual([]);
  });

  test('each change of the RAB price (admin API or CLI) is a new price version; the same price again is not', async () => {
    const first = await setPrice('0.5');
    expect(first).toMatchObject({ rabPriceUsdt: '0.5', rabPriceVersion: expect.stringMatching(/^\d+$/) });
    const second = await t.server.services.ledgerAdmin.updateSettings(cliContext(), {
      rabPriceUsdt: '0.333333',
    });
    expect(second.rabPriceVersion).not.toBe(first.rabPriceVersion);
    expect(Number(second.rabPriceVersion)).toBeGreaterThan(Number(first.rabPriceVersion));
    const again = await setPrice('0.333333');
    expect(again.rabPriceVersion).toBe(second.rabPriceVersion);
    expect(await index()).toMatchObject({
      price: '0.333333',
      priceVersion: second.rabPriceVersion,
      open: true,
      priceUpdatedAt: expect.any(String),
    });
    // The public `prices` record carries the version too, and assets value RAB at it.
    const pull = await t.call<{ changes: { prices?: { upserts: Array<Record<string, unknown>> } } }>(
      'plain',
      '/api/v1/sync/pull',
      { cursors: {} },
    );
    expect(pull.data.changes.prices?.upserts).toEqual([
      expect.objectContaining({ id: 'RAB', usdt: '0.333333', priceVersion: second.rabPriceVersion }),
    ]);
    const assets = await t.call<{ rabPriceUsdt: string }>(
      'plain',
      '/api/v1/user/assets',
      { accountId },
      { token },
    );
    expect(assets.data.rabPriceUsdt).toBe('0.333333');
  });

  test('rab_to_usdt: 1.5 RAB at 0.333333 pays 0.498999 USDT, the fee 0.000999 to fee revenue and the residue 0.000001 to the rounding book', async () => {
    const { priceVersion } = await index();
    const before = await books();
    const answer = await submit({ direction: 'rab_to_usdt', amount: '1.5', priceVersion });
    expect(answer).toMatchObject({
      code: BodyCode.ok,
      data: {
        accountId,
        direction: 'rab_to_usdt',
        amountIn: '1.5',
        assetIn: 'RAB',
        amountOut: '0.498999',
        assetOut: 'USDT',
        fee: '0.000999',
        rounding: '0.000001',
        price: '0.333333',
        priceVersion,
        feeRate: '0.002',
      },
    });
    expect(answer.message).toBe('Exchanged');
    expect(await index()).toMatchObject({ rab: '998.5', usdt: '1000.498999' });
    const after = await books();
    // The inventory paid floor(1.5 x 0.333333) = 0.499999 USDT in all: net + fee + residue.
    expect(after.inventoryRab - before.inventoryRab).toBe(1_500_000n);
    expect(after.inventoryUsdt - before.inventoryUsdt).toBe(-499_999n);
    expect(after.feeRevenue - before.feeRevenue).toBe(999n);
    expect(after.rounding - before.rounding).toBe(1n);
    // Wallet records: the RAB out and the USDT in, of kind exchange, naming the exchange.
    const lines = (
      await t.call<{ items: WalletRecord[] }>('plain', '/api/v1/wallet/records', { accountId }, { token })
    ).data.items.filter((line) => line.ref.table === 'exchanges' && line.ref.id === answer.data.id);
    expect(lines.map((line) => [line.kind, line.asset, line.amount]).sort()).toEqual([
      ['exchange', 'RAB', '-1.5'],
      ['exchange', 'USDT', '0.498999'],
    ]);
    await expectLedgerOk(t, finance);
  });

  test('usdt_to_rab: 1.04 USDT at 1.234567 buys 0.840715 RAB for 1.037919 USDT, the fee 0.00208, the residue 0.000001 to the rounding book', async () => {
    await setPrice('1.234567');
    const { priceVersion, usdt, rab } = await index();
    const before = await books();
    const answer = await submit({ direction: 'usdt_to_rab', amount: '1.04', priceVersion });
    expect(answer).toMatchObject({
      code: BodyCode.ok,
      data: {
        direction: 'usdt_to_rab',
        amountIn: '1.04',
        assetIn: 'USDT',
        amountOut: '0.840715',
        assetOut: 'RAB',
        fee: '0.00208',
        rounding: '0.000001',
        price: '1.234567',
        priceVersion,
      },
    });
    const now = await index();
    expect(BigInt(Math.round(Number(usdt) * 1e6)) - BigInt(Math.round(Number(now.usdt) * 1e6))).toBe(
      1_040_000n,
    );
    expect(BigInt(Math.round(Number(now.rab) * 1e6)) - BigInt(Math.round(Number(rab) * 1e6))).toBe(840_715n);
    const after = await books();
    expect(after.inventoryUsdt - before.inventoryUsdt).toBe(1_037_919n);
    expect(after.inventoryRab - before.inventoryRab).toBe(-840_715n);
    expect(after.feeRevenue - before.feeRevenue).toBe(2_080n);
    expect(after.rounding - before.rounding).toBe(1n);
    const lines = (
      await t.call<{ items: WalletRecord[] }>('plain', '/api/v1/wallet/records', { accountId }, { token })
    ).data.items.filter((line) => line.ref.table === 'exchanges' && line.ref.id === answer.data.id);
    expect(lines.map((line) => [line.kind, line.asset, line.amount]).sort()).toEqual([
      ['exchange', 'RAB', '0.840715'],
      ['exchange', 'USDT', '-0.000001'],
      ['exchange', 'USDT', '-1.037919'],
      ['fee', 'USDT', '-0.00208'],
    ]);
    await expectLedgerOk(t, finance);
  });

  test('a submit naming an older price version is 409 with the new price and version, and nothing moves', async () => {
    const old = (await index()).priceVersion;
    const changed = await setPrice('2');
    const rowsBefore = (await exchangeRows()).length;
    const balancesBefore = await index();
    const stale = await submit({ direction: 'rab_to_usdt', amount: '10', priceVersion: old });
    expect(stale).toMatchObject({
      code: BodyCode.conflict,
      data: { price: '2', priceVersion: changed.rabPriceVersion },
    });
    expect(stale.message).toMatch(/2 USDT per RAB/);
    const other = await submit({ direction: 'usdt_to_rab', amount: '10', priceVersion: 'nonsense' });
    expect(other).toMatchObject({ code: BodyCode.conflict, data: { priceVersion: changed.rabPriceVersion } });
    expect((await exchangeRows()).length).toBe(rowsBefore);
    expect(await index()).toMatchObject({ rab: balancesBefore.rab, usdt: balancesBefore.usdt });
    // Confirmed again at the version it was told: filled at the new price.
    const filled = await submit({
      direction: 'rab_to_usdt',
      amount: '10',
      priceVersion: changed.rabPriceVersion,
    });
    expect(filled).toMatchObject({
      code: BodyCode.ok,
      data: { price: '2', amountOut: '19.96', fee: '0.04' },
    });
    await expectLedgerOk(t, finance);
  });

  test('470 when the available balance is short, and nothing moves', async () => {
    const { priceVersion, usdt } = await index();
    const before = await books();
    const short = await submit({ direction: 'usdt_to_rab', amount: '5000', priceVersion });
    expect(short).toMatchObject({ code: BodyCode.insufficientBalance });
    expect(short.message).toBe('Insufficient available balance');
    expect((await index()).usdt).toBe(usdt);
    expect(await books()).toEqual(before);
    await expectLedgerOk(t, finance);
  });

  test('amounts outside the bounds, with 3 decimals or hostile are 400 naming amount', async () => {
    const { priceVersion } = await index();
    for (const amount of ['0.99', '100000.01']) {
      const answer = await submit({ direction: 'rab_to_usdt', amount, priceVersion });
      expect(answer).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'amount' } });
      expect(answer.message).toBe('Enter an amount from 1 to 100000 RAB');
    }
    const hostile: unknown[] = [
      '1.001',
      '0',
      '-1',
      '',
      ' ',
      'abc',
      '1e3',
      '0x10',
      'NaN',
      'Infinity',
      '1,5',
      '１０',
      '٣',
      '10\u0000',
      '9'.repeat(41),
      '99999999999999999999999',
      12.345,
      null,
      [],
      {},
      true,
    ];
    for (const amount of hostile) {
      const answer = await submit({ direction: 'usdt_to_rab', amount, priceVersion });
      expect(answer.code, JSON.stringify(amount)).toBe(BodyCode.invalidInput);
      expect(answer.data, JSON.stringify(amount)).toMatchObject({ field: 'amount' });
    }
    const direction = await submit({ direction: 'sideways', amount: '10', priceVersion });
    expect(direction).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'direction' } });
    await expectLedgerOk(t, finance);
  });

  test('an amount too small to receive a minor unit at the price is 400 naming amount', async () => {
    const changed = await setPrice('1000000000');
    const tiny = await submit({
      direction: 'usdt_to_rab',
      amount: '1',
      priceVersion: changed.rabPriceVersion,
    });
    expect(tiny).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'amount' } });
    expect(tiny.message).toMatch(/too small/);
    const huge = await submit({
      direction: 'rab_to_usdt',
      amount: '100000',
      priceVersion: changed.rabPriceVersion,
    });
    expect(huge).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'amount' } });
    expect(huge.message).toMatch(/too large/);
    await setPrice('2');
  });

  test('the trade password: wrong is 400 naming it, not set is 300; nothing moves', async () => {
    const { priceVersion, rab } = await index();
    const wrong = await submit({
      direction: 'rab_to_usdt',
      amount: '2',
      priceVersion,
      tradePassword: 'wrong123',
    });
    expect(wrong).toMatchObject({ code: BodyCode.invalidInput, data: { field: 'tradePassword' } });
    expect((await index()).rab).toBe(rab);

    const newcomer = (await t.register('plain', 'no-trade-password@coffer.test')).token;
    const theirs = await mainAccountOf(newcomer);
    await fund(theirs, 'RAB', '5');
    const unset = await t.call(
      'plain',
      '/api/v1/exchange/submit',
      {
        accountId: theirs,
        direction: 'rab_to_usdt',
        amount: '2',
        priceVersion,
        tradePassword: TRADE_PASSWORD,
      },
      { token: newcomer, key: newKey() },
    );
    expect(unset.code).toBe(BodyCode.tradePasswordNotSet);
    expect((await index(theirs, newcomer)).rab).toBe('5');
    await expectLedgerOk(t, finance);
  });

  test("another user's account is 403 naming accountId, for index, submit and list alike", async () => {
    const other = (await t.register('plain', 'other@coffer.test')).token;
    const theirs = await mainAccountOf(other);
    const { priceVersion } = await index();
    const asked = await t.call('plain', '/api/v1/exchange/index', { accountId: theirs }, { token });
    expect(asked).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
    const listed = await t.call('plain', '/api/v1/exchange/list', { accountId: theirs }, { token });
    expect(listed).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
    const submitted = await submit({
      accountId: theirs,
      direction: 'rab_to_usdt',
      amount: '2',
      priceVersion,
    });
    expect(submitted).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
    const missing = await submit({
      accountId: '999999',
      direction: 'rab_to_usdt',
      amount: '2',
      priceVersion,
    });
    expect(missing).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
  });

  test('a repeated Idempotency-Key replays the first answer byte for byte and moves nothing twice', async () => {
    const { priceVersion, rab } = await index();
    const key = newKey();
    const params = { direction: 'rab_to_usdt', amount: '3', priceVersion };
    const raw = async (body: Record<string, unknown>) =>
      (
        await t.server.app.inject({
          method: 'POST',
          url: '/api/v1/exchange/submit',
          headers: {
            authorization: `Bearer ${token}`,
            'idempotency-key': key,
            'content-type': 'application/json',
          },
          payload: JSON.stringify({ accountId, tradePassword: TRADE_PASSWORD, ...body }),
        })
      ).body;
    const first = await raw(params);
    const again = await raw(params);
    expect(again).toBe(first);
    expect((JSON.parse(first) as Answer).code).toBe(BodyCode.ok);
    expect(Number((await index()).rab)).toBe(Number(rab) - 3);
    const otherBody = JSON.parse(await raw({ ...params, amount: '4' })) as Answer;
    expect(otherBody.code).toBe(BodyCode.conflict);
    expect(Number((await index()).rab)).toBe(Number(rab) - 3);
    await expectLedgerOk(t, finance);
  });

  test('records: exchange/list newest first with paging, the `exchanges` collection by pull, and the operators’ list', async () => {
    const all = await exchangeRows();
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.map((row) => Number(row.id))).toEqual(
      [...all.map((row) => Number(row.id))].sort((a, b) => b - a),
    );
    const first = await t.call<{ items: ExchangeRecord[]; nextCursor: string | null }>(
      'plain',
      '/api/v1/exchange/list',
      { accountId, limit: 2 },
      { token },
    );
    expect(first.data.items).toEqual(all.slice(0, 2));
    const second = await t.call<{ items: ExchangeRecord[] }>(
      'plain',
      '/api/v1/exchange/list',
      { accountId, limit: 2, cursor: first.data.nextCursor },
      { token },
    );
    expect(second.data.items).toEqual(all.slice(2, 4));
    const pull = await t.call<{ changes: { exchanges?: { upserts: ExchangeRecord[] } } }>(
      'plain',
      '/api/v1/sync/pull',
      { cursors: {}, accountId },
      { token },
    );
    expect(
      [...(pull.data.changes.exchanges?.upserts ?? [])].sort((a, b) => Number(b.id) - Number(a.id)),
    ).toEqual(all);
    const admin = await t.call<{ items: Array<ExchangeRecord & { userId: string }> }>(
      'plain',
      '/api/admin/exchange/list',
      { accountId, limit: 100 },
      { token: finance },
    );
    expect(admin.data.items.map((row) => row.id)).toEqual(all.map((row) => row.id));
    expect(admin.data.items[0]?.userId).toMatch(/^\d+$/);
    const customerAsOperator = await t.call('plain', '/api/admin/exchange/list', {}, { token });
    expect(customerAsOperator.code).toBe(BodyCode.notLoggedIn);
  });

  test('refusals are in the user’s language', async () => {
    const { priceVersion } = await index();
    const answer = await t.call(
      'plain',
      '/api/v1/exchange/submit',
      { accountId, direction: 'rab_to_usdt', amount: '0.5', priceVersion, tradePassword: TRADE_PASSWORD },
      { token, key: newKey(), lang: 'CN' },
    );
    expect(answer.message).toBe('请输入 1 至 100000 RAB 之间的数量');
  });

  test.runIf(tier === 'postgres')(
    'a price change racing submits never fills at the old price (PostgreSQL)',
    async () => {
      const db = t.server.database.db;
      const old = (await index()).priceVersion;
      // A price change under way (its transaction holds the price's lock, its new version not yet
      // committed): a submit at the old version waits for it, then is refused with the new price.
      let commitChange: () => void = () => undefined;
      const changeLocked = new Promise<void>((locked) => {
        void db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('price:RAB', 0))`);
          await tx.execute(
            sql`insert into price_versions (asset, price, created_at, created_by) values ('RAB', 3000000, now(), 'race')`,
          );
          locked();
          await new Promise<void>((release) => {
            commitChange = release;
          });
        });
      });
      await changeLocked;
      let settled = false;
      const racing = submit({ direction: 'rab_to_usdt', amount: '2', priceVersion: old }).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false); // waiting for the change, not filling at the old price
      commitChange();
      const answer = await racing;
      expect(answer).toMatchObject({ code: BodyCode.conflict, data: { price: '3' } });

      // A fill under way (holding the price's shared lock): a price change waits for it to commit.
      const current = (await index()).priceVersion;
      let finishFill: () => void = () => undefined;
      const fillLocked = new Promise<void>((locked) => {
        void db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended('price:RAB', 0))`);
          locked();
          await new Promise<void>((release) => {
            finishFill = release;
          });
        });
      });
      await fillLocked;
      let changed = false;
      const change = setPrice('4').finally(() => {
        changed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(changed).toBe(false);
      finishFill();
      expect((await change).rabPriceVersion).not.toBe(current);

      // Many submits at one version racing a change: each either fills at that version's price
      // or is refused with the new one; the fills are exactly the rows at that version.
      const version = (await index()).priceVersion;
      const rowsAtVersion = async () => (await exchangeRows()).filter((row) => row.priceVersion === version);
      const before = (await rowsAtVersion()).length;
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, () =>
          submit({ direction: 'usdt_to_rab', amount: '1', priceVersion: version }),
        ),
        setPrice('5'),
      ]);
      const fills = answers.slice(0, 12) as Array<Answer<ExchangeRecord>>;
      for (const fill of fills) {
        if (fill.code === BodyCode.ok) expect(fill.data).toMatchObject({ price: '4', priceVersion: version });
        else expect(fill).toMatchObject({ code: BodyCode.conflict, data: { price: '5' } });
      }
      const filled = fills.filter((fill) => fill.code === BodyCode.ok).length;
      expect((await rowsAtVersion()).length - before).toBe(filled);
      const late = await submit({ direction: 'usdt_to_rab', amount: '1', priceVersion: version });
      expect(late.code).toBe(BodyCode.conflict);
      await expectLedgerOk(t, finance);
    },
  );
});
