/**
 * Accounts on the client (CONTRACT.md "Identity and accounts", "The client's own storage"): each
 * account's collections live in `coffer-u{user}-a{account}` with their own cursors, the active
 * account is pulled with the public and user collections and the others in the background, a
 * money command names its own accounts, and logout deletes every account database.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, test } from 'vitest';
import { MONEY_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import { activeAccountOf } from '../../client-db/active-account.js';
import { DAY_MS } from '../../sync/commands.js';
import {
  accountDbName,
  openAccountDb,
  openPublicDb,
  openUserDb,
  PUBLIC_DB_NAME,
  userDbName,
  type AccountDb,
} from '../../client-db/schema.js';
import type { DexieSyncStorage } from '../../sync/dexie-storage.js';
import { BACKGROUND_PULL_INTERVAL_MS } from '../../sync/engine.js';
import { MemorySessionStore } from '../../worker/session.js';
import type { FakeClock, FakeServer } from './helpers.js';
import { accountRecord, dexieWorldEachTest, login, newsRecord, tab } from './helpers.js';

const PULL = '/api/v1/sync/pull';
const TRANSFER = '/api/v1/account/transfer';

let server: FakeServer;
let clock: FakeClock;
let storage: DexieSyncStorage;
const keep = dexieWorldEachTest((world) => ({ server, clock, storage } = world));

/** A UI-side handle on an account database, as `useLiveQuery` would read it. */
function accountDb(userId: string, accountId: string): AccountDb {
  return keep(openAccountDb(userId, accountId));
}

/** User 7 with a main account `m7` (default, 100 USDT) and a sub-account `s7` (empty), logged in. */
async function userWithTwoAccounts() {
  server.addAccount('7', 'm7', 100_000_000n);
  server.addAccount('7', 's7');
  const session = new MemorySessionStore();
  const { engine } = tab({ server, storage, clock, session });
  await login(server, session, '7', 'tok-7');
  return { engine, session };
}

const pullsSeen = () => server.seenOn(PULL).map((call) => call.params);

describe('the active account', () => {
  test('is the one selected on this device while it is synced, else the default, else the main one', () => {
    const main = accountRecord('m', { kind: 'main' });
    const sub = accountRecord('s', { kind: 'sub' });
    expect(activeAccountOf(null, [])).toBeNull();
    expect(activeAccountOf('s', [])).toBe('s');
    expect(activeAccountOf(null, [sub, main])).toBe('m');
    expect(activeAccountOf(null, [main, { ...sub, isDefault: true }])).toBe('s');
    expect(activeAccountOf('s', [{ ...main, isDefault: true }, sub])).toBe('s');
    expect(activeAccountOf('gone', [{ ...main, isDefault: true }, sub])).toBe('m');
  });
});

describe('account-scoped pull', () => {
  test("a first pull learns the accounts, then names the default one and writes its balances into that account's database only", async () => {
    const { engine } = await userWithTwoAccounts();

    const summary = await engine.catchUp();

    expect(summary).toMatchObject({ status: 'done', userId: '7', accountId: 'm7' });
    // The first page had no account to name; the next names the default one.
    expect(pullsSeen()[0]).not.toHaveProperty('accountId');
    expect(pullsSeen().at(-1)).toMatchObject({ accountId: 'm7' });
    expect(await accountDb('7', 'm7').balances.get('m7')).toMatchObject({ cash: '100' });
    expect(await accountDb('7', 'm7').cursors.get('balances')).toMatchObject({ cursor: expect.any(String) });
    expect(await Dexie.getDatabaseNames()).not.toContain(accountDbName('7', 's7'));
    const userDb = keep(openUserDb('7'));
    expect((await userDb.accounts.toArray()).map((account) => account.id).sort()).toEqual(['m7', 's7']);
  });

  test('the other accounts are pulled in the background, each into its own database with its own cursors, and the public cursors still advance', async () => {
    const { engine } = await userWithTwoAccounts();
    await engine.catchUp();
    server.change('news', '0', '1', newsRecord('1'));

    const background = await engine.pullOtherAccounts();

    expect(background.map((summary) => [summary.status, summary.accountId])).toEqual([['done', 's7']]);
    expect(pullsSeen().at(-1)).toMatchObject({ accountId: 's7' });
    // The background pull carried the stored public cursors (not "from the start") and applied the news.
    expect(pullsSeen().at(-1)?.['cursors']).toMatchObject({ news: '0.0' });
    expect(pullsSeen().at(-1)?.['cursors']).not.toHaveProperty('balances');
    const publicDb = keep(openPublicDb());
    expect(await publicDb.news.get('1')).toEqual(newsRecord('1'));
    expect(await accountDb('7', 's7').balances.get('s7')).toMatchObject({ cash: '0' });
    expect(await accountDb('7', 'm7').balances.get('s7')).toBeUndefined();
    const mainCursor = (await accountDb('7', 'm7').cursors.get('balances'))?.cursor;
    const subCursor = (await accountDb('7', 's7').cursors.get('balances'))?.cursor;
    expect(mainCursor).not.toEqual(subCursor);

    // Caught up a moment ago: not pulled again until the interval passes.
    expect(await engine.pullOtherAccounts()).toEqual([]);
    await clock.advance(BACKGROUND_PULL_INTERVAL_MS, BACKGROUND_PULL_INTERVAL_MS);
    expect(await engine.pullOtherAccounts()).toHaveLength(1);
  });

  test('selecting another account stores it for the user, pulls it at once and reports its syncedAt', async () => {
    const { engine, session } = await userWithTwoAccounts();
    await engine.catchUp();

    expect(await engine.selectAccount('elsewhere')).toEqual({ kind: 'refused', reason: 'unknown_account' });
    const selected = await engine.selectAccount('s7');

    expect(selected).toMatchObject({
      kind: 'ok',
      accountId: 's7',
      pull: { status: 'done', accountId: 's7' },
    });
    expect(await session.getActiveAccount('7')).toBe('s7');
    expect(await engine.activeAccount()).toBe('s7');
    expect(pullsSeen().at(-1)).toMatchObject({ accountId: 's7' });
    const status = await engine.status();
    expect(status).toMatchObject({ userId: '7', accountId: 's7' });
    expect(status.syncedAt.balances).toBe(new Date(clock.now()).toISOString());
    expect(status.syncedAt.records).toBe(new Date(clock.now()).toISOString());
  });

  test("logout deletes the user's account databases and forgets the selected account", async () => {
    const { engine, session } = await userWithTwoAccounts();
    await engine.catchUp();
    await engine.selectAccount('s7');
    expect(await Dexie.getDatabaseNames()).toEqual(
      expect.arrayContaining([accountDbName('7', 'm7'), accountDbName('7', 's7'), userDbName('7')]),
    );

    await engine.discardUserData();

    expect(await Dexie.getDatabaseNames()).toEqual([PUBLIC_DB_NAME]);
    expect(await session.getActiveAccount('7')).toBeNull();
  });
});

