/**
 * Delivery (trade settlement) records through the API, on PGlite and PostgreSQL:
 * operators (finance or content) publish them one by one or from a CSV file, all lines or none;
 * figures stay exact decimal strings; customers list them in pages and read them offline from
 * the public `delivery` collection. On PostgreSQL, two imports racing over one order number
 * publish it once. The CLI's `delivery import` publishes a file too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { auditLog, deliveryRecords, syncChanges } from '../../server/db/schema.js';
import { withAdminCli } from '../helpers/admin-cli.js';
import { availableTiers } from '../helpers/database.js';
import { operatorToken } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';

const tiers = await availableTiers('delivery-api');

interface DeliveryRecord {
  id: string;
  orderNo: string;
  symbol: string;
  direction: string;
  lots: string;
  leverage: number;
  openPrice: string;
  closePrice: string;
  openTime: string;
  closeTime: string;
  margin: string;
  spread: string;
  profitLoss: string;
  publishedAt: string;
}
interface PullData {
  changes: Record<string, { upserts: Array<Record<string, unknown>>; deletes: string[] }>;
  cursors: Record<string, string>;
}

const HEADER =
  'orderNo,symbol,direction,lots,leverage,openPrice,closePrice,openTime,closeTime,margin,spread,profitLoss';
/** A CSV line of a valid record with order number `orderNo`. */
const line = (orderNo: string, overrides: Partial<Record<string, string>> = {}) => {
  const values: Record<string, string> = {
    orderNo,
    symbol: 'XAUUSD',
    direction: 'buy',
    lots: '0.10',
    leverage: '100',
    openPrice: '2031.45',
    closePrice: '2040.10',
    openTime: '2026-01-02T01:00:00Z',
    closeTime: '2026-01-02T03:30:00Z',
    margin: '203.145',
    spread: '0.25',
    profitLoss: '86.5',
    ...overrides,
  };
  return HEADER.split(',')
    .map((column) => values[column] ?? '')
    .join(',');
};
const csvOf = (...lines: string[]) => [HEADER, ...lines].join('\n');

