/**
 * Team fixtures over a test server: members registered through each other's invite
 * codes, each with a trade password, funded by an operator's adjustment and hosting through the
 * API (the 7-day product at 0.003 a day, seeded as product 1); the team job run after the
 * accrual; and, for trees too large for the API, users and their closure rows inserted with
 * set-based SQL (a chain, a fan).
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { z } from 'zod';
import type { HostingCommandData } from '../../contract/api/hosting.js';
import type { IncomeRecord } from '../../contract/api/income.js';
import { minor } from '../../contract/money.js';
import type { Database, Executor } from '../../server/db/database.js';
import { platformBook } from '../../server/ledger/books.js';
import { creditMany } from '../../server/ledger/ledger.js';
import { newKey, type Answer, type TestServer } from './server.js';
import { TRADE_PASSWORD, withdrawFixtures } from './withdraw.js';

export interface Member {
  name: string;
  email: string;
  token: string;
  userId: string;
  accountId: string;
  inviteCode: string;
}

export function teamFixtures(t: () => TestServer, prefix: string) {
  const f = withdrawFixtures(t);
  let finance = '';

  const ok = <T>(answer: Answer<T>): T => {
    expect(answer.code, answer.message).toBe(200);
    return answer.data;
  };

  /** Creates the finance operators the fixtures fund with (once per server). */
  const setUp = async () => {
    [finance] = await f.operators(prefix);
    return finance;
  };

  /** Registers `name` through `parent`'s invite code (the root invite without one), with a trade password. */
  const member = async (name: string, parent?: Member): Promise<Member> => {
    const email = `${prefix}-${name}@example.com`.toLowerCase();
    const { token, userId } = await t().register(
      'plain',
      email,
      'secret123',
      parent?.inviteCode ?? t().rootInvite,
    );
    ok(
      await f.call(
        '/api/v1/user/bindTradePassword',
        { tradePassword: TRADE_PASSWORD, confirmPassword: TRADE_PASSWORD },
        token,
      ),
    );
    const info = ok(
      await t().call<{ inviteCode: string; defaultAccountId: string }>(
        'plain',
        '/api/v1/user/info',
        {},
        { token },
      ),
    );
    return { name, email, token, userId, accountId: info.defaultAccountId, inviteCode: info.inviteCode };
  };

  /** Funds the member's cash and hosts `amount` in a new order of product 1 (7 days at 0.003); the order's id. */
  const host = async (who: Member, amount: string, productId = '1'): Promise<string> => {
    await f.fund(finance, who.accountId, amount);
    const created = ok(
      await t().call<HostingCommandData>(
        'plain',
        '/api/v1/hosting/create',
        { accountId: who.accountId, productId, amount, tradePassword: TRADE_PASSWORD },
        { token: who.token, key: newKey() },
      ),
    );
    return created.order.id;
  };

  /** Adds `amount` to an order (funded first). */
  const addTo = async (who: Member, orderId: string, amount: string) => {
    await f.fund(finance, who.accountId, amount);
    ok(
      await t().call(
        'plain',
        '/api/v1/hosting/add',
        { orderId, amount },
        { token: who.token, key: newKey() },
      ),
    );
  };

  /** The member's team income lines (promotion and management), oldest first. */
  const teamIncome = async (who: Member): Promise<IncomeRecord[]> => {
    const lines: IncomeRecord[] = [];
    for (const type of ['promotion', 'management']) {
      const page = ok(
        await t().call<{ items: IncomeRecord[] }>(
          'plain',
          '/api/v1/income/log',
          { accountId: who.accountId, type, limit: '100' },
          { token: who.token },
        ),
      );
      lines.push(...page.items);
    }
    return lines.sort((a, b) => Number(a.id) - Number(b.id));
  };

  /** Runs the hosting accrual, then the team job, for the current period. */
  const runJobs = async () => {
    const accrual = await t().server.scheduler.runNow('hosting-accrual');
    const team = await t().server.scheduler.runNow('team-income');
    return { accrual, team };
  };

  return { f, ok, setUp, member, host, addTo, teamIncome, runJobs, finance: () => finance };
}

const idRowsSchema = z.object({ rows: z.array(z.object({ id: z.union([z.string(), z.number()]) })) });

