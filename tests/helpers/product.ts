/**
 * Fixtures for the product tests (hosting, mining machines) over a test server: the local clock
 * of the operator's zone (Asia/Shanghai, UTC+8 all year, the default COFFER_TIMEZONE), a user
 * ready to buy (trade password bound, main account funded), and its assets and income log.
 * Every call goes through the public API, as the tests' own calls do.
 */
import { beforeAll, expect } from 'vitest';
import type { IncomeRecord } from '../../contract/api/income.js';
import { newKey, type Answer, type TestServer } from './server.js';
import { TRADE_PASSWORD, withdrawFixtures } from './withdraw.js';

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;
/** Asia/Shanghai (the default COFFER_TIMEZONE) is UTC+8 all year. */
export const ZONE_OFFSET_MS = 8 * 3_600_000;

export interface ProductUser {
  token: string;
  userId: string;
  accountId: string;
}

/** The answer's data, after checking its code is 200. */
export const ok = <T>(answer: Answer<T>): T => {
  expect(answer.code, answer.message).toBe(200);
  return answer.data;
};

/** Moves `t`'s clock in local (Asia/Shanghai) days; every function reads the clock when called. */
export function localClock(t: () => TestServer) {
  /** The local date of the clock, YYYY-MM-DD, `days` days on. */
  const localDate = (days = 0) =>
    new Date(t().clock.now().getTime() + ZONE_OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);

  /** Moves the clock forward to the next local `hh:mm`. */
  const toLocal = (time: string) => {
    const [hours = 0, minutes = 0] = time.split(':').map(Number);
    const local = t().clock.now().getTime() + ZONE_OFFSET_MS;
    let target = Math.floor(local / DAY_MS) * DAY_MS + (hours * 60 + minutes) * MINUTE_MS;
    if (target <= local) target += DAY_MS;
    t().clock.advance((target - local) / 1000);
  };

  /** Moves the clock to the next local midnight, plus `minutes`. */
  const toNextMidnight = (minutes = 0) => {
    const local = t().clock.now().getTime() + ZONE_OFFSET_MS;
    const target = (Math.floor(local / DAY_MS) + 1) * DAY_MS + minutes * MINUTE_MS;
    t().clock.advance((target - local) / 1000);
  };

  /**
   * A daily job's catch-up: one line of `amount` for each local day from `first` to yesterday
   * (newest first, as the log lists them), written oldest first (the ids rise with the dates).
   */
  const expectCaughtUp = (
    lines: readonly Pick<IncomeRecord, 'id' | 'earningsDate' | 'amount'>[],
    first: string,
    amount: string,
  ) => {
    const days = [localDate(-1)];
    while (days[days.length - 1]! > first) days.push(localDate(-days.length - 1));
    expect(lines.map((line) => [line.earningsDate, line.amount])).toEqual(days.map((day) => [day, amount]));
    expect([...lines].sort((a, b) => Number(a.id) - Number(b.id)).map((line) => line.earningsDate)).toEqual(
      days.reverse(),
    );
  };

  return { localDate, toLocal, toNextMidnight, expectCaughtUp };
}

/**
 * Users of the product routes: `prefix` names their e-mails (one per call, numbered), `finance`
 * is the operator who funds them.
 */
export function productUsers<CommandData = Record<string, unknown>>(
  t: () => TestServer,
  f: ReturnType<typeof withdrawFixtures>,
  prefix: string,
  finance: () => string,
) {
  let users = 0;

  /** A registered user with a trade password (unless `trade` is false), its main account funded with `cash` USDT. */
  const user = async (cash = '0', trade = true): Promise<ProductUser> => {
    users += 1;
    const { token, userId } = await t().register('plain', `${prefix}-${users}@example.com`);
    if (trade) {
      const bound = await f.call(
        '/api/v1/user/bindTradePassword',
        { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
        token,
      );
      expect(bound.code, bound.message).toBe(200);
    }
    const accounts = await t().call<{ items: Array<{ id: string }> }>(
      'plain',
      '/api/v1/account/list',
      {},
      { token },
    );
    const accountId = accounts.data.items[0]?.id ?? '';
    if (cash !== '0') await f.fund(finance(), accountId, cash);
    return { token, userId, accountId };
  };

  /** The user's assets (`/api/v1/user/assets`). */
  const assets = async (who: { token: string; accountId: string }) =>
    (
      await t().call<{ cash: string; hosting: string }>(
        'plain',
        '/api/v1/user/assets',
        { accountId: who.accountId },
        { token: who.token },
      )
    ).data;

  /** The user's income log, up to 100 lines, filtered by `params`. */
  const income = async (who: { token: string; accountId: string }, params: Record<string, unknown> = {}) =>
    (
      await t().call<{ items: IncomeRecord[]; nextCursor: string | null }>(
        'plain',
        '/api/v1/income/log',
        { accountId: who.accountId, limit: '100', ...params },
        { token: who.token, lang: 'EN' },
      )
    ).data;

  /** A call of `uri` as `who`, in English, with a new idempotency key unless `key` is given. */
  const call = <T = CommandData>(
    who: { token: string },
    uri: string,
    params: Record<string, unknown>,
    key = newKey(),
  ) => t().call<T>('plain', uri, params, { token: who.token, key, lang: 'EN' });

  return { user, assets, income, call };
}

/**
 * What a product test file works with on `t`: the withdrawal fixtures, a finance operator set up
 * by a beforeAll registered here (so call this after whatever starts `t`), users named by `prefix`
 * whom that operator funds, and the local clock.
 */
export function productFixtures<CommandData = Record<string, unknown>>(t: () => TestServer, prefix: string) {
  const f = withdrawFixtures(t);
  let financeOperator = '';
  beforeAll(async () => {
    [financeOperator] = await f.operators(prefix);
  });
  const finance = () => financeOperator;
  return { f, finance, ...productUsers<CommandData>(t, f, prefix, finance), ...localClock(t) };
}
