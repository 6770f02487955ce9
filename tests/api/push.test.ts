/**
 * Web push (issue 27, docs/protocol.md section 34), against a push service the test runs on
 * loopback (tests/helpers/push-service.ts) that checks each POST's VAPID signature and decrypts
 * its payload (RFC 8291) with the subscription's own keys: every push event is delivered to each
 * subscribed device once, in the device's language, with the page it is about; subscriptions the
 * push service answers 404 or 410 for are deleted; bad input is a clear error; another user
 * cannot unsubscribe yours; a signed-out device gets nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import type { ChainAdapter, TokenTransfer } from '../../server/chains/chain.js';
import type { UsdtSender } from '../../server/chains/evm-sender.js';
import { pushSubscriptions } from '../../server/db/schema.js';
import { DepositWatcher } from '../../server/services/deposit-watcher.js';
import { PUSH_PAGES, PUSH_SUBSCRIPTIONS_PER_USER } from '../../server/services/push.service.js';
import { WithdrawalSender } from '../../server/services/withdrawal-sender.js';
import { ROUTES } from '../../src/app/paths.js';
import { availableTiers } from '../helpers/database.js';
import { ok, readyOperator, type ReadyOperator } from '../helpers/operator.js';
import { LoopbackPushService, type TestSubscription } from '../helpers/push-service.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { PIXEL_PNG, uploadImage } from '../helpers/uploads.js';
import { withdrawFixtures, type ReadyUser, type WithdrawalRecordLike } from '../helpers/withdraw.js';

const tiers = await availableTiers('push');

/** A BEP20 chain in memory: blocks 0..height, and the USDT transfers the test puts in them. */
function scriptedChain(): ChainAdapter & { height: bigint; sent: TokenTransfer[] } {
  const sent: TokenTransfer[] = [];
  const chain = {
    chain: 'BEP20' as const,
    decimals: 18,
    contract: '0x55d398326f99059fF775485246999027B3197955',
    height: 1n,
    sent,
    async genesisHash() {
      return '0xgenesis-push';
    },
    async head() {
      return chain.height;
    },
    async blockHash(number: bigint) {
      return number <= chain.height ? `0xblock${number}` : null;
    },
    async transfers(from: bigint, to: bigint) {
      return sent.filter((item) => item.blockNumber >= from && item.blockNumber <= to);
    },
    async holdings() {
      return { value: 0n, block: chain.height };
    },
  };
  return chain;
}

/** A hot wallet whose transactions are mined at once, succeeding unless `reverting` holds the hash. */
function scriptedSender(): UsdtSender & { height: bigint; reverting: Set<string> } {
  let nonce = 0;
  const mined = new Map<string, bigint>();
  const reverting = new Set<string>();
  const sender = {
    from: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    height: 100n,
    reverting,
    async head() {
      return sender.height;
    },
    async minedNonce() {
      return nonce;
    },
    async pendingNonce() {
      return nonce;
    },
    async sign(input: { to: string; amount: bigint; nonce: number }) {
      const hash = `0x${input.nonce.toString(16).padStart(64, '0')}` as `0x${string}`;
      return { raw: `0xraw${input.nonce}` as `0x${string}`, hash };
    },
    async broadcast(raw: `0x${string}`) {
      const sent = Number(raw.slice(5));
      mined.set(`0x${sent.toString(16).padStart(64, '0')}`, sender.height);
      nonce = Math.max(nonce, sent + 1);
    },
    async state(hash: `0x${string}`) {
      const block = mined.get(hash);
      return block === undefined
        ? { receipt: null, known: false }
        : {
            receipt: {
              status: reverting.has(hash) ? ('reverted' as const) : ('success' as const),
              blockNumber: block,
            },
            known: true,
          };
    },
  };
  return sender;
}

interface Payload {
  title: string;
  body: string;
  url: string;
}

