/**
 * `npm run bench:otc`: OTC takes per second on one hot order book on PostgreSQL, with
 * BENCH_CLIENTS concurrent clients (default 8). A scratch database (migrated, dropped after) and
 * an in-process server: two makers list BENCH_OTC_ORDERS splittable orders (half buys, half
 * sells); each client is a taker who, until the time is up, takes BENCH_OTC_VOLUME RAB of a random
 * open order through `/api/v1/otc/take` (the API's checks, the trade password at the test scrypt
 * cost, the order's row lock, the settlement lock and the ledger transfers). It prints takes per
 * second, refusals (an order filled meanwhile: 409) and errors, then checks that every order's
 * escrow is accounted for and `ledger check` passes. It measures and never judges: exit code 1
 * only when a stage could not measure.
 *
 * Environment:
 * - BENCH_SECONDS          seconds of taking (default 15)
 * - BENCH_CLIENTS          concurrent takers (default 8)
 * - BENCH_OTC_ORDERS       orders in the book (default 20)
 * - BENCH_OTC_VOLUME       RAB per take (default 1)
 * - BENCH_TIMEOUT_SECONDS  the bound on the whole run (default 300)
 */
import { sql } from 'drizzle-orm';
import { checkLedger } from '../server/ledger/invariants.js';
import { postgresReachable } from '../tests/helpers/database.js';
import { newKey, startTestServer, type TestServer } from '../tests/helpers/server.js';
import { benchRun, positiveNumber, table } from './report.js';
import { cliContext } from '../server/cli/cli-context.js';

const SECONDS = positiveNumber('BENCH_SECONDS', 15);
const CLIENTS = Math.floor(positiveNumber('BENCH_CLIENTS', 8));
const ORDERS = Math.floor(positiveNumber('BENCH_OTC_ORDERS', 20));
const VOLUME = process.env['BENCH_OTC_VOLUME'] ?? '1';
const BOUND_MS = positiveNumber('BENCH_TIMEOUT_SECONDS', 300) * 1000;
const TRADE_PASSWORD = 'trade123';

const { stage, closers, closeAll, doneLine, run } = benchRun(BOUND_MS);

interface Trader {
  token: string;
  accountId: string;
}