describe('money commands', () => {
  test('a transfer queued while account A is active still names A after the user switches to B, and both accounts are pulled once it is confirmed', async () => {
    const online = { now: false };
    server.addAccount('7', 'm7', 100_000_000n);
    server.addAccount('7', 's7');
    const session = new MemorySessionStore();
    const { engine } = tab({ server, storage, clock, session, online: () => online.now });
    await login(server, session, '7', 'tok-7');
    online.now = true;
    await engine.catchUp();
    await engine.pullOtherAccounts();
    online.now = false;
    expect(await engine.activeAccount()).toBe('m7');

    const queued = await engine.enqueue({
      kind: 'account-transfer',
      params: { fromAccountId: 'm7', toAccountId: 's7', asset: 'USDT', amount: '40.50' },
    });
    expect(queued.kind).toBe('ok');
    // The user switches to the sub-account (and makes it the server's default) before anything is sent.
    online.now = true;
    await engine.selectAccount('s7');
    await engine.enqueue({ kind: 'account-switch', params: { accountId: 's7' } });

    const drained = await engine.drain();

    expect(drained.confirmed).toHaveLength(2);
    expect(server.effectsOn(TRANSFER).map((call) => call.params)).toEqual([
      { fromAccountId: 'm7', toAccountId: 's7', asset: 'USDT', amount: '40.5' },
    ]);
    // Both sides of the transfer are fresh: the active account by the pull after the drain, the other in the background.
    expect(drained.pull).toMatchObject({ status: 'done', accountId: 's7' });
    expect(drained.accountPulls.map((summary) => summary.accountId)).toEqual(['m7']);
    expect(await accountDb('7', 's7').balances.get('s7')).toMatchObject({ cash: '40' });
    expect(await accountDb('7', 'm7').balances.get('m7')).toMatchObject({ cash: '59' });
  });

  test('an account transfer expires an hour after the user acted; account-create and account-switch after a day', async () => {
    const { engine } = await userWithTwoAccounts();
    const transfer = await engine.enqueue({
      kind: 'account-transfer',
      params: { fromAccountId: 'm7', toAccountId: 's7', asset: 'RAB', amount: '1' },
    });
    const create = await engine.enqueue({ kind: 'account-create', params: { name: 'Savings' } });
    const switched = await engine.enqueue({ kind: 'account-switch', params: { accountId: 's7' } });
    const store = storage.userStores('7').outbox;
    if (transfer.kind !== 'ok' || create.kind !== 'ok' || switched.kind !== 'ok')
      throw new Error('not queued');
    expect(await store.get(transfer.id)).toMatchObject({
      expiresAtMs: clock.now() + MONEY_COMMAND_EXPIRY_MS,
      resource: 'account:m7',
      params: { amount: '1' },
    });
    expect(MONEY_COMMAND_EXPIRY_MS).toBe(60 * 60 * 1000);
    expect((await store.get(create.id))?.expiresAtMs).toBe(clock.now() + DAY_MS);
    expect((await store.get(switched.id))?.expiresAtMs).toBe(clock.now() + DAY_MS);

    await clock.advance(MONEY_COMMAND_EXPIRY_MS, MONEY_COMMAND_EXPIRY_MS);
    server.fault = () => 'network';
    const drained = await engine.drain();

    expect(drained.expired).toEqual([transfer.id]);
    expect(server.effectsOn(TRANSFER)).toEqual([]);
  });

  test('amounts with more than 2 decimals, unknown assets and missing account ids are refused at enqueue', async () => {
    const { engine } = await userWithTwoAccounts();
    const enqueue = (params: Record<string, unknown>) =>
      engine.enqueue({
        kind: 'account-transfer',
        params: { fromAccountId: 'm7', toAccountId: 's7', asset: 'USDT', amount: '1', ...params } as never,
      });
    expect(await enqueue({ amount: '1.005' })).toMatchObject({ kind: 'refused', field: 'amount' });
    expect(await enqueue({ asset: 'BTC' })).toMatchObject({ kind: 'refused', field: 'asset' });
    expect(await enqueue({ toAccountId: undefined })).toMatchObject({
      kind: 'refused',
      field: 'toAccountId',
    });
    expect(await engine.pendingCount()).toBe(0);
  });
});
