/**
 * Mining machines and tickets through the API, on PGlite and PostgreSQL: the seeded
 * machines and the operators' add, update and disable; buying with USDT (470 when short) and with
 * tickets (a ticket used once, also when buys race); renting; another user's account (403);
 * exactly-once; the daily output job (a term paid to the closed form, a re-run paying nothing
 * more, a missed day caught up, an expired machine earning nothing more); tickets and holdings
 * readable by pull; and `ledger check` after every step that moves money.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { auditLog } from '../../server/db/schema.js';
import {
  machineRecordSchema,
  ownedMachineRecordSchema,
  ticketRecordSchema,
  type AdminMachine,
  type Machine,
  type MachineCommandData,
  type MachineIndexData,
  type TicketIssueData,
  type TicketListData,
} from '../../contract/api/machine.js';
import { BodyCode } from '../../contract/codes.js';
import { moneyText, parseMoney } from '../../contract/money.js';
import { availableTiers } from '../helpers/database.js';
import { DAY_MS, ok, productFixtures, type ProductUser } from '../helpers/product.js';
import { newKey, useTestServer } from '../helpers/server.js';
import { TRADE_PASSWORD } from '../helpers/withdraw.js';
import { SEEDED_STARTER_MINER, TWO_STARTER_MINERS_BOUGHT } from '../helpers/seeded-catalogue.js';

const tiers = await availableTiers('machine-api');

type User = ProductUser;

describe.each(tiers)('mining machines on %s', (tier) => {
  const t = useTestServer(tier);
  const {
    f,
    finance,
    user: machineUser,
    assets,
    income,
    call,
    localDate,
    toLocal,
    expectCaughtUp,
  } = productFixtures<MachineCommandData>(() => t, `machine-${tier}`);

  // ---- helpers ----

  const buy = (user: User, machineId: string, quantity: number, payWith: 'usdt' | 'ticket', key = newKey()) =>
    call(
      user,
      '/api/v1/machine/buy',
      {
        accountId: user.accountId,
        machineId,
        quantity: String(quantity),
        payWith,
        tradePassword: TRADE_PASSWORD,
      },
      key,
    );

  const issue = async (user: User, count: number) =>
    ok(
      await f.asFinance<TicketIssueData>(finance(), '/api/admin/ticket/issue', {
        accountIds: user.accountId,
        count: String(count),
        reason: 'test tickets',
      }),
    );

  const addMachine = async (fields: Record<string, unknown>) =>
    ok(
      await f.asFinance<AdminMachine>(finance(), '/api/admin/machine/add', {
        name: 'test machine',
        hashPower: '10',
        price: '100',
        days: '3',
        dailyOutput: '0.5',
        ...fields,
      }),
    );

  /** The first 100 of a user's list at `uri` for their account, `params` added. */
  const listOf = async <T>(uri: string, user: User, params: Record<string, unknown>) =>
    ok(
      await t.call<T>(
        'plain',
        uri,
        { accountId: user.accountId, limit: '100', ...params },
        { token: user.token },
      ),
    );

  const index = (user: User, params: Record<string, unknown> = {}) =>
    listOf<MachineIndexData>('/api/v1/machine/index', user, params);

  const ticketsOf = (user: User, params: Record<string, unknown> = {}) =>
    listOf<TicketListData>('/api/v1/user/tickets', user, params);

  const miningIncome = async (user: User) => (await income(user, { type: 'mining_machine' })).items;

  /** The scheduler's run of the output job for the period of now. */
  const runJob = () => t.server.scheduler.runNow('machine-output');
  /** The job's work itself at the clock's now, outside the scheduler's once-per-period gate. */
  const outputNow = () =>
    t.server.database.db.transaction((tx) => t.server.services.machineOutput.run(tx, t.clock.now()));

  // ---- machines ----

  test('machine/list offers the three seeded machines in the request’s language; info names one; an unknown one is 404 naming id', async () => {
    const user = await machineUser();
    const list = ok(
      await t.call<{ items: Machine[] }>(
        'plain',
        '/api/v1/machine/list',
        {},
        { token: user.token, lang: 'EN' },
      ),
    );
    expect(list.items.slice(0, 3)).toEqual([
      expect.objectContaining({
        id: '1',
        name: 'Starter miner',
        ...SEEDED_STARTER_MINER,
      }),
      expect.objectContaining({ id: '2', name: 'Standard miner', hashPower: '50', machineDailyOutput: '9' }),
      expect.objectContaining({
        id: '3',
        name: 'Pro miner',
        hashPower: '120.5',
        dailyOutput: '0.0755',
        machineDailyOutput: '9.09775',
        rentPrice: null,
      }),
    ]);
    const zh = ok(await t.call<Machine>('plain', '/api/v1/machine/info', { id: '2' }, { token: user.token }));
    expect(zh).toMatchObject({
      id: '2',
      name: '标准矿机',
      names: expect.objectContaining({ en: 'Standard miner' }),
    });
    const unknown = await t.call(
      'plain',
      '/api/v1/machine/info',
      { id: '999' },
      { token: user.token, lang: 'EN' },
    );
    expect(unknown).toMatchObject({ code: 404, data: { field: 'id' } });
  });

  test('operators add, update and disable machines (finance only); a disabled machine is no longer offered nor bought, its holdings earn on', async () => {
    const added = await addMachine({
      name: { en: 'Ops miner', 'zh-Hans': '运营矿机' },
      hashPower: '12.50',
      price: '250',
      ticketPrice: '3',
      days: '10',
      dailyOutput: '0.123',
      rentPrice: '2.5',
    });
    expect(added).toMatchObject({
      name: 'Ops miner',
      hashPower: '12.5',
      price: '250',
      ticketPrice: 3,
      days: 10,
      dailyOutput: '0.123',
      machineDailyOutput: '1.5375',
      rentPrice: '2.5',
      status: 'active',
      updatedBy: expect.stringMatching(/^operator:\d+$/),
    });
    const updated = ok(
      await f.asFinance<AdminMachine>(finance(), '/api/admin/machine/update', {
        id: added.id,
        price: '260',
        rentPrice: '0',
      }),
    );
    expect(updated).toMatchObject({ price: '260', rentPrice: null, hashPower: '12.5' });
    const [audited] = await t.server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'machine.update'), eq(auditLog.target, added.id)));
    expect(audited?.detail).toEqual({
      names: expect.objectContaining({ en: 'Ops miner', 'zh-Hans': '运营矿机' }),
      hashPower: '12.5',
      price: '260',
      ticketPrice: 3,
      days: 10,
      dailyOutput: '0.123',
      rentPrice: null,
      status: 'active',
    });

    const support = `machine-support-${tier}@coffer.test`;
    await f.addOperator(support, 'support');
    const refused = await f.asFinance(support, '/api/admin/machine/add', {
      name: 'x',
      hashPower: '1',
      price: '1',
      days: '1',
      dailyOutput: '1',
    });
    expect(refused.code).toBe(BodyCode.forbidden);

    const bad = await f.asFinance(finance(), '/api/admin/machine/add', {
      name: 'x',
      hashPower: '-1',
      price: '1',
      days: '1',
      dailyOutput: '1',
    });
    expect(bad).toMatchObject({ code: 400, data: { field: 'hashPower' } });

    const user = await machineUser('1000');
    ok(await buy(user, added.id, 1, 'usdt'));
    ok(await f.asFinance(finance(), '/api/admin/machine/disable', { id: added.id }));
    const list = ok(
      await t.call<{ items: Machine[] }>('plain', '/api/v1/machine/list', {}, { token: user.token }),
    );
    expect(list.items.map((item) => item.id)).not.toContain(added.id);
    expect(await buy(user, added.id, 1, 'usdt')).toMatchObject({ code: 404, data: { field: 'machineId' } });
    toLocal('00:05');
    toLocal('00:05');
    await outputNow();
    expect((await index(user)).items[0]).toMatchObject({
      machineId: added.id,
      paidDays: 1,
      earned: '1.5375',
    });
    await f.expectLedgerOk(finance());
  });

  // ---- buying with USDT ----

  test('buying with USDT takes price × quantity from cash (kind mining_machine, to fee revenue); a repeat of the key moves nothing; short cash is 470', async () => {
    const user = await machineUser('250');
    const key = newKey();
    const bought = ok(await buy(user, '1', 2, 'usdt', key));
    expect(bought.tickets).toEqual([]);
    expect(bought.machine).toMatchObject({
      accountId: user.accountId,
      machineId: '1',
      names: expect.objectContaining({ en: 'Starter miner' }),
      ...TWO_STARTER_MINERS_BOUGHT,
      paidDays: 0,
      daysLeft: 30,
      price: '200',
      tickets: 0,
      status: 'active',
      earned: '0',
    });
    expect(ownedMachineRecordSchema.parse(bought.machine)).toEqual(bought.machine);
    // It earns from the local midnight after it was bought, for 30 local days.
    expect(
      new Date(bought.machine.earnFrom).getTime() - new Date(bought.machine.startAt).getTime(),
    ).toBeLessThanOrEqual(DAY_MS);
    expect(new Date(bought.machine.endAt).getTime() - new Date(bought.machine.earnFrom).getTime()).toBe(
      30 * DAY_MS,
    );
    expect((await assets(user)).cash).toBe('50');

    const again = await buy(user, '1', 2, 'usdt', key);
    expect(again.data).toEqual(bought);
    expect((await assets(user)).cash).toBe('50');

    const records = ok(
      await t.call<{ items: Array<{ kind: string; amount: string; book: string }> }>(
        'plain',
        '/api/v1/wallet/records',
        { accountId: user.accountId, kind: 'mining_machine' },
        { token: user.token },
      ),
    );
    expect(records.items).toEqual([
      expect.objectContaining({ kind: 'mining_machine', amount: '-200', book: 'cash' }),
    ]);

    const short = await buy(user, '1', 1, 'usdt');
    expect(short).toMatchObject({
      code: BodyCode.insufficientBalance,
      message: 'Insufficient available balance',
    });
    expect((await assets(user)).cash).toBe('50');
    expect((await index(user)).items).toHaveLength(1);
    await f.expectLedgerOk(finance());
  });

  test('buy refusals in order: 403 for another user’s account, 404 for an unknown machine, 300 without a trade password, 400 on a wrong one, 400 on quantity outside 1 to 100', async () => {
    const owner = await machineUser('1000');
    const other = await machineUser('1000');
    const foreign = await call(other, '/api/v1/machine/buy', {
      accountId: owner.accountId,
      machineId: '1',
      quantity: '1',
      payWith: 'usdt',
      tradePassword: TRADE_PASSWORD,
    });
    expect(foreign).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
    expect(await buy(owner, '999', 1, 'usdt')).toMatchObject({ code: 404, data: { field: 'machineId' } });
    const wrong = await call(owner, '/api/v1/machine/buy', {
      accountId: owner.accountId,
      machineId: '1',
      quantity: '1',
      payWith: 'usdt',
      tradePassword: 'not-the-one',
    });
    expect(wrong).toMatchObject({ code: 400, data: { field: 'tradePassword' } });
    for (const quantity of ['0', '101', '1.5', '-1', 'two'])
      expect(await buy(owner, '1', quantity as unknown as number, 'usdt')).toMatchObject({
        code: 400,
        data: { field: 'quantity' },
      });
    const noTrade = await machineUser('1000', false);
    expect(await buy(noTrade, '1', 1, 'usdt')).toMatchObject({ code: BodyCode.tradePasswordNotSet });
    // Reads of another user's account are 403 too.
    for (const uri of ['/api/v1/machine/index', '/api/v1/user/tickets']) {
      const read = await t.call('plain', uri, { accountId: owner.accountId }, { token: other.token });
      expect(read).toMatchObject({ code: BodyCode.forbidden, data: { field: 'accountId' } });
    }
    expect((await assets(owner)).cash).toBe('1000');
    await f.expectLedgerOk(finance());
  });

  // ---- tickets ----

  test('buying with tickets uses ticketPrice × quantity of them once, oldest first; too few is 470; a machine not sold for tickets is 409', async () => {
    const user = await machineUser();
    const issued = await issue(user, 12);
    expect(issued).toMatchObject({ count: 12, accountIds: [user.accountId], total: 12 });
    let list = await ticketsOf(user);
    expect(list.available).toBe(12);
    expect(list.items).toHaveLength(12);
    expect(list.items[0]).toMatchObject({
      status: 'available',
      source: 'operator',
      memo: 'test tickets',
      usedAt: null,
    });

    const bought = ok(await buy(user, '2', 2, 'ticket')); // 5 tickets each
    expect(bought.machine).toMatchObject({ payWith: 'ticket', quantity: 2, price: '0', tickets: 10 });
    expect(bought.tickets).toHaveLength(10);
    const oldest = list.items.slice(-10).map((ticket) => ticket.id);
    expect(bought.tickets.map((ticket) => ticket.id).sort()).toEqual([...oldest].sort());
    for (const ticket of bought.tickets)
      expect(ticket).toMatchObject({ status: 'used', usedFor: bought.machine.id });

    list = await ticketsOf(user);
    expect(list.available).toBe(2);
    expect((await ticketsOf(user, { status: 'used' })).items).toHaveLength(10);

    const short = await buy(user, '2', 1, 'ticket');
    expect(short).toMatchObject({ code: BodyCode.insufficientBalance, data: null });
    expect(short.message).toBe('Not enough tickets: this needs 5, and 2 are available');
    expect((await ticketsOf(user)).available).toBe(2);

    const notForTickets = await addMachine({ ticketPrice: '0' });
    expect(await buy(user, notForTickets.id, 1, 'ticket')).toMatchObject({
      code: BodyCode.conflict,
      data: { field: 'payWith' },
    });
    await f.expectLedgerOk(finance());
  });

  test('racing buys with tickets: each ticket pays for one machine only (one ticket, eight buys: one wins, seven get 470)', async () => {
    const user = await machineUser();
    await issue(user, 1);
    const answers = await Promise.all(Array.from({ length: 8 }, () => buy(user, '1', 1, 'ticket')));
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === BodyCode.insufficientBalance)).toHaveLength(7);
    expect((await index(user)).items).toHaveLength(1);
    const tickets = await ticketsOf(user);
    expect(tickets).toMatchObject({ available: 0, items: [expect.objectContaining({ status: 'used' })] });
    await f.expectLedgerOk(finance());
  });

  test('racing buys with tickets of several each: five tickets, three buys of two: two win, none shares a ticket, one is left', async () => {
    const user = await machineUser();
    const machine = await addMachine({ ticketPrice: '2' });
    await issue(user, 5);
    const answers = await Promise.all(Array.from({ length: 3 }, () => buy(user, machine.id, 1, 'ticket')));
    const won = answers.filter((answer) => answer.code === 200).map((answer) => answer.data);
    expect(won).toHaveLength(2);
    expect(answers.filter((answer) => answer.code === BodyCode.insufficientBalance)).toHaveLength(1);
    const used = won.flatMap((data) => data.tickets.map((ticket) => ticket.id));
    expect(new Set(used).size).toBe(4);
    expect((await ticketsOf(user)).available).toBe(1);
    expect((await ticketsOf(user, { status: 'used' })).items.map((ticket) => ticket.usedFor).sort()).toEqual(
      won.flatMap((data) => [data.machine.id, data.machine.id]).sort(),
    );
  });

  // ---- renting ----

  test('renting takes rentPrice × days × quantity from cash and earns for the days rented; beyond the term is 400 on days; a machine not for rent is 409', async () => {
    const user = await machineUser('100');
    const rented = ok(
      await call(user, '/api/v1/machine/rent', {
        accountId: user.accountId,
        machineId: '1',
        days: '4',
        quantity: '2',
        tradePassword: TRADE_PASSWORD,
      }),
    );
    expect(rented.machine).toMatchObject({
      acquisition: 'rent',
      payWith: 'usdt',
      quantity: 2,
      days: 4,
      daysLeft: 4,
      price: '28',
      holdingDailyOutput: '7.2',
    });
    expect((await assets(user)).cash).toBe('72');
    const tooLong = await call(user, '/api/v1/machine/rent', {
      accountId: user.accountId,
      machineId: '1',
      days: '31',
      tradePassword: TRADE_PASSWORD,
    });
    expect(tooLong).toMatchObject({ code: 400, data: { field: 'days' } });
    expect(tooLong.message).toBe("Days must be from 1 to 30 (the machine's term)");
    const notForRent = await call(user, '/api/v1/machine/rent', {
      accountId: user.accountId,
      machineId: '3',
      days: '1',
      tradePassword: TRADE_PASSWORD,
    });
    expect(notForRent).toMatchObject({ code: BodyCode.conflict, data: { field: 'machineId' } });
    const short = await call(user, '/api/v1/machine/rent', {
      accountId: user.accountId,
      machineId: '2',
      days: '10',
      tradePassword: TRADE_PASSWORD,
    });
    expect(short.code).toBe(BodyCode.insufficientBalance);
    expect((await assets(user)).cash).toBe('72');
    await f.expectLedgerOk(finance());
  });

  // ---- the daily job ----

  test('a whole term pays days × floor(quantity × hashPower × dailyOutput) as mining_machine income, then the machine expires and earns nothing more; a re-run pays nothing', async () => {
    toLocal('10:00');
    const user = await machineUser('1000');
    const machine = await addMachine({ hashPower: '3.3', dailyOutput: '0.0333333', days: '3' });
    const bought = ok(await buy(user, machine.id, 7, 'usdt'));
    const daily = (7n * 33n * 333_333n * 1_000_000n) / (10n * 10_000_000n); // floor(7 × 3.3 × 0.0333333) in minor units
    expect(bought.machine.holdingDailyOutput).toBe(moneyText(daily));
    const first = localDate(1);
    toLocal('00:01');
    expect((await runJob()).status).toBe('done'); // the purchase day earns nothing
    expect((await runJob()).status).toBe('already_done');
    expect(await miningIncome(user)).toEqual([]);
    toLocal('00:01'); // the first earning day ended
    await runJob();
    let lines = await miningIncome(user);
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'mining_machine',
        amount: moneyText(daily),
        earningsDate: first,
        status: 'arrived',
        ref: { table: 'owned_machines', id: bought.machine.id },
      }),
    ]);
    toLocal('00:01');
    toLocal('00:01');
    await runJob(); // days 2 and 3: the term is over
    lines = await miningIncome(user);
    expect(lines).toHaveLength(3);
    const holding = (await index(user)).items[0];
    expect(holding).toMatchObject({
      status: 'expired',
      paidDays: 3,
      daysLeft: 0,
      earned: moneyText(daily * 3n),
    });
    expect((await assets(user)).cash).toBe(moneyText(parseMoney('300') + daily * 3n));
    // Expired: later days pay nothing, re-runs neither.
    toLocal('00:01');
    expect((await runJob()).status).toBe('done');
    await outputNow();
    expect(await miningIncome(user)).toHaveLength(3);
    expect((await index(user)).items[0]).toEqual(holding);
    expect((await assets(user)).cash).toBe(moneyText(parseMoney('300') + daily * 3n));
    await f.expectLedgerOk(finance());
  });

  test('days missed while the job did not run are caught up by the next run, each day once, oldest first; index shows days left and what was earned', async () => {
    toLocal('09:30');
    const user = await machineUser('500');
    const bought = ok(await buy(user, '1', 1, 'usdt'));
    const first = localDate(1);
    for (let day = 0; day < 4; day += 1) toLocal('00:05'); // three earning days pass with no run
    expect((await runJob()).status).toBe('done');
    const lines = await miningIncome(user);
    expectCaughtUp(lines, first, '3.6');
    const shown = await index(user);
    expect(shown.items[0]).toMatchObject({
      id: bought.machine.id,
      paidDays: 3,
      daysLeft: 27,
      earned: '10.8',
      status: 'active',
    });
    expect(shown).toMatchObject({ activeHashPower: '10', activeDailyOutput: '3.6', totalEarned: '10.8' });
    await outputNow();
    expect(await miningIncome(user)).toHaveLength(3);
    await f.expectLedgerOk(finance());
  });

  // ---- sync ----

  test('holdings, tickets and the machines on offer are readable by pull (owned_machines and tickets for the account, machines public)', async () => {
    const user = await machineUser('200');
    await issue(user, 2);
    const bought = ok(await buy(user, '1', 1, 'ticket'));
    const pulled = ok(
      await t.call<{ changes: Record<string, { upserts: unknown[]; deletes: string[] }> }>(
        'plain',
        '/api/v1/sync/pull',
        { cursors: {}, accountId: user.accountId },
        { token: user.token },
      ),
    );
    const owned = pulled.changes['owned_machines']?.upserts.map((record) =>
      ownedMachineRecordSchema.parse(record),
    );
    expect(owned).toEqual([bought.machine]);
    const tickets =
      pulled.changes['tickets']?.upserts.map((record) => ticketRecordSchema.parse(record)) ?? [];
    expect(tickets.map((ticket) => ticket.status).sort()).toEqual(['available', 'used']);
    const machines =
      pulled.changes['machines']?.upserts.map((record) => machineRecordSchema.parse(record)) ?? [];
    expect(machines.map((machine) => machine.id)).toEqual(expect.arrayContaining(['1', '2', '3']));
    const anonymous = ok(
      await t.call<{ changes: Record<string, { upserts: unknown[] }> }>('plain', '/api/v1/sync/pull', {
        cursors: {},
      }),
    );
    expect(anonymous.changes['machines']?.upserts.length).toBeGreaterThanOrEqual(3);
    expect(anonymous.changes['owned_machines']).toBeUndefined();
  });
});
