/**
 * The authorization matrix ("Hostile input and authorization"): every customer route
 * that takes an id, called by user B with user A's real ids (A's account, hosting order, OTC
 * order, withdrawal method, dividend record, uploaded image), is refused with 403 or 404, and the
 * refusal carries nothing of A's (e-mail, address, balances, record figures). Afterwards A's
 * balances and records are what they were, and `ledger check` passes.
 *
 * The routes and their fields come from the OpenAPI document the server serves (as in
 * hostile.test.ts): a route of /api/v1/ with an id-like field (`id`, `…Id`, `…Ids`, or an `{id}`
 * in the path) that this matrix does not name fails the first test, so a new route cannot be
 * forgotten. A field naming a record every customer may use (a catalogue product, an order of the
 * public book) is listed with the reason it is shared.
 */
import { apiRoutesOf } from '../helpers/openapi.js';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { BodyCode } from '../../contract/codes.js';
import { availableTiers } from '../helpers/database.js';
import { startTestServer, type Answer, type TestServer } from '../helpers/server.js';
import { EVM_ADDRESS, TRADE_PASSWORD, withdrawFixtures, type ReadyUser } from '../helpers/withdraw.js';
import { SoftPasskey } from '../helpers/webauthn.js';
import { PIXEL_PNG as PNG } from '../helpers/uploads.js';

const tiers = await availableTiers('authorization-matrix');

// ---------------------------------------------------------------------------------------------
// The routes with id-like fields, from the OpenAPI document

const ID_FIELD = /^(id|.+Id|.+Ids)$/;

/** `"<path> <field>"` for every id-like field of every customer route (/api/v1/) in the document. */
function idFieldsOf(document: unknown): string[] {
  const found = new Set<string>();
  for (const route of apiRoutesOf(document)) {
    if (!route.path.startsWith('/api/v1/')) continue;
    const names = route.fields.map((field) => field.name);
    // A path parameter counts whether or not the document lists it among the parameters.
    for (const match of route.path.matchAll(/\{(\w+)\}/g)) if (match[1]) names.push(match[1]);
    for (const name of names) if (ID_FIELD.test(name)) found.add(`${route.path} ${name}`);
  }
  return [...found].sort();
}

// ---------------------------------------------------------------------------------------------
// The matrix

/** A's records whose ids B tries. */
interface Victim {
  account: string;
  hostingOrder: string;
  otcOrder: string;
  method: string;
  release: string;
  /** One of A's signed-in sessions (the security centre's list). */
  session: string;
  /** One of A's passkeys. */
  passkey: string;
  /** A passkey registration challenge A asked for and has not answered yet. */
  passkeyChallenge: string;
  /** The client id of a chat message A sent (per conversation: B's own conversation never sees it). */
  chatClientMsgId: string;
}
/** B's own valid values, so that the only thing wrong with each call is A's id in it. */
interface Caller {
  user: ReadyUser;
  subAccount: string;
  productId: string;
  machineId: string;
  priceVersion: string;
  /** A fresh authenticator code of B's (moves the clock to the next step). */
  code(): Promise<string>;
}

interface OwnedCase {
  /** Which of A's ids goes into the field. */
  owned: keyof Victim;
  /** B's otherwise valid parameters with A's id in the field. */
  params(a: Victim, b: Caller): Promise<Record<string, unknown>> | Record<string, unknown>;
}
interface SharedCase {
  /** Why another customer's id here is no secret (the call is still made and checked for leaks). */
  shared: string;
  params(a: Victim, b: Caller): Record<string, unknown>;
}
/**
 * A read that does not refuse another user's id but disregards it: it answers the caller's own
 * figures with the record it names shown as none (checked: the caller's own data, that part null).
 */
interface DisregardedCase {
  disregarded: string;
  params(a: Victim, b: Caller): Record<string, unknown>;
  /** True when the answer is the caller's own, with A's record shown as none. */
  answersOwn(data: Record<string, unknown>, b: Caller): boolean;
}
type Case = OwnedCase | SharedCase | DisregardedCase;

const trade = { tradePassword: TRADE_PASSWORD };
const refusalDataSchema = z.strictObject({ field: z.string() });

