/**
 * Real-name verification (issue 24): the four statuses and their moves (a second submission
 * while pending is 409, a rejected one may be sent again, one document is approved for one user
 * only), the document images private from the submission on (nobody but a signed link that
 * expires within 5 minutes, their EXIF and GPS gone), the number sealed at rest and masked to its
 * owner, and withdrawals above COFFER_UNVERIFIED_WITHDRAW_DAILY per business day answering 601
 * until the real name is approved.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BodyCode } from '../../contract/codes.js';
import { auditLog, identitySubmissions } from '../../server/db/schema.js';
import { availableTiers } from '../helpers/database.js';
import { ok, readyOperator, type ReadyOperator } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { expectSameImageWithoutMetadata, uploadImage } from '../helpers/uploads.js';
import { withdrawFixtures } from '../helpers/withdraw.js';

const tiers = await availableTiers('identity');

/** A photo as a phone takes it: a JPEG whose EXIF names the camera and where it stood (GPS). */
const phonePhoto = (colour: string) =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: colour } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '31/1 14/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '121/1 28/1 0/1',
      },
    })
    .toBuffer();

interface IdentityLike {
  status: string;
  documentType: string | null;
  documentNumber: string | null;
  realName: string | null;
  reason: string | null;
  reasonText: string | null;
  submittedAt: string | null;
  reviewedAt: string | null;
}

interface DetailLike {
  documentNumber: string;
  images: Array<{ url: string; expiresAt: string }>;
  sameDocument: Array<{ userId: string; status: string }>;
  history: Array<{ status: string; reason: string | null }>;
}

