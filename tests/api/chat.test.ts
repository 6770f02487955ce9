/**
 * Customer service chat (issue 25, docs/protocol.md §35): exactly-once sends by clientMsgId (a
 * repeat after a lost answer, repeats at once), seqs rising by one, HTML kept as text, images of
 * the sender's own only, internal notes invisible to the customer (history, sync, socket), read
 * ticks both ways, reopening on a customer message, the desk (queue order, assign, canned
 * replies, settings, context), the sockets (catch-up by seq after a cut, none missed or doubled;
 * garbage and floods close that socket only), and the unread reply e-mail with a manual clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHAT_CLOSE, CHAT_FRAMES_PER_MINUTE, type AdminChatConversation } from '../../contract/api/chat.js';
import { BodyCode } from '../../contract/codes.js';
import type { PullData } from '../../contract/sync.js';
import { availableTiers } from '../helpers/database.js';
import { listenLoopback, openChatSocket, signedInSocket, type Frame } from '../helpers/chat-socket.js';
import { ok, readyOperator, type ReadyOperator } from '../helpers/operator.js';
import { newKey, startTestServer, type TestServer } from '../helpers/server.js';
import { PIXEL_PNG, uploadImage } from '../helpers/uploads.js';

const tiers = await availableTiers('chat');

interface Message {
  id: string;
  seq: number;
  clientMsgId: string;
  from: 'customer' | 'agent';
  agentName: string | null;
  text: string | null;
  imageUrl: string | null;
  createdAt: string;
  internal?: boolean;
}
interface History {
  items: Message[];
  lastSeq: number;
  customerReadSeq: number;
  agentReadSeq: number;
}

describe.each(tiers)('customer service chat on %s', (tier) => {
  let t: TestServer;
  let agent: ReadyOperator;
  let base: string;

  beforeAll(async () => {
    t = await startTestServer(tier);
    agent = await readyOperator(t, 'desk@coffer.test', 'support');
    base = await listenLoopback(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = <T>(uri: string, params: Record<string, unknown>, token: string, key: string = newKey()) =>
    t.call<T>('plain', uri, params, { token, key, lang: 'EN' });
  const send = (token: string, body: Record<string, unknown>, key?: string) =>
    call<Message>('/api/v1/chat/send', { clientMsgId: newKey(), ...body }, token, key);
  const history = async (token: string, params: Record<string, unknown> = {}) =>
    ok(await call<History>('/api/v1/chat/history', params, token), 'history');
  const reply = async (userId: string, body: Record<string, unknown>) =>
    ok(await agent.call<Message>('/api/admin/chat/reply', { userId, ...body }), 'reply');
  const pull = async (token: string) =>
    ok(await t.call<PullData>('plain', '/api/v1/sync/pull', { cursors: {} }, { token }), 'pull');

  test('a repeat of a clientMsgId after a lost answer returns the stored message, never a second one', async () => {
    const user = await t.register('plain', 'chat-once@coffer.test');
    const clientMsgId = newKey();
    const first = await send(user.token, { clientMsgId, text: 'where is my deposit?' });
    expect(first.code, first.message).toBe(200);
    // The answer was lost: the outbox sends again with the same client id (and a new request key).
    const again = await send(user.token, { clientMsgId, text: 'where is my deposit?' });
    expect(again.data).toEqual(first.data);
    // Even with another body, the stored message answers.
    const other = await send(user.token, { clientMsgId, text: 'something else' });
    expect(other.data).toEqual(first.data);
    const page = await history(user.token);
    expect(page.items.map((item) => item.clientMsgId)).toEqual([clientMsgId]);
    expect(page.lastSeq).toBe(1);
  });

  test('the same clientMsgId sent many times at once makes one message; seqs rise by one', async () => {
    const user = await t.register('plain', 'chat-race@coffer.test');
    const clientMsgId = newKey();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send(user.token, { clientMsgId, text: 'hello' })),
    );
    expect(new Set(answers.map((answer) => answer.data.id)).size).toBe(1);
    const texts = await Promise.all(
      Array.from({ length: 5 }, (_, index) => send(user.token, { text: `message ${index}` })),
    );
    expect(texts.every((answer) => answer.code === 200)).toBe(true);
    const page = await history(user.token);
    expect(page.items.map((item) => item.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('HTML and scripts in a message are kept as text, both ways', async () => {
    const user = await t.register('plain', 'chat-html@coffer.test');
    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script> &amp;';
    const sent = ok(await send(user.token, { text: html }), 'send');
    expect(sent.text).toBe(html);
    const answered = await reply(user.userId, { text: `<b>${html}</b>` });
    const page = await history(user.token);
    expect(page.items.map((item) => item.text)).toEqual([html, answered.text]);
    expect(answered.text).toBe(`<b>${html}</b>`);
  });

  test('text or image, one of them; an image must be the sender’s own upload (another user’s or a foreign URL refused)', async () => {
    const user = await t.register('plain', 'chat-image@coffer.test');
    const stranger = await t.register('plain', 'chat-image-2@coffer.test');
    const mine = await uploadImage(t, user.token, PIXEL_PNG);
    const theirs = await uploadImage(t, stranger.token, PIXEL_PNG);
    const image = await send(user.token, { imageUrl: mine });
    expect(image.code, image.message).toBe(200);
    expect(image.data).toMatchObject({ imageUrl: mine, text: null, from: 'customer' });

    const foreign = await send(user.token, { imageUrl: theirs });
    expect(foreign.code).toBe(BodyCode.invalidInput);
    expect(foreign.data).toEqual({ field: 'imageUrl' });
    expect(foreign.message).toBe('The image must be one you uploaded yourself');
    const url = await send(user.token, { imageUrl: 'https://evil.example/x.png' });
    expect(url.code).toBe(BodyCode.invalidInput);
    expect(url.data).toEqual({ field: 'imageUrl' });
    const both = await send(user.token, { text: 'hi', imageUrl: mine });
    expect(both.code).toBe(BodyCode.invalidInput);
    const neither = await send(user.token, {});
    expect(neither.code).toBe(BodyCode.invalidInput);
    const long = await send(user.token, { text: 'x'.repeat(2001) });
    expect(long.code).toBe(BodyCode.invalidInput);

    // An agent's image in the conversation is served to its customer, not to another.
    const agentImage = await uploadImage(t, await agent.token(), PIXEL_PNG);
    await reply(user.userId, { imageUrl: agentImage });
    const get = (token: string) =>
      t.server.app.inject({ method: 'GET', url: agentImage, headers: { authorization: `Bearer ${token}` } });
    expect((await get(user.token)).statusCode).toBe(200);
    expect((await get(stranger.token)).headers['content-type']).toMatch(/json/);
  });

  test('internal notes are invisible to the customer: history, sync and socket; the desk sees them marked', async () => {
    const user = await t.register('plain', 'chat-notes@coffer.test');
    const socket = await signedInSocket(base, user.token);
    ok(await send(user.token, { text: 'my withdrawal?' }), 'send');
    const note = await reply(user.userId, { text: 'NOTE: check the chain first', internal: true });
    expect(note).toMatchObject({ internal: true, seq: 1 });
    const answer = await reply(user.userId, { text: 'It is on its way' });
    expect(answer.seq).toBe(2);
    await socket.next((frame) => frame.type === 'message' && (frame['message'] as Message).seq === 2);

    const everything = JSON.stringify([await history(user.token), await pull(user.token), socket.frames]);
    expect(everything).not.toContain('NOTE');
    expect(socket.seqs()).toEqual([1, 2]);
    const synced = (await pull(user.token)).changes['chat_messages']?.upserts ?? [];
    expect(synced.map((record) => record['seq'])).toEqual([1, 2]);

    const desk = ok(
      await agent.call<{ items: Message[] }>('/api/admin/chat/history', { userId: user.userId }),
      'desk history',
    );
    expect(desk.items.map((item) => [item.seq, item.internal])).toEqual([
      [1, false],
      [1, true],
      [2, false],
    ]);
    socket.close();
  });

  test('read ticks both ways: the agents’ mark reaches the customer (history, sync, socket), the customer’s reaches the desk', async () => {
    const user = await t.register('plain', 'chat-ticks@coffer.test');
    const desk = await signedInSocket(base, await agent.token(), '/api/admin/chat/socket');
    const socket = await signedInSocket(base, user.token);
    ok(await send(user.token, { text: 'one' }), 'send');
    ok(await send(user.token, { text: 'two' }), 'send');
    expect((await history(user.token)).agentReadSeq).toBe(0);

    const read = ok(
      await agent.call<AdminChatConversation>('/api/admin/chat/read', { userId: user.userId, seq: 2 }),
      'agent read',
    );
    expect(read.agentReadSeq).toBe(2);
    expect(await socket.next((frame) => frame.type === 'read')).toEqual({
      type: 'read',
      by: 'agent',
      seq: 2,
    });
    expect((await history(user.token)).agentReadSeq).toBe(2);
    const reads = (await pull(user.token)).changes['chat_reads']?.upserts ?? [];
    expect(reads).toEqual([expect.objectContaining({ id: user.userId, agentReadSeq: 2, lastSeq: 2 })]);

    await reply(user.userId, { text: 'three' });
    const mine = ok(
      await call<{ customerReadSeq: number }>('/api/v1/chat/read', { seq: 99 }, user.token),
      'read',
    );
    expect(mine.customerReadSeq).toBe(3); // at most the newest
    await desk.next(
      (frame) => frame.type === 'read' && frame['by'] === 'customer' && frame['userId'] === user.userId,
    );
    const back = ok(
      await call<{ customerReadSeq: number }>('/api/v1/chat/read', { seq: 1 }, user.token),
      'read',
    );
    expect(back.customerReadSeq).toBe(3); // a mark never goes back
    socket.close();
    desk.close();
  });

  test('a customer message after resolve reopens the conversation; the desk lists unassigned first, oldest waiting first', async () => {
    const early = await t.register('plain', 'chat-queue-1@coffer.test');
    ok(await send(early.token, { text: 'first in line' }), 'send');
    t.clock.advance(60);
    const late = await t.register('plain', 'chat-queue-2@coffer.test');
    ok(await send(late.token, { text: 'second in line' }), 'send');
    t.clock.advance(60);
    const assigned = await t.register('plain', 'chat-queue-3@coffer.test');
    ok(await send(assigned.token, { text: 'already taken' }), 'send');
    ok(await agent.call('/api/admin/chat/assign', { userId: assigned.userId }), 'assign');

    const list = ok(
      await agent.call<{ items: AdminChatConversation[] }>('/api/admin/chat/list', {
        status: 'open',
        limit: 100,
      }),
      'list',
    );
    const order = list.items.map((item) => item.userId);
    const position = (id: string) => order.indexOf(id);
    expect(position(early.userId)).toBeLessThan(position(late.userId));
    expect(position(late.userId)).toBeLessThan(position(assigned.userId));
    expect(list.items.find((item) => item.userId === assigned.userId)).toMatchObject({
      assigneeName: 'Support',
      unread: 1,
    });

    const resolved = ok(
      await agent.call<AdminChatConversation>('/api/admin/chat/resolve', { userId: early.userId }),
      'resolve',
    );
    expect(resolved.status).toBe('resolved');
    ok(await send(early.token, { text: 'one more thing' }), 'send');
    const after = ok(
      await agent.call<AdminChatConversation>('/api/admin/chat/history', { userId: early.userId }),
      'history',
    ) as unknown as { conversation: AdminChatConversation };
    expect(after.conversation.status).toBe('open');
  });

  test('the agent’s display name, never the e-mail, is what the customer sees', async () => {
    const user = await t.register('plain', 'chat-name@coffer.test');
    ok(await send(user.token, { text: 'hi' }), 'send');
    const me = ok(await agent.call<{ operatorId: string }>('/api/admin/auth/me', {}), 'me');
    const named = await agent.call<{ displayName: string }>('/api/admin/operator/display-name', {
      operatorId: me.operatorId,
      displayName: 'Anna',
    });
    expect(named.code, named.message).toBe(200);
    await reply(user.userId, { text: 'hello from Anna' });
    const page = await history(user.token);
    expect(page.items[1]).toMatchObject({ from: 'agent', agentName: 'Anna' });
    expect(JSON.stringify(page)).not.toContain('desk@coffer.test');
  });

  test('another user’s conversation is never read: history names none, and the desk routes refuse customers', async () => {
    const owner = await t.register('plain', 'chat-owner@coffer.test');
    const other = await t.register('plain', 'chat-other@coffer.test');
    ok(await send(owner.token, { text: 'private' }), 'send');
    const theirs = await history(other.token);
    expect(theirs).toEqual({ items: [], lastSeq: 0, customerReadSeq: 0, agentReadSeq: 0 });
    const desk = await call('/api/admin/chat/history', { userId: owner.userId }, other.token);
    expect(desk.code).toBe(BodyCode.notLoggedIn);
    const anonymous = await t.call('plain', '/api/v1/chat/history', {});
    expect(anonymous.code).toBe(BodyCode.notLoggedIn);
  });

  test('canned replies by code and language, support hours and community links, the customer context', async () => {
    const saved = ok(
      await agent.call<{ id: string }>('/api/admin/chat/canned-save', {
        code: 'deposit',
        language: 'en',
        text: 'Deposits credit after 15 confirmations.',
      }),
      'save',
    );
    ok(
      await agent.call('/api/admin/chat/canned-save', {
        code: 'deposit',
        language: 'en',
        text: 'Updated text',
      }),
      'save again',
    );
    const bad = await agent.call('/api/admin/chat/canned-save', {
      code: 'Bad Code',
      language: 'en',
      text: 'x',
    });
    expect(bad.code).toBe(BodyCode.invalidInput);
    const list = ok(
      await agent.call<{ items: Array<{ id: string; text: string }> }>('/api/admin/chat/canned-list', {
        language: 'en',
      }),
      'list',
    );
    expect(list.items).toEqual([
      expect.objectContaining({ id: saved.id, code: 'deposit', text: 'Updated text' }),
    ]);
    ok(await agent.call('/api/admin/chat/canned-delete', { id: saved.id }), 'delete');
    expect(
      ok(await agent.call<{ items: unknown[] }>('/api/admin/chat/canned-list', {}), 'list').items,
    ).toEqual([]);

    ok(
      await agent.call('/api/admin/chat/settings-save', {
        hours: { opens: '09:00', closes: '18:00', days: [1, 2, 3, 4, 5] },
        communities: [{ name: 'International', url: 'https://t.me/coffer_intl' }],
      }),
      'settings',
    );
    const badUrl = await agent.call('/api/admin/chat/settings-save', {
      communities: [{ name: 'x', url: 'javascript:alert(1)' }],
    });
    expect(badUrl.code).toBe(BodyCode.invalidInput);
    // 2026-01-05T02:00Z is a Monday, 10:00 in Asia/Shanghai.
    const info = ok(await t.call<Record<string, unknown>>('plain', '/api/v1/chat/info', {}), 'info');
    expect(info).toMatchObject({
      hours: { opens: '09:00', closes: '18:00', days: [1, 2, 3, 4, 5] },
      openNow: true,
      communities: [{ name: 'International', url: 'https://t.me/coffer_intl' }],
    });

    const user = await t.register('plain', 'chat-context@coffer.test');
    const context = ok(
      await agent.call<Record<string, unknown>>('/api/admin/chat/context', { userId: user.userId }),
      'context',
    );
    expect(context).toMatchObject({
      user: { id: user.userId, email: 'chat-context@coffer.test' },
      identityStatus: 'not_verified',
      pendingWithdrawals: [],
      recentDeposits: [],
      openFeedback: [],
    });
    expect((context['balances'] as unknown[]).length).toBeGreaterThan(0);
  });

  test('catch-up after a socket cut while messages were sent: none missed, none doubled, then live ones', async () => {
    const user = await t.register('plain', 'chat-catchup@coffer.test');
    const first = await signedInSocket(base, user.token);
    ok(await send(user.token, { text: 'before the cut' }), 'send');
    await first.next((frame) => frame.type === 'message');
    first.cut();
    await first.closed;

    for (let index = 0; index < 5; index += 1) await reply(user.userId, { text: `while away ${index}` });
    const second = await signedInSocket(base, user.token);
    second.send({ type: 'resume', afterSeq: 1 });
    // A live message right after the resume, racing its backlog read.
    await reply(user.userId, { text: 'live' });
    await second.next((frame) => frame.type === 'message' && (frame['message'] as Message).seq === 7);
    await second.next((frame) => frame.type === 'message' && (frame['message'] as Message).seq === 2);
    expect([...second.seqs()].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);

    // Resuming again from an older seq sends only what this socket has not sent: none twice.
    second.send({ type: 'resume', afterSeq: 0 });
    await second.next((frame) => frame.type === 'message' && (frame['message'] as Message).seq === 1);
    ok(await send(user.token, { text: 'after' }), 'send');
    await second.next((frame) => frame.type === 'message' && (frame['message'] as Message).seq === 8);
    expect([...second.seqs()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    second.close();
  });

  test('a socket that sends garbage or floods is closed; another socket of the same user is unaffected', async () => {
    const user = await t.register('plain', 'chat-garbage@coffer.test');
    const steady = await signedInSocket(base, user.token);

    const garbage = await signedInSocket(base, user.token);
    garbage.raw('{"type": "resume", "afterSeq": "DROP TABLE"');
    expect((await garbage.closed).code).toBe(CHAT_CLOSE.badFrame);

    const flood = await signedInSocket(base, user.token);
    for (let index = 0; index <= CHAT_FRAMES_PER_MINUTE; index += 1) flood.send({ type: 'ping' });
    expect((await flood.closed).code).toBe(CHAT_CLOSE.flood);

    const unsigned = await openChatSocket(base);
    unsigned.send({ type: 'resume', afterSeq: 0 });
    expect((await unsigned.closed).code).toBe(CHAT_CLOSE.badFrame);
    const wrong = await openChatSocket(base);
    wrong.send({ type: 'auth', token: 'x'.repeat(40) });
    expect((await wrong.closed).code).toBe(CHAT_CLOSE.unauthorized);
    const customerOnDesk = await openChatSocket(base, '/api/admin/chat/socket');
    customerOnDesk.send({ type: 'auth', token: user.token });
    expect((await customerOnDesk.closed).code).toBe(CHAT_CLOSE.unauthorized);

    expect(steady.isOpen()).toBe(true);
    steady.send({ type: 'ping' });
    await steady.next((frame) => frame.type === 'pong');
    await reply(user.userId, { text: 'still here' });
    await steady.next((frame) => frame.type === 'message');
    steady.close();
  });

  test('at most 5 sockets per user: a sixth closes the oldest', async () => {
    const user = await t.register('plain', 'chat-many@coffer.test');
    const sockets = [];
    for (let index = 0; index < 6; index += 1) sockets.push(await signedInSocket(base, user.token));
    expect((await sockets[0]!.closed).code).toBe(CHAT_CLOSE.tooManySockets);
    expect(sockets.slice(1).every((socket) => socket.isOpen())).toBe(true);
    for (const socket of sockets) socket.close();
  });

  test('the desk socket gets new customer messages and notes', async () => {
    const user = await t.register('plain', 'chat-desk@coffer.test');
    const desk = await signedInSocket(base, await agent.token(), '/api/admin/chat/socket');
    const from = desk.frames.length;
    ok(await send(user.token, { text: 'to the desk' }), 'send');
    const frame: Frame = await desk.next(
      (item) => item.type === 'message' && item['userId'] === user.userId,
      from,
    );
    expect(frame['message']).toMatchObject({ text: 'to the desk', internal: false, seq: 1 });
    await desk.next((item) => item.type === 'conversation', from);
    await reply(user.userId, { text: 'a note', internal: true });
    await desk.next(
      (item) => item.type === 'message' && (item['message'] as Message).internal === true,
      from,
    );
    desk.close();
  });

  test('unread reply e-mail: after 2 minutes unread, at most one per 10 minutes, none once read', async () => {
    const user = await t.register('plain', 'chat-mail@coffer.test');
    ok(await send(user.token, { text: 'help' }), 'send');
    const mails = () =>
      t.mailer.sent.filter(
        (mail) => mail.to === 'chat-mail@coffer.test' && mail.text.includes('pages/chatroom/room'),
      );
    const run = () => t.server.scheduler.runNow('chat-unread-mail');

    await reply(user.userId, { text: 'answer 1' });
    t.clock.advance(60);
    await run();
    expect(mails()).toHaveLength(0); // unread for 1 minute only
    t.clock.advance(61);
    await run();
    expect(mails()).toHaveLength(1);
    expect(mails()[0]?.text).toContain('您有 1 条客服回复'); // the user's language (registered in the default one)

    await reply(user.userId, { text: 'answer 2' });
    t.clock.advance(180);
    await run();
    expect(mails()).toHaveLength(1); // within 10 minutes of the last mail
    t.clock.advance(419);
    await run();
    expect(mails()).toHaveLength(1); // 9:59 after the first mail
    t.clock.advance(31);
    await run();
    expect(mails()).toHaveLength(2); // 10 minutes on: the second batch
    t.clock.advance(600);
    await run();
    expect(mails()).toHaveLength(2); // nothing new since

    await reply(user.userId, { text: 'answer 3' });
    ok(await call('/api/v1/chat/read', { seq: 99 }, user.token), 'read');
    t.clock.advance(900);
    await run();
    expect(mails()).toHaveLength(2); // read in time: no mail
  });
});