const MATRIX: Record<string, Case> = {
  '/api/v1/account/switch accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/account/transfer fromAccountId': {
    owned: 'account',
    params: (a, b) => ({
      fromAccountId: a.account,
      toAccountId: b.subAccount,
      asset: 'USDT',
      amount: '1',
    }),
  },
  '/api/v1/account/transfer toAccountId': {
    owned: 'account',
    params: (a, b) => ({
      fromAccountId: b.user.accountId,
      toAccountId: a.account,
      asset: 'USDT',
      amount: '1',
    }),
  },
  '/api/v1/user/assets accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/wallet/records accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/sync/pull accountId': {
    owned: 'account',
    params: (a) => ({ cursors: {}, accountId: a.account }),
  },
  '/api/v1/user/aiInfo accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/user/aiIncome accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/user/aiReceive accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/user/aiReceive id': {
    owned: 'release',
    params: (a, b) => ({ accountId: b.user.accountId, id: a.release }),
  },
  '/api/v1/exchange/index accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/exchange/submit accountId': {
    owned: 'account',
    params: (a, b) => ({
      accountId: a.account,
      direction: 'usdt_to_rab',
      amount: '1',
      priceVersion: b.priceVersion,
      ...trade,
    }),
  },
  '/api/v1/exchange/list accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/hosting/create accountId': {
    owned: 'account',
    params: (a, b) => ({ accountId: a.account, productId: b.productId, amount: '100', ...trade }),
  },
  '/api/v1/hosting/create productId': {
    shared: 'a hosting product of the catalogue every customer is offered',
    params: (_a, b) => ({ accountId: b.user.accountId, productId: b.productId, amount: '0.01', ...trade }),
  },
  '/api/v1/hosting/add orderId': {
    owned: 'hostingOrder',
    params: (a) => ({ orderId: a.hostingOrder, amount: '10' }),
  },
  '/api/v1/hosting/sub orderId': {
    owned: 'hostingOrder',
    params: (a) => ({ orderId: a.hostingOrder, amount: '10' }),
  },
  '/api/v1/hosting/redeem orderId': { owned: 'hostingOrder', params: (a) => ({ orderId: a.hostingOrder }) },
  '/api/v1/hosting/order accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/hosting/operator-log orderId': {
    owned: 'hostingOrder',
    params: (a) => ({ orderId: a.hostingOrder }),
  },
  '/api/v1/hosting/operator-log accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/income/log accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/machine/info id': {
    shared: 'a machine of the catalogue every customer is offered',
    params: (_a, b) => ({ id: b.machineId }),
  },
  '/api/v1/machine/index accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/machine/buy accountId': {
    owned: 'account',
    params: (a, b) => ({
      accountId: a.account,
      machineId: b.machineId,
      quantity: '1',
      payWith: 'usdt',
      ...trade,
    }),
  },
  '/api/v1/machine/buy machineId': {
    shared: 'a machine of the catalogue every customer is offered',
    params: (_a, b) => ({ accountId: b.user.accountId, machineId: b.machineId, quantity: '0', ...trade }),
  },
  '/api/v1/machine/rent accountId': {
    owned: 'account',
    params: (a, b) => ({ accountId: a.account, machineId: b.machineId, days: '3', ...trade }),
  },
  '/api/v1/machine/rent machineId': {
    shared: 'a machine of the catalogue every customer is offered',
    params: (_a, b) => ({ accountId: b.user.accountId, machineId: b.machineId, days: '0', ...trade }),
  },
  '/api/v1/user/tickets accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/otc/info accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/otc/buy accountId': {
    owned: 'account',
    params: (a) => ({ accountId: a.account, volume: '2', price: '1', splittable: true, ...trade }),
  },
  '/api/v1/otc/sell accountId': {
    owned: 'account',
    params: (a) => ({ accountId: a.account, volume: '2', price: '1', splittable: true, ...trade }),
  },
  '/api/v1/otc/take accountId': {
    owned: 'account',
    params: (a) => ({ accountId: a.account, orderId: a.otcOrder, volume: '1', price: '1', ...trade }),
  },
  '/api/v1/otc/take orderId': {
    shared: 'an order of the public book: taking another customer’s order is what the market is for',
    params: (a, b) => ({
      accountId: b.user.accountId,
      orderId: a.otcOrder,
      volume: '0',
      price: '1',
      ...trade,
    }),
  },
  '/api/v1/otc/cancel orderId': { owned: 'otcOrder', params: (a) => ({ orderId: a.otcOrder }) },
  '/api/v1/pending/info orderId': {
    shared: 'an order of the public book, shown to every customer without its owner',
    params: (a) => ({ orderId: a.otcOrder }),
  },
  '/api/v1/otc/meBuyList accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/otc/meSellList accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/user/payment-delete id': { owned: 'method', params: (a) => ({ id: a.method }) },
  '/api/v1/recharge/address accountId': {
    owned: 'account',
    params: (a) => ({ accountId: a.account, chain: 'BEP20' }),
  },
  '/api/v1/recharge/list accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/withdraw/index accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/withdraw/index methodId': { owned: 'method', params: (a) => ({ methodId: a.method }) },
  '/api/v1/withdraw/create accountId': {
    owned: 'account',
    params: async (a, b) => ({
      accountId: a.account,
      amount: '10',
      methodId: b.user.methodId,
      googleCode: await b.code(),
      ...trade,
    }),
  },
  '/api/v1/withdraw/create methodId': {
    owned: 'method',
    params: async (a, b) => ({
      accountId: b.user.accountId,
      amount: '10',
      methodId: a.method,
      googleCode: await b.code(),
      ...trade,
    }),
  },
  '/api/v1/withdraw/list accountId': { owned: 'account', params: (a) => ({ accountId: a.account }) },
  '/api/v1/user/session-revoke sessionId': { owned: 'session', params: (a) => ({ sessionId: a.session }) },
  '/api/v1/passkey/rename id': { owned: 'passkey', params: (a) => ({ id: a.passkey, name: 'Taken' }) },
  '/api/v1/passkey/remove id': { owned: 'passkey', params: (a) => ({ id: a.passkey }) },
  '/api/v1/passkey/register challengeId': {
    owned: 'passkeyChallenge',
    params: (a) => ({ challengeId: a.passkeyChallenge, name: 'Taken', response: softRegistration() }),
  },
  '/api/v1/sso/passkey-login challengeId': {
    shared: "a sign-in challenge is nobody's until a passkey answers it; the session is the passkey owner's",
    params: () => ({ challengeId: 'AAAAAAAAAAAAAAAAAAAAAAAA', response: softAssertion() }),
  },
  '/api/v1/reserves/proof snapshotId': {
    shared:
      "a snapshot is public (its root and every leaf); the proof answered is always the caller's own leaf",
    params: () => ({ snapshotId: '1' }),
  },
  '/api/v1/chat/send clientMsgId': {
    disregarded:
      "a client id names a message within the caller's own conversation: A's id makes B a new message of B's",
    params: (a) => ({ clientMsgId: a.chatClientMsgId, text: 'B asks support' }),
    answersOwn: (data) =>
      data['text'] === 'B asks support' && data['from'] === 'customer' && data['seq'] === 1,
  },
  '/api/v1/news/get id': {
    shared: 'news is public: the same article for every reader',
    params: () => ({ id: '1' }),
  },
};
/** A well-formed passkey registration and assertion for no challenge the server issued. */
const SOFT = { rpId: 'localhost', origin: 'http://localhost:8080' };
const softRegistration = () =>
  new SoftPasskey(SOFT).register({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAA', user: { id: 'AAAA' } });
const softAssertion = () => new SoftPasskey(SOFT).assert({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAA' });

/** The image route's `{id}` is called through its URL, not with parameters (tested on its own below). */
const IMAGE_ROUTE = '/api/v1/common/img/{id} id';

function pngUpload(): { payload: Buffer; contentType: string } {
  const boundary = `----CofferMatrix${crypto.randomBytes(8).toString('hex')}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="passport.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

// ---------------------------------------------------------------------------------------------

describe.each(tiers)('the authorization matrix on %s', (tier) => {
  let t: TestServer;
  const fx = withdrawFixtures(() => t);
  let finance: string;
  let a: ReadyUser;
  let victim: Victim;
  let caller: Caller;
  let documentFields: string[];
  let upload: { id: string; url: string };
  /** Text that must never appear in an answer to B: A's e-mail, address and distinctive figures. */
  let secrets: string[];
  /** What A sees of A's own money and records before B's calls. */
  let before: Awaited<ReturnType<typeof snapshot>>;

  const A_FUNDS = { usdt: '9137.41', rab: '613.29' };
  const HOSTED = '611.17';
  const OTC_VOLUME = '31.41';
  const WITHDRAWN = '10.53';
  const DIVIDEND = '5.55';
  const FEEDBACK_TITLE = 'A private feedback q7';
  const CHAT_TEXT = 'A private chat line z4';

  const ok = <T>(answer: Answer<T>): T => {
    expect(answer.code, answer.message).toBe(BodyCode.ok);
    return answer.data;
  };
  const asA = <T = Record<string, unknown>>(uri: string, params: Record<string, unknown> = {}) =>
    fx.call<T>(uri, params, a.token);
  const localDate = () => new Date(t.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);

  /** A's own view of everything B's calls could touch. */
  const snapshot = async () => ({
    // `asOf` is the clock's, which B's calls with codes move on.
    assets: Object.fromEntries(
      Object.entries(ok(await asA('/api/v1/user/assets', { accountId: a.accountId }))).filter(
        ([key]) => key !== 'asOf',
      ),
    ),
    methods: ok(await asA('/api/v1/user/payment-list')),
    hosting: ok(await asA('/api/v1/hosting/order', { accountId: a.accountId })),
    otcSells: ok(await asA('/api/v1/otc/meSellList', { accountId: a.accountId })),
    withdrawals: ok(await asA('/api/v1/withdraw/list', { accountId: a.accountId })),
    dividends: ok(await asA('/api/v1/user/aiIncome', { accountId: a.accountId })),
    records: ok(await asA('/api/v1/wallet/records', { accountId: a.accountId })),
    feedback: ok(await asA('/api/v1/common/feedbackList')),
    image: (
      await t.server.app.inject({
        method: 'GET',
        url: upload.url,
        headers: { authorization: `Bearer ${a.token}` },
      })
    ).statusCode,
  });

  beforeAll(async () => {
    t = await startTestServer(tier);
    const document = await t.server.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    documentFields = idFieldsOf(JSON.parse(document.body));
    [finance] = await fx.operators(`matrix-${tier}`);

    a = await fx.readyUser(`matrix-a-${tier}@coffer.test`, 'chain', EVM_ADDRESS);
    const b = await fx.readyUser(`matrix-b-${tier}@coffer.test`, 'bank');
    for (const [user, usdt, rab] of [
      [a, A_FUNDS.usdt, A_FUNDS.rab],
      [b, '5000', '500'],
    ] as const) {
      for (const [asset, amount] of [
        ['USDT', usdt],
        ['RAB', rab],
      ] as const) {
        const funded = await fx.asFinance<{ status: string }>(finance, '/api/admin/ledger/adjust', {
          accountId: user.accountId,
          asset,
          amount,
          reason: 'matrix funding',
        });
        expect(funded.data.status, funded.message).toBe('applied');
      }
    }
    ok(await fx.asFinance(finance, '/api/admin/settings/update', { rabPriceUsdt: '1' }));
    const product = ok(
      await fx.asFinance<{ id: string }>(finance, '/api/admin/hosting/product/add', {
        name: { en: 'Matrix thirty days', 'zh-Hans': '矩阵三十天' },
        days: '30',
        dailyRate: '0.001',
        minimum: '10',
        maximum: '1000',
        payout: 'at_maturity',
        earlyExit: 'false',
      }),
    );
    const machine = ok(
      await fx.asFinance<{ id: string }>(finance, '/api/admin/machine/add', {
        name: 'matrix machine',
        hashPower: '10',
        price: '100',
        days: '3',
        dailyOutput: '0.5',
        rentPrice: '3',
      }),
    );

    // A's records, each through the API.
    fx.toMorning();
    const day = localDate();
    const hosted = ok(
      await asA<{ order: { id: string } }>('/api/v1/hosting/create', {
        accountId: a.accountId,
        productId: product.id,
        amount: HOSTED,
        ...trade,
      }),
    );
    const sell = ok(
      await asA<{ id: string }>('/api/v1/otc/sell', {
        accountId: a.accountId,
        volume: OTC_VOLUME,
        price: '1',
        splittable: true,
        ...trade,
      }),
    );
    const withdrawal = await fx.withdraw(a, WITHDRAWN);
    expect(withdrawal.code, withdrawal.message).toBe(BodyCode.ok);
    ok(await asA('/api/v1/common/pushFeedback', { title: FEEDBACK_TITLE, content: 'only for support' }));
    const chatClientMsgId = crypto.randomUUID();
    ok(await asA('/api/v1/chat/send', { clientMsgId: chatClientMsgId, text: CHAT_TEXT }));
    const body = pngUpload();
    const uploaded = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/common/up-img',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    upload = z
      .object({ code: z.literal(200), data: z.object({ id: z.string(), url: z.string() }) })
      .parse(JSON.parse(uploaded.body)).data;
    // The day A's hosting counted ends; a dividend for it gives A a record to claim.
    fx.toMorning();
    ok(await fx.asFinance(finance, '/api/admin/dividend/publish', { day, total: DIVIDEND }));
    const releases = ok(
      await asA<{ items: Array<{ id: string }> }>('/api/v1/user/aiIncome', { accountId: a.accountId }),
    );
    // A adds a passkey (password and authenticator code), and asks for another challenge.
    const passkeyOptions = async () => {
      fx.nextStep();
      return ok(
        await asA<{ challengeId: string; options: { challenge: string; user: { id: string } } }>(
          '/api/v1/passkey/register-options',
          { password: 'secret123', googleCode: await fx.codeNow(a.secret) },
        ),
      );
    };
    const relying = { rpId: t.server.config.publicUrl.hostname, origin: t.server.config.publicUrl.origin };
    const firstOptions = await passkeyOptions();
    const passkey = ok(
      await asA<{ id: string }>('/api/v1/passkey/register', {
        challengeId: firstOptions.challengeId,
        name: 'A phone',
        response: new SoftPasskey(relying).register(firstOptions.options),
      }),
    );
    victim = {
      passkey: passkey.id,
      passkeyChallenge: (await passkeyOptions()).challengeId,
      chatClientMsgId,
      account: a.accountId,
      hostingOrder: hosted.order.id,
      otcOrder: sell.id,
      method: a.methodId,
      release: releases.items[0]?.id ?? '',
      session:
        ok(await asA<{ items: Array<{ id: string }> }>('/api/v1/user/sessions', {})).items[0]?.id ?? '',
    };
    const { passkeyChallenge, chatClientMsgId: _chat, ...rowIds } = victim;
    expect(Object.values(rowIds).every((id) => /^\d+$/.test(id))).toBe(true);
    expect(passkeyChallenge).toMatch(/^[\w-]{20,}$/);

    const sub = ok(
      await fx.call<{ id: string }>('/api/v1/account/createSubAccount', { name: 'B savings' }, b.token),
    );
    const quote = ok(
      await fx.call<{ priceVersion: string | null }>(
        '/api/v1/exchange/index',
        { accountId: b.accountId },
        b.token,
      ),
    );
    caller = {
      user: b,
      subAccount: sub.id,
      productId: product.id,
      machineId: machine.id,
      priceVersion: quote.priceVersion ?? '1',
      code: async () => {
        fx.nextStep();
        return fx.codeNow(b.secret);
      },
    };

    before = await snapshot();
    const assets = z.record(z.string(), z.unknown()).parse(before.assets);
    secrets = [
      a.email,
      EVM_ADDRESS.toLowerCase(),
      EVM_ADDRESS.slice(-8).toLowerCase(),
      A_FUNDS.usdt,
      A_FUNDS.rab,
      HOSTED,
      OTC_VOLUME,
      WITHDRAWN,
      DIVIDEND,
      FEEDBACK_TITLE.toLowerCase(),
      CHAT_TEXT.toLowerCase(),
      upload.id.toLowerCase(),
      // A's balances as they stand (those distinctive enough not to match by chance).
      ...Object.values(assets).filter(
        (value): value is string => typeof value === 'string' && value.includes('.') && value.length >= 5,
      ),
    ];
  }, 240_000);

  afterAll(async () => {
    await t?.close();
  });

  const leaksIn = (text: string) => secrets.filter((secret) => text.toLowerCase().includes(secret));

  test('every id-like field of every customer route in the OpenAPI document is in the matrix, and nothing else', () => {
    expect(documentFields.length).toBeGreaterThan(30);
    const named = [...Object.keys(MATRIX), IMAGE_ROUTE].sort();
    const missing = documentFields.filter((field) => !named.includes(field));
    expect(missing, 'add these route fields to MATRIX (owned by a user, or shared with a reason)').toEqual(
      [],
    );
    const stale = named.filter((field) => !documentFields.includes(field));
    expect(stale, 'these MATRIX entries are no longer in the document').toEqual([]);
  });

  test("B's calls with A's ids are all refused with 403 or 404 and carry nothing of A's", async () => {
    const wrong: string[] = [];
    let tried = 0;
    for (const [where, entry] of Object.entries(MATRIX)) {
      if (!('owned' in entry)) continue;
      const uri = where.split(' ')[0] ?? '';
      const params = await entry.params(victim, caller);
      const answer = await fx.call<unknown>(uri, params, caller.user.token);
      const text = JSON.stringify(answer);
      tried += 1;
      if (answer.code !== BodyCode.forbidden && answer.code !== BodyCode.notFound)
        wrong.push(`${where}: code ${answer.code} ${answer.message}`);
      // A refusal may name the field it refuses, and nothing more.
      if (answer.data !== null && !refusalDataSchema.safeParse(answer.data).success)
        wrong.push(`${where}: refusal with data ${JSON.stringify(answer.data)}`);
      const leaks = leaksIn(text);
      if (leaks.length > 0) wrong.push(`${where}: leaks ${leaks.join(', ')}`);
    }
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(35);
  });

  test("a disregarded id answers B's own figures with A's record shown as none", async () => {
    const wrong: string[] = [];
    for (const [where, entry] of Object.entries(MATRIX)) {
      if (!('disregarded' in entry)) continue;
      const uri = where.split(' ')[0] ?? '';
      const answer = await fx.call<Record<string, unknown>>(
        uri,
        entry.params(victim, caller),
        caller.user.token,
      );
      if (answer.code !== BodyCode.ok || !entry.answersOwn(answer.data, caller))
        wrong.push(`${where}: ${answer.code} ${JSON.stringify(answer.data)}`);
      const leaks = leaksIn(JSON.stringify(answer));
      if (leaks.length > 0) wrong.push(`${where}: leaks ${leaks.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  test("shared ids (catalogue, public book, news) answer B without anything of A's", async () => {
    const wrong: string[] = [];
    for (const [where, entry] of Object.entries(MATRIX)) {
      if (!('shared' in entry)) continue;
      const uri = where.split(' ')[0] ?? '';
      const answer = await fx.call<unknown>(uri, entry.params(victim, caller), caller.user.token);
      if (answer.code === BodyCode.internalError) wrong.push(`${where}: code 500`);
      const leaks = leaksIn(JSON.stringify(answer)).filter((secret) => secret !== OTC_VOLUME);
      if (leaks.length > 0) wrong.push(`${where}: leaks ${leaks.join(', ')}`);
    }
    expect(wrong).toEqual([]);
    // The one shared record of A's: the book shows the order, never whose it is.
    const order = await fx.call<Record<string, unknown>>(
      '/api/v1/pending/info',
      { orderId: victim.otcOrder },
      caller.user.token,
    );
    expect(order.code).toBe(BodyCode.ok);
    expect(order.data['mine']).toBe(false);
    expect(order.data).not.toHaveProperty('accountId');
    expect(order.data).not.toHaveProperty('userId');
  });

  test("A's uploaded image is not served to B, nor to a caller without a token", async () => {
    for (const headers of [{ authorization: `Bearer ${caller.user.token}` }, {}]) {
      const served = await t.server.app.inject({ method: 'GET', url: upload.url, headers });
      expect(served.rawPayload.includes(PNG.subarray(0, 16))).toBe(false);
      const answer = JSON.parse(served.body) as { code: number };
      expect([BodyCode.notFound, BodyCode.forbidden, BodyCode.notLoggedIn]).toContain(answer.code);
    }
  });

  test("B's own lists hold nothing of A's: feedback, sync pull, records", async () => {
    for (const uri of [
      '/api/v1/common/feedbackList',
      '/api/v1/sync/pull',
      '/api/v1/wallet/records',
      '/api/v1/hosting/order',
      '/api/v1/otc/meSellList',
      '/api/v1/withdraw/list',
      '/api/v1/user/payment-list',
      '/api/v1/user/aiIncome',
    ]) {
      const answer = await fx.call<unknown>(uri, {}, caller.user.token);
      expect(answer.code, `${uri}: ${answer.message}`).toBe(BodyCode.ok);
      // The pull carries the public OTC book, where A's order shows its volume (and never its owner).
      const leaks = leaksIn(JSON.stringify(answer)).filter(
        (secret) => !(uri === '/api/v1/sync/pull' && secret === OTC_VOLUME),
      );
      expect(leaks, uri).toEqual([]);
    }
  });

  test("afterwards A's balances and records are unchanged, A still sees A's image, and ledger check passes", async () => {
    expect(await snapshot()).toEqual(before);
    await fx.expectLedgerOk(finance);
  });
});
