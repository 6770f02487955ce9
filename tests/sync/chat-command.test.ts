/**
 * A chat message as an outbox command (`chat-send`, docs/protocol.md §35): written offline it
 * waits with its clientMsgId and is sent once back online; a lost answer is sent again with the
 * same Idempotency-Key and the same clientMsgId (the server keeps one message); a retry after a
 * refusal is a new key but the same clientMsgId; an image is uploaded first and sent as its URL;
 * text and image together, or neither, are refused at enqueue. On IndexedDB and the in-memory twin.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import * as checks from './command-checks.js';
import { COMMAND_STORAGES, commandWorld, pngBlob } from './helpers.js';
import { CHAT_RESOURCE } from '../../worker/handlers/chat.commands.js';

const SEND = '/api/v1/chat/send';
const UP_IMG = '/api/v1/common/up-img';

describe.each(COMMAND_STORAGES)('a chat message in the outbox on %s', (_name, makeStorage) => {
  const world = commandWorld(makeStorage);
  const { network, loggedIn, stored } = world;

  test('written offline it waits with its clientMsgId and is sent once back online', async () => {
    const engine = await loggedIn();
    network.online = false;
    const id = await checks.enqueued(engine, {
      kind: 'chat-send',
      params: { text: '  where is my deposit?  ' },
    });
    const queued = await stored(id);
    expect(queued).toMatchObject({
      state: 'queued',
      resource: CHAT_RESOURCE,
      params: { text: 'where is my deposit?' },
    });
    const clientMsgId = (queued?.params as { clientMsgId: string }).clientMsgId;
    expect(clientMsgId).toMatch(/^[A-Za-z0-9_-]{2,64}$/);
    expect((await engine.drain()).status).toBe('offline');
    expect(world.server.seenOn(SEND)).toHaveLength(0);
    network.online = true;
    expect((await engine.drain()).confirmed).toEqual([id]);
    expect(world.server.seenOn(SEND)).toEqual([
      { uri: SEND, key: id, token: 'tok-7', params: { clientMsgId, text: 'where is my deposit?' } },
    ]);
    await engine.drain();
    expect(world.server.effectsOn(SEND)).toHaveLength(1);
  });

  test('a lost answer is sent again with the same key and the same clientMsgId: one message on the server', async () => {
    const engine = await loggedIn();
    world.server.fault = (call) =>
      call.uri === SEND && world.server.seenOn(SEND).length === 1 ? 'lose-answer' : null;
    const id = await checks.enqueued(engine, { kind: 'chat-send', params: { text: 'hello' } });
    await engine.drain();
    expect(world.server.seenOn(SEND).length).toBeGreaterThanOrEqual(2);
    const [first, ...again] = world.server.seenOn(SEND);
    for (const call of again) expect(call).toEqual(first);
    expect(world.server.effectsOn(SEND)).toHaveLength(1);
    expect((await stored(id))?.state).toBe('confirmed');
  });

  test('messages leave in the order written, and a refused one holds the later ones until retried with the same clientMsgId', async () => {
    const engine = await loggedIn();
    world.server.refuse = (call) =>
      call.uri === SEND && call.params['text'] === 'first' && world.server.seenOn(SEND).length === 1
        ? { code: 429, message: 'too many requests' }
        : null;
    const first = await checks.enqueued(engine, { kind: 'chat-send', params: { text: 'first' } });
    const second = await checks.enqueued(engine, { kind: 'chat-send', params: { text: 'second' } });
    const drained = await engine.drain();
    expect(drained.rejected).toEqual([first]);
    expect(drained.heldBack).toEqual([second]);
    const retried = await engine.retry(first);
    if (retried.kind !== 'ok') throw new Error('not retried');
    await engine.drain();
    const sends = world.server.seenOn(SEND);
    expect(sends.map((call) => call.params['text'])).toEqual(['first', 'first', 'second']);
    expect(sends[1]?.key).toBe(retried.id);
    expect(sends[1]?.params['clientMsgId']).toBe(sends[0]?.params['clientMsgId']);
  });

  test('an image is uploaded under its own key first, then sent as its URL', async () => {
    const engine = await loggedIn();
    const id = await checks.enqueued(engine, { kind: 'chat-send', params: { image: pngBlob() } });
    await engine.drain();
    expect(world.server.seen.map((call) => call.uri).slice(0, 2)).toEqual([UP_IMG, SEND]);
    const [upload] = world.server.seenOn(UP_IMG);
    expect(upload?.key).not.toBe(id);
    expect(world.server.seenOn(SEND)[0]?.params).toEqual({
      clientMsgId: expect.any(String),
      imageUrl: '/api/v1/common/img/upload000001',
    });
  });

  test('text and image together, neither, or text over 2,000 characters are refused at enqueue on text', async () => {
    const engine = await loggedIn();
    await checks.expectInvalid(
      engine,
      { kind: 'chat-send', params: { text: 'hi', image: pngBlob() } },
      'text',
    );
    await checks.expectInvalid(engine, { kind: 'chat-send', params: {} }, 'text');
    await checks.expectInvalid(engine, { kind: 'chat-send', params: { text: '   ' } }, 'text');
    await checks.expectInvalid(engine, { kind: 'chat-send', params: { text: 'x'.repeat(2001) } }, 'text');
    expect(await engine.pendingCount()).toBe(0);
  });
});
