/**
 * The rules every outbox command test checks, written once: a command that carries the trade
 * password (or a price the user saw) is refused at enqueue while offline, is sent online and then
 * forgets its secrets, expires a minute after the user acted, and once refused cannot be retried
 * and holds nothing back. Each check runs in a `commandWorld` (user '7', token 'tok-7', main
 * account 'm7') and fails the test that calls it with the rule's own expectations.
 */
import { expect } from 'vitest';
import { ONLINE_COMMAND_EXPIRY_MS } from '../../contract/constants.js';
import type { EnqueueInput } from '../../worker/commands.js';
import type { commandWorld } from './helpers.js';

type CommandWorld = ReturnType<typeof commandWorld>;
type Engine = Awaited<ReturnType<CommandWorld['loggedIn']>>;

/** Enqueues `input`, which must be accepted; its outbox id. */
export async function enqueued(engine: Engine, input: EnqueueInput): Promise<string> {
  const queued = await engine.enqueue(input);
  if (queued.kind !== 'ok') throw new Error(`refused at enqueue: ${JSON.stringify(queued)}`);
  return queued.id;
}

/** `input` is refused at enqueue as invalid, naming `field`. */
export async function expectInvalid(engine: Engine, input: EnqueueInput, field: string): Promise<void> {
  expect(await engine.enqueue(input)).toMatchObject({ kind: 'refused', reason: 'invalid_input', field });
}

/** Offline, each of `inputs` is refused at enqueue: nothing is stored, and nothing is sent once online. */
export async function expectRefusedOffline(world: CommandWorld, inputs: EnqueueInput[]): Promise<void> {
  const engine = await world.loggedIn();
  world.network.online = false;
  for (const input of inputs)
    expect(await engine.enqueue(input)).toEqual({ kind: 'refused', reason: 'offline' });
  expect(await engine.pendingCount()).toBe(0);
  world.network.online = true;
  await engine.drain();
  expect(world.server.seen).toHaveLength(0);
}

/** What `expectSentOnline` expects of a command. */
export interface SentOnline {
  /** The route it goes to. */
  uri: string;
  /** Its resource in the outbox, given its id. */
  resource: (id: string) => string;
  /** Its params as stored when queued, where they differ from what is sent. */
  queued?: Record<string, unknown>;
  /** Its params on the wire. */
  sent: Record<string, unknown>;
  /** Its params as stored once confirmed (the secrets blanked). */
  confirmed: Record<string, unknown>;
}

/**
 * Online, `input` is queued with the minute of an online command, sent once with its key and the
 * session's token, confirmed, stored with its secrets blanked, and its account 'm7' pulled.
 */
export async function expectSentOnline(
  world: CommandWorld,
  input: EnqueueInput,
  expected: SentOnline,
): Promise<void> {
  const engine = await world.loggedIn();
  const id = await enqueued(engine, input);
  expect(await world.stored(id)).toMatchObject({
    state: 'queued',
    resource: expected.resource(id),
    expiresAtMs: world.clock.now() + ONLINE_COMMAND_EXPIRY_MS,
    ...(expected.queued === undefined ? {} : { params: expected.queued }),
  });

  const drained = await engine.drain();

  expect(drained.confirmed).toEqual([id]);
  expect(world.server.seenOn(expected.uri)).toEqual([
    { uri: expected.uri, key: id, token: 'tok-7', params: expected.sent },
  ]);
  expect(await world.stored(id)).toMatchObject({ state: 'confirmed', params: expected.confirmed });
  expect(drained.pull).toMatchObject({ status: 'done', accountId: 'm7' });
}

/**
 * `input`, queued online but not sent before the device went offline, expires a minute after the
 * user acted: never sent to `uri`, stored with `blanked` params. Returns the engine and its id.
 */
export async function expectExpiresAfterAMinute(
  world: CommandWorld,
  input: EnqueueInput,
  uri: string,
  blanked: Record<string, string>,
) {
  const engine = await world.loggedIn();
  const id = await enqueued(engine, input);
  world.network.online = false;
  expect((await engine.drain()).status).toBe('offline');
  await world.clock.advance(ONLINE_COMMAND_EXPIRY_MS, 1_000);
  world.network.online = true;
  expect((await engine.drain()).expired).toEqual([id]);
  expect(world.server.seenOn(uri)).toHaveLength(0);
  expect(await world.stored(id)).toMatchObject({ state: 'expired', params: blanked });
  return { engine, id };
}

/** The world's server answers `answer` to calls to `uri` (only those whose param `when[0]` is `when[1]`, when given). */
export interface Refusal {
  uri: string;
  when?: readonly [string, string];
  answer: { code: number; message: string };
}

/**
 * `refused`, which the world's server refuses as `expected` says, is rejected with the server's
 * answer, stored with `blanked` params, and cannot be retried; `next`, when given, is not held
 * back by it and is confirmed.
 */
export async function expectRejectedForGood(
  world: CommandWorld,
  refused: EnqueueInput,
  expected: Refusal & { blanked: Record<string, string> },
  next?: EnqueueInput,
): Promise<void> {
  const { uri, when, answer } = expected;
  world.server.refuse = (call) =>
    call.uri === uri && (when === undefined || call.params[when[0]] === when[1]) ? answer : null;
  const engine = await world.loggedIn();
  const id = await enqueued(engine, refused);
  expect((await engine.drain()).rejected).toEqual([id]);
  expect(await world.stored(id)).toMatchObject({
    state: 'rejected',
    answer: expected.answer,
    params: expected.blanked,
  });
  expect(await engine.retry(id)).toMatchObject({ kind: 'refused', reason: 'not_retryable' });
  if (next === undefined) return;
  const nextId = await enqueued(engine, next);
  expect((await engine.drain()).confirmed).toEqual([nextId]);
}