/**
 * Inserts `count` users below `parentId` (or as roots), with main accounts, opened books and
 * closure rows, in a handful of set-based statements:
 * - `chain`: each new user refers the next (depth grows by one each);
 * - `fan`: every new user is a direct member of the parent.
 * Answers the new users' ids in order. E-mails are `<tag>-<n>@bulk.test`.
 */
export async function insertTree(
  db: Executor,
  input: { shape: 'chain' | 'fan'; count: number; parentId: number | null; tag: string; at: Date },
): Promise<number[]> {
  const created = idRowsSchema.parse(
    await db.execute(sql`
      insert into users (email, password_hash, nickname, avatar, invite_code, referrer_id, lang, created_at, password_changed_at)
      select ${input.tag} || '-' || g || '@bulk.test', 'x', 'member ' || g, '/avatars/01.svg',
             upper(${input.tag}) || 'I' || g, null, 'en', ${input.at}::timestamptz, ${input.at}::timestamptz
        from generate_series(1, ${input.count}) g
       order by g
      returning id`),
  );
  const ids = created.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  const first = ids[0] ?? 0;
  const last = ids[ids.length - 1] ?? 0;
  await db.execute(sql`
    update users set referrer_id = case
        when ${input.shape} = 'fan' or id = ${first} then ${input.parentId}::bigint
        else id - 1 end
     where id between ${first} and ${last}`);
  await db.execute(sql`
    insert into accounts (user_id, kind, name, created_at)
    select id, 'main', 'Main', ${input.at}::timestamptz from users where id between ${first} and ${last}`);
  await db.execute(sql`
    update users u set default_account_id = a.id from accounts a
     where a.user_id = u.id and u.id between ${first} and ${last}`);
  await db.execute(sql`
    insert into ledger_balances (owner, book, asset, slot, balance)
    select a.id, book, asset, 0, 0 from accounts a, unnest(array['cash', 'hosting', 'held']) book,
           unnest(array['USDT', 'RAB']) asset
     where a.user_id between ${first} and ${last}`);
  if (input.shape === 'fan') {
    // Each new user: under the parent (depth 1) and under each of the parent's ancestors.
    if (input.parentId !== null)
      await db.execute(sql`
        insert into referral_paths (ancestor_id, descendant_id, depth)
        select ${input.parentId}::bigint, g, 1 from generate_series(${first}::bigint, ${last}::bigint) g
        union all
        select r.ancestor_id, g, r.depth + 1 from referral_paths r, generate_series(${first}::bigint, ${last}::bigint) g
         where r.descendant_id = ${input.parentId}`);
  } else {
    // Within the chain: every pair (a < d); above it: the parent and its ancestors over each.
    await db.execute(sql`
      insert into referral_paths (ancestor_id, descendant_id, depth)
      select a, d, d - a from generate_series(${first}::bigint, ${last}::bigint) d,
             generate_series(${first}::bigint, ${last}::bigint) a where a < d`);
    if (input.parentId !== null)
      await db.execute(sql`
        insert into referral_paths (ancestor_id, descendant_id, depth)
        select ${input.parentId}::bigint, g, g - ${first} + 1 from generate_series(${first}::bigint, ${last}::bigint) g
        union all
        select r.ancestor_id, g, r.depth + g - ${first} + 1
          from referral_paths r, generate_series(${first}::bigint, ${last}::bigint) g
         where r.descendant_id = ${input.parentId}`);
  }
  return ids;
}

/**
 * Credits each bulk account's hosting book with its USDT amount (minor units) from the platform's
 * adjustments, in one transaction: the principal the scale tests host, each line keyed `key`.
 */
export async function creditHosting(
  db: Database,
  credits: ReadonlyArray<{ key: string; accountId: number; amount: bigint; refId: string }>,
  at: Date,
): Promise<void> {
  await db.transaction((tx) =>
    creditMany(
      tx,
      platformBook('adjustments'),
      'hosting',
      'USDT',
      credits.map(({ key, accountId, amount, refId }) => ({
        key,
        kind: 'data_adjustment',
        accountId,
        amount: minor(amount),
        ref: { table: 'test', id: refId },
      })),
      at,
    ),
  );
}