describe.each(tiers)('real-name verification on %s', (tier) => {
  let t: TestServer;
  let compliance: ReadyOperator;
  let support: ReadyOperator;
  const f = withdrawFixtures(() => t);

  beforeAll(async () => {
    t = await startTestServer(tier);
    compliance = await readyOperator(t, 'kyc@coffer.test', 'compliance');
    support = await readyOperator(t, 'help@coffer.test', 'support');
  });
  afterAll(async () => {
    await t.close();
  });

  const call = <T = IdentityLike>(uri: string, params: Record<string, unknown>, token: string) =>
    t.call<T>('plain', uri, params, { token, key: newKey(), lang: 'EN' });
  const info = async (token: string) => ok(await call('/api/v1/user/identity-info', {}, token), 'info');
  const get = (url: string, token?: string) =>
    t.server.app.inject({
      method: 'GET',
      url,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
  /** What a GET of `url` answers: 200 with the image, or the body code of a JSON refusal. */
  const served = async (url: string, token?: string) => {
    const response = await get(url, token);
    const json = String(response.headers['content-type']).startsWith('application/json');
    return json ? (JSON.parse(response.body) as { code: number }).code : response.statusCode;
  };
  const photos = async (token: string, count = 3) => {
    const colours = ['#a33', '#3a3', '#33a', '#aa3'];
    return Promise.all(
      colours.slice(0, count).map(async (colour) => uploadImage(t, token, await phonePhoto(colour))),
    );
  };
  const submit = async (token: string, number = 'AB 1234-5678', extra: Record<string, unknown> = {}) =>
    call(
      '/api/v1/user/identity-store',
      {
        documentType: 'id_card',
        documentNumber: number,
        realName: 'Li Lei',
        images: await photos(token),
        ...extra,
      },
      token,
    );
  const detail = async (userId: string) =>
    ok(await compliance.call<DetailLike>('/api/admin/identity/detail', { userId }), 'detail');

  test('the four statuses: not verified, pending (a second submission is 409), rejected with its reason, sent again, approved', async () => {
    const user = await t.register('plain', 'kyc-moves@coffer.test');
    expect(await info(user.token)).toMatchObject({
      status: 'not_verified',
      documentNumber: null,
      reason: null,
    });

    const first = await submit(user.token);
    expect(first.code, first.message).toBe(200);
    expect(first.message).toBe('Submitted: your documents are being reviewed');
    expect(first.data).toMatchObject({
      status: 'pending_review',
      documentType: 'id_card',
      documentNumber: 'AB******78',
      realName: 'Li Lei',
      reviewedAt: null,
    });
    const again = await submit(user.token);
    expect({ code: again.code, message: again.message }).toEqual({
      code: BodyCode.conflict,
      message: 'Your real-name verification is already being reviewed',
    });

    const queue = ok(
      await compliance.call<{ items: Array<{ userId: string }> }>('/api/admin/identity/list', {}),
      'queue',
    );
    expect(queue.items.map((item) => item.userId)).toContain(user.userId);

    const noText = await compliance.call('/api/admin/identity/reject', {
      userId: user.userId,
      reason: 'other',
    });
    expect(noText.code).toBe(BodyCode.invalidInput);
    ok(
      await compliance.call('/api/admin/identity/reject', { userId: user.userId, reason: 'unreadable' }),
      'reject',
    );
    expect(await info(user.token)).toMatchObject({
      status: 'rejected',
      reason: 'unreadable',
      reasonText: null,
    });
    const twice = await compliance.call('/api/admin/identity/approve', { userId: user.userId });
    expect(twice.code).toBe(BodyCode.conflict);

    expect((await submit(user.token)).data).toMatchObject({ status: 'pending_review', reason: null });
    ok(await compliance.call('/api/admin/identity/approve', { userId: user.userId }), 'approve');
    const approved = await info(user.token);
    expect(approved).toMatchObject({ status: 'approved', documentNumber: 'AB******78' });
    expect(approved.reviewedAt).not.toBeNull();
    expect((await submit(user.token)).code).toBe(BodyCode.conflict);

    const seen = await detail(user.userId);
    expect(seen.history.map((row) => [row.status, row.reason])).toEqual([['rejected', 'unreadable']]);
    const actions = await t.server.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.target, `user:${user.userId}`));
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining(['identity.reject', 'identity.approve', 'identity.view']),
    );
  });

  test('the customer is told the outcome by e-mail, in their language, with the reason of a rejection and where to send it again', async () => {
    const email = 'kyc-mail@coffer.test';
    const user = await t.register('plain', email);
    const lastMail = () => [...t.mailer.sent].reverse().find((mail) => mail.to === email);
    ok(await submit(user.token, 'MAIL 778899'), 'submit');
    ok(
      await compliance.call('/api/admin/identity/reject', {
        userId: user.userId,
        reason: 'other',
        note: 'The back is missing',
      }),
      'reject',
    );
    // Registered without a language: zh-Hans, the app's default, is the one they last used.
    expect(lastMail()).toMatchObject({ subject: '您的 Coffer 实名认证未通过' });
    expect(lastMail()?.text).toContain('The back is missing');
    expect(lastMail()?.text).toContain('pages/setting/setting2');
    expect(lastMail()?.html).toContain('The back is missing');
    ok(await submit(user.token, 'MAIL 778899'), 'again');
    ok(await compliance.call('/api/admin/identity/approve', { userId: user.userId }), 'approve');
    expect(lastMail()).toMatchObject({ subject: '您的 Coffer 实名认证已通过' });
  });

  test('the number is sealed at rest and shown whole only to compliance; the same document on another account is found, and is approved for one user only (409)', async () => {
    const first = await t.register('plain', 'kyc-doc-a@coffer.test');
    const second = await t.register('plain', 'kyc-doc-b@coffer.test');
    ok(await submit(first.token, 'X9 8765 4321'), 'first');
    ok(await submit(second.token, 'x9-87654321'), 'second, written another way');
    const rows = await t.server.database.db
      .select()
      .from(identitySubmissions)
      .where(eq(identitySubmissions.userId, Number(first.userId)));
    expect(JSON.stringify(rows)).not.toContain('87654321');

    const seen = await detail(second.userId);
    expect(seen.documentNumber).toBe('X987654321');
    expect(seen.sameDocument.map((row) => row.userId)).toEqual([first.userId]);

    ok(await compliance.call('/api/admin/identity/approve', { userId: first.userId }), 'approve the first');
    const taken = await compliance.call('/api/admin/identity/approve', { userId: second.userId });
    expect({ code: taken.code, message: taken.message }).toEqual({
      code: BodyCode.conflict,
      message: 'This document is already verified for another account',
    });
    expect((await info(second.token)).status).toBe('pending_review');
    expect((await detail(second.userId)).sameDocument).toEqual([
      expect.objectContaining({ userId: first.userId, status: 'approved' }),
    ]);
  });

  test('two approvals of one document for two users at once: one is approved, the other answers 409 (never a 500)', async () => {
    const users = await Promise.all(
      ['kyc-race-a@coffer.test', 'kyc-race-b@coffer.test'].map((email) => t.register('plain', email)),
    );
    for (const user of users) ok(await submit(user.token, 'RACE 000111'), 'submit');
    const token = await compliance.token(); // one session for both, so neither signs in mid-race
    const answers = await Promise.all(
      users.map((user) => compliance.call('/api/admin/identity/approve', { userId: user.userId }, { token })),
    );
    expect(answers.map((answer) => answer.code).sort()).toEqual([200, BodyCode.conflict]);
  });

  test('document images: nobody by the plain link (the owner, another customer, anonymous, support, compliance); the signed link works for 5 minutes, and the image has no EXIF or GPS', async () => {
    const owner = await t.register('plain', 'kyc-images@coffer.test');
    const stranger = await t.register('plain', 'kyc-stranger@coffer.test');
    const original = await phonePhoto('#a33');
    expect((await sharp(original).metadata()).exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD's tag
    const url = await uploadImage(t, owner.token, original);
    expect(await served(url, owner.token)).toBe(200); // before submission: the owner's preview
    ok(
      await call(
        '/api/v1/user/identity-store',
        { documentType: 'passport', documentNumber: 'E12345678', realName: 'Han Meimei', images: [url] },
        owner.token,
      ),
      'submit',
    );
    for (const [who, token] of [
      ['the owner', owner.token],
      ['another customer', stranger.token],
      ['anonymous', undefined],
      ['support', await support.token()],
      ['compliance', await compliance.token()],
    ] as const) {
      expect({ who, status: await served(url, token) }).toEqual({ who, status: BodyCode.notFound });
    }

    const [link] = (await detail(owner.userId)).images;
    if (!link) throw new Error('no image link');
    expect(Date.parse(link.expiresAt) - t.clock.now().getTime()).toBeLessThanOrEqual(5 * 60_000);
    const image = await get(link.url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('private, no-store');
    await expectSameImageWithoutMetadata(image.rawPayload, original);
    expect(image.rawPayload.includes('PhoneMaker')).toBe(false);

    const tampered = link.url.replace(
      /sig=(.)/,
      (_whole, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`,
    );
    expect(await served(tampered)).toBe(BodyCode.notFound);
    expect(await served(link.url.replace(/expires=\d+/, 'expires=9999999999'))).toBe(BodyCode.notFound);
    t.clock.advance(301);
    expect(await served(link.url)).toBe(BodyCode.notFound);
  });

  test("images must be the user's own JPEG, PNG or WebP uploads, 1 to 3, never sent twice; a document image cannot go into feedback", async () => {
    const user = await t.register('plain', 'kyc-bad-images@coffer.test');
    const other = await t.register('plain', 'kyc-other-images@coffer.test');
    const gif = await uploadImage(
      t,
      user.token,
      Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
      'a.gif',
      'image/gif',
    );
    const [theirs] = await photos(other.token, 1);
    const mine = await photos(user.token, 1);
    for (const images of [[], [gif], [theirs], [...mine, ...mine], await photos(user.token, 4)]) {
      const refused = await submit(user.token, 'AB1234', { images });
      expect({
        images,
        code: refused.code,
        field: (refused.data as { field?: string } | null)?.field,
      }).toEqual({
        images,
        code: BodyCode.invalidInput,
        field: 'images',
      });
    }
    expect((await info(user.token)).status).toBe('not_verified');
    ok(await submit(user.token, 'AB1234', { images: mine }), 'submit');
    const feedback = await call(
      '/api/v1/common/pushFeedback',
      { title: 'Look', content: 'My passport', images: mine },
      user.token,
    );
    expect(feedback.code).toBe(BodyCode.invalidInput);
  });

  test('601 past the unverified daily limit (1000 USDT per business day), counted per business day, and none once approved', async () => {
    const [finance] = await f.operators('kyc');
    const user = await f.readyUser('kyc-withdraw@coffer.test');
    await f.fund(finance, user.accountId, '5000');
    f.toMorning();
    expect((await f.withdraw(user, '600')).code).toBe(200);
    const over = await f.withdraw(user, '400.01');
    expect({ code: over.code, message: over.message }).toEqual({
      code: BodyCode.realNameRequired,
      message:
        'Real-name verification is required to withdraw more than 1000 USDT a day (400 USDT remains today)',
    });
    expect((await f.withdraw(user, '400')).code).toBe(200);

    f.toMorning(); // the next business day
    expect((await f.withdraw(user, '1000.01')).code).toBe(BodyCode.realNameRequired);
    const index = ok(
      await call<{ realNameApproved: boolean; unverifiedDailyLimit: string }>(
        '/api/v1/withdraw/index',
        { accountId: user.accountId },
        user.token,
      ),
      'index',
    );
    expect(index).toMatchObject({ realNameApproved: false, unverifiedDailyLimit: '1000' });

    ok(await submit(user.token, 'W1THDRAW99'), 'submit');
    ok(await compliance.call('/api/admin/identity/approve', { userId: user.userId }), 'approve');
    expect((await f.withdraw(user, '1500')).code).toBe(200);
    await f.expectLedgerOk(finance);
  });

  test('the identity record is synced to its owner (readable offline) and follows the review', async () => {
    const user = await t.register('plain', 'kyc-sync@coffer.test');
    ok(await submit(user.token, 'SYNC123456'), 'submit');
    const pull = async (cursors: Record<string, string> = {}) =>
      ok(
        await call<{ changes: Record<string, { upserts: IdentityLike[] }>; cursors: Record<string, string> }>(
          '/api/v1/sync/pull',
          { cursors },
          user.token,
        ),
        'pull',
      );
    const first = await pull();
    expect(first.changes['identity']?.upserts).toEqual([
      expect.objectContaining({ id: user.userId, status: 'pending_review', documentNumber: 'SY******56' }),
    ]);
    ok(
      await compliance.call('/api/admin/identity/reject', {
        userId: user.userId,
        reason: 'other',
        note: 'Glare',
      }),
      'reject',
    );
    const next = await pull(first.cursors);
    expect(next.changes['identity']?.upserts).toEqual([
      expect.objectContaining({ status: 'rejected', reason: 'other', reasonText: 'Glare' }),
    ]);
  });
});