describe.each(tiers)('web push on %s', (tier) => {
  let t: TestServer;
  let pushes: LoopbackPushService;
  let finance: string;
  let compliance: ReadyOperator;
  let support: ReadyOperator;
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    t = await startTestServer(tier, { COFFER_UNVERIFIED_WITHDRAW_DAILY: '50000' });
    pushes = await LoopbackPushService.start();
    [finance] = await f.operators(`push-${tier}`);
    compliance = await readyOperator(t, `push-kyc-${tier}@coffer.test`, 'compliance');
    support = await readyOperator(t, `push-help-${tier}@coffer.test`, 'support');
  });
  afterAll(async () => {
    await t?.close();
    await pushes?.close();
  });

  const call = <T = Record<string, unknown>>(
    uri: string,
    params: Record<string, unknown>,
    token?: string,
    lang = 'EN',
  ) => t.call<T>('plain', uri, params, { ...(token ? { token } : {}), key: newKey(), lang });
  /** Feedback the user writes, for support to reply to. */
  const feedbackFrom = async (token: string, title: string, content: string) =>
    ok(await call<{ id: string }>('/api/v1/common/pushFeedback', { title, content }, token), 'feedback');
  /** Subscribes a new device of the user on the loopback service, in `lang` (the app's lang header). */
  const device = async (token: string, lang = 'EN'): Promise<TestSubscription> => {
    const subscription = pushes.subscribe();
    ok(await call('/api/v1/push/subscribe', subscription.json, token, lang), 'subscribe');
    return subscription;
  };
  /** Waits until every push under way has reached the loopback service (or failed). */
  const settled = () => t.server.services.push.idle();
  const storedEndpoints = async (userId: string) =>
    (
      await t.server.database.db
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, Number(userId)))
    ).map((row) => row.endpoint);

  test('the VAPID public key is served at /api/v1/push/key, and every push is signed with it for the endpoint’s origin', async () => {
    const key = ok(await call<{ publicKey: string }>('/api/v1/push/key', {}), 'key');
    expect(Buffer.from(key.publicKey, 'base64url')).toHaveLength(65);
    const user = await t.register('plain', `push-key-${tier}@coffer.test`);
    const phone = await device(user.token);
    t.server.services.push.notify(Number(user.userId), { kind: 'support_reply' });
    await settled();
    const [received] = pushes.received.filter((push) => push.endpoint === phone.endpoint);
    expect(received?.vapid).toMatchObject({ publicKey: key.publicKey, aud: pushes.origin });
    expect(received?.vapid.sub).toMatch(/^(mailto:|https:)/);
    expect(received?.vapid.exp).toBeGreaterThan(Date.now() / 1000);
    expect(received?.headers['content-encoding']).toBe('aes128gcm');
    expect(pushes.refused).toEqual([]);
  });

  test('bad subscribe input is a clear error naming its field: no endpoint, not a URL, not http(s), a bad p256dh or auth, no keys; and signing in is required', async () => {
    const user = await t.register('plain', `push-bad-${tier}@coffer.test`);
    const good = pushes.subscribe().json;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ keys: good.keys }, 'endpoint', 'endpoint'],
      [{ ...good, endpoint: 'not a url' }, 'endpoint', 'not an address notifications can be sent to'],
      [
        { ...good, endpoint: 'ftp://127.0.0.1/push/1' },
        'endpoint',
        'not an address notifications can be sent to',
      ],
      [
        { ...good, endpoint: 'http://push.example.com/1' },
        'endpoint',
        'not an address notifications can be sent to',
      ],
      [{ ...good, keys: { ...good.keys, p256dh: 'AAAA' } }, 'keys.p256dh', 'key is not valid'],
      [
        { ...good, keys: { ...good.keys, auth: Buffer.alloc(15).toString('base64url') } },
        'keys.auth',
        'key is not valid',
      ],
      [{ endpoint: good.endpoint }, 'keys', 'keys'],
    ];
    for (const [params, field, message] of cases) {
      const answer = await call('/api/v1/push/subscribe', params, user.token);
      expect({ code: answer.code, data: answer.data }, JSON.stringify(params)).toEqual({
        code: BodyCode.invalidInput,
        data: { field },
      });
      expect(answer.message).toMatch(new RegExp(message, 'i'));
    }
    expect(await storedEndpoints(user.userId)).toEqual([]);
    expect((await call('/api/v1/push/subscribe', good)).code).toBe(BodyCode.notLoggedIn);
    expect((await call('/api/v1/push/unsubscribe', { endpoint: good.endpoint })).code).toBe(
      BodyCode.notLoggedIn,
    );
  });

  test('another user cannot unsubscribe yours (404) nor take it over while your session lasts (403), and yours still gets pushes; you can unsubscribe, and then get none', async () => {
    const a = await t.register('plain', `push-owner-${tier}@coffer.test`);
    const b = await t.register('plain', `push-other-${tier}@coffer.test`);
    const phone = await device(a.token);
    const taken = await call(
      '/api/v1/push/subscribe',
      { ...phone.json, keys: pushes.subscribe().json.keys },
      b.token,
    );
    expect({ code: taken.code, data: taken.data }).toEqual({
      code: BodyCode.forbidden,
      data: { field: 'endpoint' },
    });
    const refused = await call('/api/v1/push/unsubscribe', { endpoint: phone.endpoint }, b.token);
    expect({ code: refused.code, data: refused.data }).toEqual({
      code: BodyCode.notFound,
      data: { field: 'endpoint' },
    });
    expect(refused.message).toBe('Notifications are not on for this device');
    t.server.services.push.notify(Number(a.userId), { kind: 'feedback_replied' });
    await settled();
    expect(pushes.payloadsOf(phone.endpoint)).toHaveLength(1);
    const done = await call('/api/v1/push/unsubscribe', { endpoint: phone.endpoint }, a.token);
    expect([done.code, done.message]).toEqual([200, 'Notifications are off for this device']);
    t.server.services.push.notify(Number(a.userId), { kind: 'feedback_replied' });
    await settled();
    expect(pushes.payloadsOf(phone.endpoint)).toHaveLength(1);
  });

  test('a subscription the push service answers 404 or 410 for is deleted; the user’s other devices keep theirs', async () => {
    const user = await t.register('plain', `push-gone-${tier}@coffer.test`);
    const [gone404, gone410, kept] = [
      await device(user.token),
      await device(user.token),
      await device(user.token),
    ];
    pushes.answer(gone404.endpoint, 404);
    pushes.answer(gone410.endpoint, 410);
    t.server.services.push.notify(Number(user.userId), { kind: 'identity_approved' });
    await settled();
    expect(await storedEndpoints(user.userId)).toEqual([kept.endpoint]);
    expect(pushes.payloadsOf(kept.endpoint)).toHaveLength(1);
  });

  test('a push service that fails (500, or nobody listening) is logged, never fails the cause, and keeps the subscription', async () => {
    const user = await t.register('plain', `push-fail-${tier}@coffer.test`);
    const broken = await device(user.token);
    pushes.answer(broken.endpoint, 500);
    const nobody = { endpoint: 'http://127.0.0.1:9/push/none', keys: pushes.subscribe().json.keys };
    ok(await call('/api/v1/push/subscribe', nobody, user.token), 'subscribe nobody');
    const feedback = await feedbackFrom(user.token, 'Broken push', 'x');
    const replied = await support.call('/api/admin/feedback/reply', { id: feedback.id, reply: 'Thanks' });
    expect(replied.code).toBe(200);
    await settled();
    expect((await storedEndpoints(user.userId)).sort()).toEqual([broken.endpoint, nobody.endpoint].sort());
  });

  test(`a user keeps at most ${PUSH_SUBSCRIPTIONS_PER_USER} subscriptions: a new device pushes out the least recently subscribed; the same endpoint again is one row`, async () => {
    const user = await t.register('plain', `push-many-${tier}@coffer.test`);
    const devices: TestSubscription[] = [];
    for (let index = 0; index <= PUSH_SUBSCRIPTIONS_PER_USER; index += 1) {
      devices.push(await device(user.token));
      t.clock.advance(1);
    }
    const stored = await storedEndpoints(user.userId);
    expect(stored).toHaveLength(PUSH_SUBSCRIPTIONS_PER_USER);
    expect(stored).not.toContain(devices[0]?.endpoint);
    const again = devices.at(-1);
    if (!again) throw new Error('no device');
    ok(await call('/api/v1/push/subscribe', again.json, user.token), 'again');
    expect(await storedEndpoints(user.userId)).toHaveLength(PUSH_SUBSCRIPTIONS_PER_USER);
  });

  test('a device whose session ended (logged out) gets no push, and its subscription is deleted; one subscribed again on a shared device belongs to the new user', async () => {
    const a = await t.register('plain', `push-out-${tier}@coffer.test`);
    const shared = await device(a.token);
    ok(await call('/api/v1/sso/logout', {}, a.token), 'logout');
    t.server.services.push.notify(Number(a.userId), { kind: 'support_reply' });
    await settled();
    expect(pushes.payloadsOf(shared.endpoint)).toEqual([]);
    expect(await storedEndpoints(a.userId)).toEqual([]);
    const b = await t.register('plain', `push-in-${tier}@coffer.test`);
    ok(await call('/api/v1/push/subscribe', shared.json, b.token, 'JP'), 'subscribe as b');
    t.server.services.push.notify(Number(b.userId), { kind: 'support_reply' });
    await settled();
    expect(pushes.payloadsOf(shared.endpoint)).toEqual([
      { title: 'サポートからの新着メッセージ', body: expect.any(String), url: '/#/pages/chatroom/room' },
    ]);
  });

  test('each push opens an app page (src/app/paths.ts routes): records for deposits and withdrawals, feedback, real-name, the support chat', () => {
    const routes = new Set<string>([...Object.values(ROUTES), '/pages/chatroom/room']);
    for (const [kind, url] of Object.entries(PUSH_PAGES)) {
      expect(url.startsWith('/#/'), kind).toBe(true);
      expect(routes.has(url.slice(2)), `${kind}: ${url}`).toBe(true);
    }
  });

  test('every push event is delivered once to each device and decrypted, with its title, amount and page in the device’s language: deposit credited, withdrawal succeeded and failed (on chain and by an operator), feedback replied, real-name approved and rejected, support reply', async () => {
    f.toMorning();
    const user: ReadyUser = await f.readyUser(`push-all-${tier}@coffer.test`);
    const bank: ReadyUser = await f.readyUser(`push-bank-${tier}@coffer.test`, 'bank');
    f.toMorning();
    await f.fund(finance, user.accountId, '500');
    await f.fund(finance, bank.accountId, '500');
    const english = await device(user.token, 'EN');
    const chinese = await device(user.token, 'CN');
    const bankPhone = await device(bank.token, 'KO');
    const before = pushes.received.length;

    // A deposit: recorded, held at 3 confirmations, cash at finality (5 here), then more blocks.
    const address = ok(
      await call<{ address: string }>('/api/v1/recharge/address', { chain: 'BEP20' }, user.token),
      'address',
    ).address;
    const chain = scriptedChain();
    chain.sent.push({
      txHash: `0x${'d1'.repeat(32)}`,
      logIndex: 0,
      blockNumber: 2n,
      blockHash: '0xblock2',
      to: address.toLowerCase(),
      from: `0x${'ee'.repeat(20)}`,
      value: 25_500_000_000_000_000_000n,
    });
    const watcher = new DepositWatcher(
      t.server.database.db,
      t.server.clock,
      { adapter: chain, finality: 5, startBlock: 0n, scanRange: 100 },
      t.server.services.push,
    );
    for (const height of [2n, 3n, 4n, 5n, 6n, 7n, 9n, 12n]) {
      chain.height = height;
      await watcher.tick();
      await settled();
    }

    // Withdrawals sent by the job: one succeeds, one reverts on chain.
    const sender = scriptedSender();
    const job = new WithdrawalSender(
      t.server.database.db,
      t.server.clock,
      'BEP20',
      sender,
      3,
      {},
      t.server.services.push,
    );
    const sendOne = async (amount: string, reverts: boolean) => {
      const created = ok(await f.withdraw(user, amount), 'withdraw');
      ok(await f.asFinance(finance, '/api/admin/withdraw/approve', { id: created.id }), 'approve');
      await job.tick(); // signs and broadcasts
      if (reverts)
        sender.reverting.add(`0x${((await sender.pendingNonce()) - 1).toString(16).padStart(64, '0')}`);
      sender.height += 5n;
      await job.tick(); // follows: settled or released
      await job.tick(); // nothing more
      await settled();
    };
    await sendOne('20', false);
    await sendOne('30', true);

    // Withdrawals an operator ends: paid by hand (a bank card), rejected.
    const paid = ok(await f.withdraw(bank, '40'), 'bank withdraw');
    ok(await f.asFinance(finance, '/api/admin/withdraw/approve', { id: paid.id }), 'approve bank');
    ok(await f.asFinance(finance, '/api/admin/withdraw/paid', { id: paid.id, reference: 'BANK-1' }), 'paid');
    const rejected = ok(await f.withdraw(bank, '50'), 'bank withdraw 2');
    ok(
      await f.asFinance(finance, '/api/admin/withdraw/reject', { id: rejected.id, reason: 'checks' }),
      'reject',
    );
    // Repeating the operator's command with its key replays the answer and pushes nothing again.
    const key = newKey();
    const third = ok(await f.withdraw(bank, '60'), 'bank withdraw 3');
    for (let round = 0; round < 2; round += 1)
      await t.call<WithdrawalRecordLike>(
        'plain',
        '/api/admin/withdraw/reject',
        { id: third.id, reason: 'again' },
        { token: await f.adminLogin(finance), key, lang: 'EN' },
      );

    // Support replies to feedback; compliance ends two real-name reviews.
    const feedback = await feedbackFrom(user.token, 'Where is it?', 'My deposit');
    ok(await support.call('/api/admin/feedback/reply', { id: feedback.id, reply: 'Arrived' }), 'reply');
    const submit = async (who: ReadyUser, number: string) => {
      const images = [await uploadImage(t, who.token, PIXEL_PNG, 'id.png', 'image/png')];
      ok(
        await call(
          '/api/v1/user/identity-store',
          { documentType: 'passport', documentNumber: number, realName: 'Li Lei', images },
          who.token,
        ),
        'identity-store',
      );
    };
    await submit(user, `E${tier === 'pglite' ? 1 : 2}2345678`);
    ok(await compliance.call('/api/admin/identity/approve', { userId: user.userId }), 'approve identity');
    await submit(bank, `K${tier === 'pglite' ? 1 : 2}2345678`);
    ok(
      await compliance.call('/api/admin/identity/reject', { userId: bank.userId, reason: 'unreadable' }),
      'reject identity',
    );
    // Support answers in the chat (pushed), and leaves an internal note there (never pushed).
    ok(
      await call(
        '/api/v1/chat/send',
        { clientMsgId: crypto.randomUUID(), text: 'Where is my deposit?' },
        user.token,
      ),
      'chat send',
    );
    ok(
      await support.call('/api/admin/chat/reply', {
        userId: user.userId,
        text: 'It arrived',
        internal: false,
      }),
      'chat reply',
    );
    ok(
      await support.call('/api/admin/chat/reply', { userId: user.userId, text: 'checked', internal: true }),
      'chat note',
    );
    await settled();

    expect(pushes.refused).toEqual([]);
    const records = '/#' + ROUTES.withdrawRecords;
    expect(pushes.payloadsOf(english.endpoint)).toEqual([
      {
        title: 'Deposit credited',
        body: '25.5 USDT has arrived in your account.',
        url: '/#' + ROUTES.recharge,
      },
      { title: 'Withdrawal completed', body: 'Your withdrawal of 20 USDT has been paid.', url: records },
      {
        title: 'Withdrawal not completed',
        body: 'Your withdrawal of 30 USDT did not go through; the amount is back in your balance.',
        url: records,
      },
      {
        title: 'Reply to your feedback',
        body: expect.stringMatching(/replied/),
        url: '/#' + ROUTES.feedback,
      },
      { title: 'Real-name verification approved', body: expect.any(String), url: '/#' + ROUTES.identity },
      { title: 'New message from support', body: expect.any(String), url: '/#/pages/chatroom/room' },
    ]);
    expect(pushes.payloadsOf(chinese.endpoint).map((payload) => (payload as Payload).title)).toEqual([
      '充值已到账',
      '提现已完成',
      '提现未完成',
      '您的反馈有了回复',
      '实名认证已通过',
      '客服新消息',
    ]);
    expect(pushes.payloadsOf(bankPhone.endpoint)).toEqual([
      { title: '출금 완료', body: '40 USDT 출금이 지급되었습니다.', url: records },
      { title: '출금 미완료', body: expect.stringContaining('50 USDT'), url: records },
      { title: '출금 미완료', body: expect.stringContaining('60 USDT'), url: records },
      { title: '실명 인증 미승인', body: expect.any(String), url: '/#' + ROUTES.identity },
    ]);
    expect(pushes.received.length - before).toBe(6 + 6 + 4);
  });
});