async function trader(t: TestServer, finance: string, email: string): Promise<Trader> {
  const { token } = await t.register('plain', email);
  await t.call(
    'plain',
    '/api/v1/user/bindTradePassword',
    { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
    { token, key: newKey() },
  );
  const accounts = await t.call<{ items: Array<{ id: string }> }>(
    'plain',
    '/api/v1/account/list',
    {},
    { token },
  );
  const accountId = accounts.data.items[0]?.id ?? '';
  for (const asset of ['USDT', 'RAB']) {
    const answer = await t.call(
      'plain',
      '/api/admin/ledger/adjust',
      { accountId, asset, amount: '9000', reason: 'bench funding' },
      { token: finance, key: newKey() },
    );
    if (answer.code !== 200) throw new Error(`funding: ${answer.message}`);
  }
  return { token, accountId };
}

run(async () => {
  if (!(await postgresReachable())) throw new Error('PostgreSQL is not reachable (TEST_DATABASE_URL)');
  const t = await stage('server on a scratch PostgreSQL database', 60_000, () => startTestServer('postgres'));
  if (!t) return;
  closers.set('server', () => t.close());
  const book = await stage(`the book: ${ORDERS} orders of two makers`, 120_000, async () => {
    await t.server.services.operators.create(cliContext(), {
      email: 'bench-finance@coffer.test',
      role: 'finance',
      password: 'secret123',
    });
    const finance = (
      await t.call<{ token: string }>('plain', '/api/admin/auth/login', {
        email: 'bench-finance@coffer.test',
        password: 'secret123',
      })
    ).data.token;
    // Each adjustment here is below the review threshold; RAB is valued at the price set next.
    const makers = [
      await trader(t, finance, 'maker1@bench.test'),
      await trader(t, finance, 'maker2@bench.test'),
    ];
    const price = await t.call(
      'plain',
      '/api/admin/settings/update',
      { rabPriceUsdt: '0.5' },
      { token: finance, key: newKey() },
    );
    if (price.code !== 200) throw new Error(`price: ${price.message}`);
    // Each maker holds 9000 USDT and 9000 RAB: its sells share 8000 RAB, its buys 15000 RAB (7500 USDT and the fee).
    const perSide = Math.max(1, Math.ceil(ORDERS / 4));
    const volumes = { sell: String(Math.floor(8000 / perSide)), buy: String(Math.floor(15000 / perSide)) };
    const orders: Array<{ id: string; price: string }> = [];
    for (let index = 0; index < ORDERS; index += 1) {
      const maker = makers[index % 2] ?? makers[0];
      if (!maker) throw new Error('no maker');
      const side = index % 4 < 2 ? 'sell' : 'buy';
      const answer = await t.call<{ id: string; price: string }>(
        'plain',
        `/api/v1/otc/${side}`,
        {
          accountId: maker.accountId,
          volume: volumes[side],
          price: '0.5',
          splittable: true,
          tradePassword: TRADE_PASSWORD,
        },
        { token: maker.token, key: newKey() },
      );
      if (answer.code !== 200) throw new Error(`listing: ${answer.message}`);
      orders.push(answer.data);
    }
    const takers: Trader[] = [];
    for (let index = 0; index < CLIENTS; index += 1)
      takers.push(await trader(t, finance, `taker${index}@bench.test`));
    return { orders, takers };
  });
  if (!book) return;
  const measured = await stage(
    `takes: ${CLIENTS} clients for ${SECONDS} s`,
    (SECONDS + 60) * 1000,
    async () => {
      const counts = { taken: 0, refused: 0, errors: 0 };
      const until = performance.now() + SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        book.takers.map(async (taker) => {
          while (performance.now() < until) {
            const order = book.orders[Math.floor(Math.random() * book.orders.length)];
            if (!order) continue;
            const answer = await t.call(
              'plain',
              '/api/v1/otc/take',
              {
                accountId: taker.accountId,
                orderId: order.id,
                volume: VOLUME,
                price: order.price,
                tradePassword: TRADE_PASSWORD,
              },
              { token: taker.token, key: newKey() },
            );
            if (answer.code === 200) counts.taken += 1;
            else if ([409, 470].includes(answer.code)) counts.refused += 1;
            else counts.errors += 1;
          }
        }),
      );
      return { ...counts, elapsed: (performance.now() - started) / 1000 };
    },
  );
  if (!measured) return;
  table(
    ['clients', 'orders', 'takes', 'takes/s', 'refused', 'errors'],
    [
      [
        String(CLIENTS),
        String(ORDERS),
        String(measured.taken),
        (measured.taken / measured.elapsed).toFixed(1),
        String(measured.refused),
        String(measured.errors),
      ],
    ],
    [0, 1, 2, 3, 4, 5],
  );
  await stage('escrow and ledger check', 120_000, async () => {
    const db = t.server.database.db;
    const result = (await db.execute(sql`
      select count(*)::text as wrong from otc_orders o left join ledger_holds h on h.id = o.hold_id
       where coalesce(h.remaining, 0) + (select coalesce(sum(amount), 0) from ledger_transfers
               where key like 'otc:' || o.id || ':fill:%' and debit_owner = o.account_id
                 and debit_book = 'held') <> o.escrow`)) as unknown as { rows: Array<{ wrong: string }> }; // pg answers {rows}
    const report = await checkLedger(db, new Date());
    console.log(`orders whose escrow is not held + posted: ${result.rows[0]?.wrong ?? '?'}`);
    console.log(`ledger check: ${report.ok ? 'ok' : JSON.stringify(report.violations).slice(0, 500)}`);
  });
  await closeAll();
  console.log(doneLine());
});
