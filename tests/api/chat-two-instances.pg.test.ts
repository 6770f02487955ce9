/**
 * Chat delivery across two instances through Redis (docs/protocol.md §35.3): a customer's socket
 * on instance A and the agents' desk socket on instance B; a message sent through either reaches
 * the sockets of the other, in seq order, none missed or doubled, and the same clientMsgId sent to
 * both at once makes one message. Needs PostgreSQL and Redis: without either it reports a clear skip.
 */
import { describe, expect, test } from 'vitest';
import { postgresReachable } from '../helpers/database.js';
import { REDIS_URL, redisReachable } from '../helpers/redis.js';
import { listenLoopback, signedInSocket } from '../helpers/chat-socket.js';
import { ok, readyOperator } from '../helpers/operator.js';
import { newKey } from '../helpers/server.js';
import { twoInstancesPerTest } from '../helpers/two-instances.js';

const redisUp = await redisReachable();
const postgresUp = await postgresReachable();
if (!redisUp || !postgresUp)
  console.warn(
    `[chat-two-instances] SKIPPED: needs PostgreSQL at 127.0.0.1:5432 (${postgresUp ? 'up' : 'down'}) and Redis at ${REDIS_URL} (${redisUp ? 'up' : 'down'})`,
  );

describe.skipIf(!redisUp || !postgresUp)('chat across two instances through Redis', () => {
  const twoInstances = twoInstancesPerTest();

  test('a message sent through one instance reaches the customer and the desk on the other; one message per clientMsgId', async () => {
    const [a, b] = await twoInstances();
    const user = await a.register('plain', 'chat-two@coffer.test');
    const agent = await readyOperator(b, 'desk-two@coffer.test', 'support');
    const [baseA, baseB] = [await listenLoopback(a), await listenLoopback(b)];
    const customer = await signedInSocket(baseA, user.token);
    const desk = await signedInSocket(baseB, await agent.token(), '/api/admin/chat/socket');

    const send = (on: typeof a, clientMsgId: string, text: string) =>
      on.call<{ seq: number }>(
        'plain',
        '/api/v1/chat/send',
        { clientMsgId, text },
        { token: user.token, key: newKey() },
      );
    // Sent through B: the desk (B) and the customer's own socket (A) both get it.
    ok(await send(b, newKey(), 'hello from B'), 'send');
    await customer.next((frame) => frame.type === 'message');
    await desk.next((frame) => frame.type === 'message' && frame['userId'] === user.userId);

    // The agent answers through B; the customer's socket on A gets each reply once, in order.
    for (let index = 0; index < 5; index += 1)
      ok(await agent.call('/api/admin/chat/reply', { userId: user.userId, text: `reply ${index}` }), 'reply');
    await customer.next(
      (frame) => frame.type === 'message' && (frame['message'] as { seq: number }).seq === 6,
    );
    expect(customer.seqs()).toEqual([1, 2, 3, 4, 5, 6]);

    // The same client id sent to both instances at once: one message.
    const clientMsgId = newKey();
    const [one, two] = await Promise.all([send(a, clientMsgId, 'twice'), send(b, clientMsgId, 'twice')]);
    expect(one.data).toEqual(two.data);
    await customer.next(
      (frame) => frame.type === 'message' && (frame['message'] as { seq: number }).seq === 7,
    );
    ok(await send(a, newKey(), 'last'), 'send');
    await customer.next(
      (frame) => frame.type === 'message' && (frame['message'] as { seq: number }).seq === 8,
    );
    expect(customer.seqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    // A read mark made on A reaches the desk on B.
    ok(await a.call('plain', '/api/v1/chat/read', { seq: 8 }, { token: user.token, key: newKey() }), 'read');
    await desk.next((frame) => frame.type === 'read' && frame['by'] === 'customer' && frame['seq'] === 8);
    customer.close();
    desk.close();
  });
});