describe.each(tiers)('delivery records on %s', (tier) => {
  let t: TestServer;
  let content: string;
  let finance: string;
  let support: string;
  let user: string;

  const login = (email: string, role: 'content' | 'finance' | 'support') => operatorToken(t, email, role);
  const add = (params: Record<string, unknown>, token = content, key = newKey()) =>
    t.call<DeliveryRecord>('plain', '/api/admin/hosting/delivery/add', params, { token, key, lang: 'EN' });
  const importCsv = (csv: string, token = content, lang = 'EN') =>
    t.call<{ imported: number; ids: string[] }>(
      'plain',
      '/api/admin/hosting/delivery/import',
      { csv },
      { token, key: newKey(), lang },
    );
  const list = (params: Record<string, unknown> = {}) =>
    t.call<{ items: DeliveryRecord[]; nextCursor: string | null }>(
      'plain',
      '/api/v1/hosting/delivery-list',
      params,
      { token: user, lang: 'EN' },
    );
  const db = () => t.server.database.db;
  const counts = async () => ({
    records: (await db().select({ n: count() }).from(deliveryRecords))[0]?.n,
    audit: (await db().select({ n: count() }).from(auditLog))[0]?.n,
    changes: (await db().select({ n: count() }).from(syncChanges))[0]?.n,
  });
  const record = {
    orderNo: 'D-0001',
    symbol: 'XAUUSD',
    direction: 'sell',
    lots: '1.5000',
    leverage: '200',
    openPrice: '2045.1200',
    closePrice: '2031.00000001',
    openTime: '2026-01-02T09:00:00+08:00',
    closeTime: '2026-01-02T02:15:00Z',
    margin: '1533.84',
    spread: '0.30',
    profitLoss: '-2118.000001',
  };

  beforeAll(async () => {
    t = await startTestServer(tier);
    content = await login(`delivery-content-${tier}@coffer.test`, 'content');
    finance = await login(`delivery-finance-${tier}@coffer.test`, 'finance');
    support = await login(`delivery-support-${tier}@coffer.test`, 'support');
    user = (await t.register('plain', `delivery-user-${tier}@coffer.test`)).token;
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  test('an operator publishes a record: figures kept as exact decimal strings (normalised), times in UTC, money exact to the minor unit', async () => {
    const added = await add(record);
    expect(added.code, added.message).toBe(BodyCode.ok);
    expect(added.message).toBe('Published');
    expect(added.data).toMatchObject({
      orderNo: 'D-0001',
      symbol: 'XAUUSD',
      direction: 'sell',
      lots: '1.5',
      leverage: 200,
      openPrice: '2045.12',
      closePrice: '2031.00000001',
      openTime: '2026-01-02T01:00:00.000Z',
      closeTime: '2026-01-02T02:15:00.000Z',
      margin: '1533.84',
      spread: '0.3',
      profitLoss: '-2118.000001',
    });
    const [row] = await db().select().from(deliveryRecords);
    expect(row?.profitLoss).toBe(-2_118_000_001n);
    expect(row?.margin).toBe(1_533_840_000n);
    expect((await list()).data.items[0]).toEqual(added.data);
  });

  test('a finance operator publishes too; a support operator is refused (403) and a customer cannot publish (401)', async () => {
    expect((await add({ ...record, orderNo: 'D-FIN-1' }, finance)).code).toBe(BodyCode.ok);
    expect((await add({ ...record, orderNo: 'D-SUP-1' }, support)).code).toBe(BodyCode.forbidden);
    expect((await add({ ...record, orderNo: 'D-USR-1' }, user)).code).toBe(BodyCode.notLoggedIn);
  });

  test('an order number is published once: a second record with it is refused (409); a repeated command (same key) publishes once', async () => {
    const again = await add({ ...record, closePrice: '1' });
    expect(again).toMatchObject({ code: BodyCode.conflict, message: 'Order D-0001 is already published' });
    const key = newKey();
    const first = await add({ ...record, orderNo: 'D-KEY-1' }, content, key);
    const repeat = await add({ ...record, orderNo: 'D-KEY-1' }, content, key);
    expect(repeat).toEqual(first);
  });

  test('floats, exponents, zero prices, negative margins and a close before the open are refused (400 naming the field)', async () => {
    const before = await counts();
    const refused: Array<[Record<string, string>, string]> = [
      [{ openPrice: '1e3' }, 'openPrice'],
      [{ openPrice: '0' }, 'openPrice'],
      [{ closePrice: '12.123456789' }, 'closePrice'],
      [{ lots: '0.00001' }, 'lots'],
      [{ lots: '-1' }, 'lots'],
      [{ leverage: '1.5' }, 'leverage'],
      [{ leverage: '0' }, 'leverage'],
      [{ margin: '-1' }, 'margin'],
      [{ margin: '1.0000001' }, 'margin'],
      [{ profitLoss: 'NaN' }, 'profitLoss'],
      [{ spread: '-0.1' }, 'spread'],
      [{ direction: 'long' }, 'direction'],
      [{ openTime: '2026-01-02 10:00' }, 'openTime'],
      [{ openTime: '2026-01-02T10:00:00' }, 'openTime'],
      [{ closeTime: '2026-01-02T00:59:59Z' }, 'closeTime'],
      [{ orderNo: 'D 1' }, 'orderNo'],
    ];
    for (const [change, field] of refused) {
      const answer = await add({ ...record, orderNo: 'D-BAD', ...change });
      expect(answer.code, JSON.stringify(change)).toBe(BodyCode.invalidInput);
      expect(answer.data, JSON.stringify(change)).toEqual({ field });
    }
    const early = await add({ ...record, orderNo: 'D-BAD', closeTime: '2026-01-01T00:00:00Z' });
    expect(early.message).toBe('The close time cannot be before the open time');
    expect(await counts()).toEqual(before);
  });

  test('a CSV import publishes every line (columns in any order, quoted values, CRLF, a byte-order mark)', async () => {
    const columns = HEADER.split(',').reverse();
    const reversed = (text: string) => text.split(',').reverse().join(',');
    const csv = `\uFEFF${columns.join(',')}\r\n${reversed(line('C-1'))}\r\n${reversed(line('C-2', { symbol: '"BTC/USDT"', direction: 'sell' }))}\r\n\r\n`;
    const answer = await importCsv(csv);
    expect(answer.code, answer.message).toBe(BodyCode.ok);
    expect(answer.message).toBe('Imported');
    expect(answer.data.imported).toBe(2);
    const items = (await list({ limit: 2 })).data.items;
    expect(items.map((item) => [item.orderNo, item.symbol, item.direction, item.lots, item.margin])).toEqual([
      ['C-2', 'BTC/USDT', 'sell', '0.1', '203.145'],
      ['C-1', 'XAUUSD', 'buy', '0.1', '203.145'],
    ]);
    expect(answer.data.ids).toEqual(items.map((item) => item.id).reverse());
  });

  test('a CSV file with a bad line is refused clearly, naming the line and the column, and nothing of it is imported', async () => {
    const before = await counts();
    const bad = await importCsv(csvOf(line('E-1'), line('E-2', { openPrice: '2031.4.5' }), line('E-3')));
    expect(bad).toMatchObject({
      code: BodyCode.invalidInput,
      message: 'Line 3: Open price is missing or invalid. Nothing was imported.',
      data: { field: 'csv', line: 3, column: 'openPrice' },
    });
    const chinese = await importCsv(csvOf(line('E-1'), line('E-2', { margin: '' })), content, 'CN');
    expect(chinese.message).toBe('第 3 行：保证金缺失或无效。未导入任何记录。');
    const refusals: Array<[string, number, string]> = [
      [csvOf(line('E-1'), line('E-1')), BodyCode.invalidInput, 'Line 3: order E-1 is already on line 2'],
      [csvOf(line('E-1'), line('C-1')), BodyCode.conflict, 'Line 3: order C-1 is already published'],
      [csvOf(line('E-1'), `${line('E-2')},extra`), BodyCode.invalidInput, 'Line 3 has 13 values'],
      [
        csvOf(line('E-1', { closeTime: '2026-01-01T00:00:00Z' })),
        BodyCode.invalidInput,
        'Line 2: the close time is before',
      ],
      [csvOf(line('E-1', { symbol: '"XAU' })), BodyCode.invalidInput, 'Line 2 of the file is not valid CSV'],
      [HEADER.replace('spread,', ''), BodyCode.invalidInput, "The file's first line must name"],
      [`${HEADER},colour\n${line('E-1')},red`, BodyCode.invalidInput, "The file's first line must name"],
      [HEADER, BodyCode.invalidInput, 'The file holds no records'],
      ['', BodyCode.invalidInput, 'CSV file is required'],
    ];
    for (const [csv, code, message] of refusals) {
      const answer = await importCsv(csv);
      expect(answer.code, message).toBe(code);
      expect(answer.message).toContain(message);
    }
    expect(await counts()).toEqual(before);
  });

  test('the list pages newest published first: every record once, in pages of `limit`, nextCursor null at the end', async () => {
    const imported = await importCsv(csvOf(...Array.from({ length: 25 }, (_, index) => line(`P-${index}`))));
    expect(imported.data.imported).toBe(25);
    const total = (await db().select({ n: count() }).from(deliveryRecords))[0]?.n ?? 0;
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await list({ limit: 10, ...(cursor ? { cursor } : {}) });
      expect(page.code).toBe(BodyCode.ok);
      expect(page.data.items.length).toBeLessThanOrEqual(10);
      seen.push(...page.data.items.map((item) => item.id));
      cursor = page.data.nextCursor;
      pages += 1;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort((a, b) => Number(b) - Number(a)));
    expect(pages).toBe(Math.ceil(total / 10));
    expect((await list({ limit: 101 })).code).toBe(BodyCode.invalidInput);
    expect((await list({ cursor: 'abc' })).code).toBe(BodyCode.invalidInput);
  });

  test('records read offline: the public `delivery` collection, pulled without a token; a withdrawn record is a delete', async () => {
    // A pull delivers only changes below its snapshot's horizon, which on a PostgreSQL server shared
    // with other test files' databases a transaction elsewhere can hold back for a moment: pull again.
    const pull = async (cursors: Record<string, string>, done: (data: PullData) => boolean) => {
      let answer = await t.call<PullData>('plain', '/api/v1/sync/pull', { cursors });
      for (let tries = 0; tries < 100 && !done(answer.data); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await t.call<PullData>('plain', '/api/v1/sync/pull', { cursors });
      }
      return answer;
    };
    const total = (await db().select({ n: count() }).from(deliveryRecords))[0]?.n ?? 0;
    const first = await pull({}, (data) => data.changes['delivery']?.upserts.length === total);
    const upserts = first.data.changes['delivery']?.upserts ?? [];
    expect(upserts).toHaveLength(total);
    const one = upserts.find((item) => item['orderNo'] === 'D-0001');
    expect(one).toMatchObject({ openPrice: '2045.12', profitLoss: '-2118.000001', leverage: 200 });
    const deleteOne = () =>
      t.call(
        'plain',
        '/api/admin/hosting/delivery/delete',
        { id: String(one?.['id']) },
        { token: content, key: newKey() },
      );
    const withdrawn = await deleteOne();
    expect(withdrawn.code).toBe(BodyCode.ok);
    const after = await pull(first.data.cursors, (data) => data.changes['delivery'] !== undefined);
    expect(after.data.changes['delivery']).toEqual({ upserts: [], deletes: [String(one?.['id'])] });
    const missing = await deleteOne();
    expect(missing.code).toBe(BodyCode.notFound);
  });

  test.runIf(tier === 'postgres')(
    'two imports racing over one order number publish it once: one succeeds, the other is refused whole',
    async () => {
      const before = (await db().select({ n: count() }).from(deliveryRecords))[0]?.n ?? 0;
      const results = await Promise.all([
        importCsv(csvOf(line('R-A1'), line('R-SHARED'), line('R-A2'))),
        importCsv(csvOf(line('R-B1'), line('R-SHARED'))),
      ]);
      const codes = results.map((result) => result.code).sort();
      expect(codes).toEqual([BodyCode.ok, BodyCode.conflict].sort());
      const winner = results.find((result) => result.code === BodyCode.ok);
      const after = (await db().select({ n: count() }).from(deliveryRecords))[0]?.n ?? 0;
      expect(after - before).toBe(winner?.data.imported);
    },
  );
});

describe('the CLI', () => {
  test(
    '`delivery import <file.csv>` publishes the file; a file with a bad line publishes nothing and exits 1',
    { timeout: 120_000 },
    () =>
      withAdminCli('coffer-delivery-cli-', async (admin, dataDir) => {
        const good = path.join(dataDir, 'good.csv');
        const bad = path.join(dataDir, 'bad.csv');
        fs.writeFileSync(good, csvOf(line('CLI-1'), line('CLI-2')));
        fs.writeFileSync(bad, csvOf(line('CLI-3'), line('CLI-4', { lots: 'many' })));
        expect((await admin('delivery', 'import', good)).stdout).toContain('2 delivery record(s) published');
        const refused = await admin('delivery', 'import', bad).catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: 1 });
        expect(String((refused as { stderr?: string }).stderr)).toContain(
          'Line 3: lots is missing or invalid. Nothing was imported.',
        );
        await expect(admin('delivery', 'import', good)).rejects.toMatchObject({ code: 1 });
      }),
  );
});
