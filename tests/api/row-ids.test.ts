/**
 * Ids that are no row ids (found by `npm run fuzz`): the wire takes any short token as an id
 * (`idSchema`), and a few services passed `Number(id)` straight to SQL, so `abc` (NaN) or thirty
 * nines (1e30, beyond bigint) was a database error answered with body code 500. Each such id now
 * names no row: 404, or the route's own refusal of an unknown method.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { availableTiers } from '../helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { TRADE_PASSWORD, withdrawFixtures } from '../helpers/withdraw.js';

const tiers = await availableTiers('row-ids');

const NOT_ROW_IDS = ['abc', '9'.repeat(30), '1e3', '-1', '0x10', '_'];

describe.each(tiers)('ids that are no row ids on %s', (tier) => {
  let t: TestServer;
  const fx = withdrawFixtures(() => t);
  let operatorToken: string;

  beforeAll(async () => {
    t = await startTestServer(tier);
    await fx.addOperator(`row-ids-boss-${tier}@coffer.test`, 'superadmin');
    operatorToken = await fx.adminLogin(`row-ids-boss-${tier}@coffer.test`);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('news update and delete, notice delete and feedback reply answer 404, never 500', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/api/admin/news/update', { title: 'T', summary: 'S', body: 'B' }],
      ['/api/admin/news/delete', {}],
      ['/api/admin/notice/delete', {}],
      ['/api/admin/feedback/reply', { reply: 'Thanks' }],
    ];
    const answers: string[] = [];
    for (const [uri, params] of calls)
      for (const id of NOT_ROW_IDS) {
        const answer = await t.call('plain', uri, { ...params, id }, { token: operatorToken, key: newKey() });
        answers.push(`${uri} ${id}: ${answer.code}`);
      }
    expect(answers.filter((line) => !line.endsWith(': 404'))).toEqual([]);
  });

  test('a payment method delete answers 404 and a withdrawal names the method unknown (400), never 500', async () => {
    const user = await fx.readyUser(`row-ids-user-${tier}@coffer.test`);
    fx.toMorning();
    for (const id of NOT_ROW_IDS) {
      const deleted = await fx.call('/api/v1/user/payment-delete', { id }, user.token);
      expect(deleted.code, `payment-delete ${id}`).toBe(BodyCode.notFound);
      const withdrawal = await fx.call(
        '/api/v1/withdraw/create',
        {
          accountId: user.accountId,
          amount: '10',
          methodId: id,
          googleCode: '123456',
          tradePassword: TRADE_PASSWORD,
        },
        user.token,
      );
      expect(withdrawal, `withdraw/create ${id}`).toMatchObject({
        code: BodyCode.invalidInput,
        data: { field: 'methodId' },
      });
    }
  });
});
