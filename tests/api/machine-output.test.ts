/**
 * The daily machine output job against independent arithmetic, through the API on
 * PGlite and PostgreSQL, as a property test over random figures (fast-check): machines of random
 * hash power and daily output per T, bought in random quantities at a random minute, run over
 * their whole term (the job run once at the end, catching every day up, or once a day), pay
 * exactly days × floor(quantity × hashPower × dailyOutput) — each day's line that floor — then
 * expire; running the job again pays nothing more. `ledger check` holds after the cases.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { AdminMachine, MachineCommandData, MachineIndexData } from '../../contract/api/machine.js';
import { moneyText } from '../../contract/money.js';
import { availableTiers } from '../helpers/database.js';
import { ok, productFixtures } from '../helpers/product.js';
import { newKey, useTestServer } from '../helpers/server.js';
import { TRADE_PASSWORD } from '../helpers/withdraw.js';

const tiers = await availableTiers('machine-output');

/** `units / 10^scale` as a plain decimal. */
function decimal(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

describe.each(tiers)('the machine output job on %s', (tier) => {
  const t = useTestServer(tier);
  const { f, finance, toNextMidnight, ...users } = productFixtures(() => t, `machine-output-${tier}`);

  const outputNow = () =>
    t.server.database.db.transaction((tx) => t.server.services.machineOutput.run(tx, t.clock.now()));

  test('a whole term pays days × floor(quantity × hashPower × dailyOutput) to the minor unit, whether caught up at the end or paid daily; then it expires (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 1_000_000n * 1_000_000n }), // millionths of a T
        fc.bigInt({ min: 1n, max: 1_000n * 10_000_000_000n }), // 10^-10 USDT per T a day
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 1439 }), // when in the day it is bought
        fc.boolean(), // run the job daily, or once after the term
        async (hpUnits, outputUnits, quantity, days, minuteOfDay, daily) => {
          const machine = ok(
            await f.asFinance<AdminMachine>(finance(), '/api/admin/machine/add', {
              name: 'property machine',
              hashPower: decimal(hpUnits, 6),
              price: '0.01',
              days: String(days),
              dailyOutput: decimal(outputUnits, 10),
            }),
          );
          const { token, accountId } = await users.user('1');
          toNextMidnight(minuteOfDay);
          const bought = ok(
            await t.call<MachineCommandData>(
              'plain',
              '/api/v1/machine/buy',
              {
                accountId,
                machineId: machine.id,
                quantity: String(quantity),
                payWith: 'usdt',
                tradePassword: TRADE_PASSWORD,
              },
              { token, key: newKey() },
            ),
          );
          // The oracle: hpUnits / 10^6 T × outputUnits / 10^10 USDT × 10^6 minor units.
          const perDay = (BigInt(quantity) * hpUnits * outputUnits) / 10_000_000_000n;
          expect(bought.machine.holdingDailyOutput).toBe(moneyText(perDay));
          for (let day = 0; day <= days + 1; day += 1) {
            toNextMidnight(1);
            if (daily) await outputNow();
          }
          await outputNow();
          const lines = (await users.income({ token, accountId }, { type: 'mining_machine' })).items;
          expect(lines).toHaveLength(perDay > 0n ? days : 0);
          for (const line of lines)
            expect(line).toMatchObject({ amount: moneyText(perDay), status: 'arrived' });
          const holding = (
            await t.call<MachineIndexData>('plain', '/api/v1/machine/index', { accountId }, { token })
          ).data.items[0];
          expect(holding).toMatchObject({
            status: 'expired',
            paidDays: days,
            daysLeft: 0,
            earned: moneyText(perDay * BigInt(days)),
          });
          const cash = (await users.assets({ token, accountId })).cash;
          expect(cash).toBe(moneyText(1_000_000n - 10_000n * BigInt(quantity) + perDay * BigInt(days)));
          // The job again: nothing more for this holding.
          await outputNow();
          const after = (await users.income({ token, accountId }, { type: 'mining_machine' })).items;
          expect(after).toHaveLength(lines.length);
        },
      ),
      { numRuns: 8 },
    );
    await f.expectLedgerOk(finance());
  });
});
