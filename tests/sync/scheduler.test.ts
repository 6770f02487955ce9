/** When the worker pulls and drains without being asked. */
import { describe, expect, test } from 'vitest';
import { MemorySyncStorage } from '../../sync/memory-storage.js';
import {
  PULL_INTERVAL_MS,
  RETRY_BACKOFF_CHECKS,
  SyncScheduler,
  TAKEOVER_CHECK_MS,
  type DrainOutcome,
} from '../../sync/scheduler.js';
import { MemoryLocks } from '../../sync/lease.js';
import { FakeClock, FakeServer, login, tab, until } from './helpers.js';

const NAME_UPDATE = '/api/v1/user/name-update';

function counting() {
  const runs = { pull: 0, drain: 0, takeover: 0 };
  /** What the next drains answer: 'done' unless a test says the network is gone. */
  const drainOutcome: { current: DrainOutcome } = { current: { status: 'done', retryLater: [] } };
  const tasks = {
    pull: async () => void runs.pull++,
    drain: async () => {
      runs.drain++;
      return drainOutcome.current;
    },
    takeover: async () => void runs.takeover++,
  };
  let online: () => void = () => undefined;
  const onOnline = (listener: () => void) => {
    online = listener;
    return () => {
      online = () => undefined;
    };
  };
  return { runs, tasks, onOnline, drainOutcome, reconnect: () => online() };
}

describe('the scheduler', () => {
  test('pulls and drains at start, on reconnect and every minute; checks for a quiet sender every few seconds', async () => {
    const clock = new FakeClock();
    const { runs, tasks, onOnline, reconnect } = counting();
    const scheduler = new SyncScheduler(tasks, { timers: clock.timers(), onOnline });
    scheduler.start();
    scheduler.start(); // idempotent
    await until(() => runs.pull === 1 && runs.drain === 1);

    reconnect();
    await until(() => runs.pull === 2 && runs.drain === 2);

    await clock.advance(PULL_INTERVAL_MS, 1_000);
    expect(runs).toEqual({ pull: 3, drain: 3, takeover: PULL_INTERVAL_MS / TAKEOVER_CHECK_MS });

    scheduler.stop();
    reconnect();
    await clock.advance(PULL_INTERVAL_MS, 1_000);
    expect(runs.pull).toBe(3);
  });

  test('drains after every enqueue once started, and not before', async () => {
    const { runs, tasks, onOnline } = counting();
    const scheduler = new SyncScheduler(tasks, { timers: new FakeClock().timers(), onOnline });
    scheduler.afterEnqueue();
    expect(runs.drain).toBe(0);
    scheduler.start();
    await until(() => runs.drain === 1);
    scheduler.afterEnqueue();
    await until(() => runs.drain === 2);
    scheduler.stop();
  });

  test('a drain that could not reach the server is retried after 2, 4, 8, 16, then every 30 seconds; one that gets through ends the retries', async () => {
    const clock = new FakeClock();
    const { runs, tasks, onOnline, drainOutcome } = counting();
    drainOutcome.current = { status: 'offline', retryLater: ['c1'] };
    const scheduler = new SyncScheduler(tasks, { timers: clock.timers(), onOnline });
    scheduler.start();
    await until(() => runs.drain === 1);

    const drainTimes: number[] = [];
    let elapsed = 0;
    while (elapsed < 90_000) {
      await clock.advance(TAKEOVER_CHECK_MS, TAKEOVER_CHECK_MS);
      elapsed += TAKEOVER_CHECK_MS;
      if (runs.drain > drainTimes.length + 1) drainTimes.push(elapsed);
    }
    // 2, +4, +8, +16, +30, +30 seconds (the minute's own pull-and-drain at 60 s counts too).
    expect(RETRY_BACKOFF_CHECKS.map((checks) => checks * TAKEOVER_CHECK_MS)).toEqual([
      2_000, 4_000, 8_000, 16_000, 30_000,
    ]);
    expect(drainTimes.slice(0, 5)).toEqual([2_000, 6_000, 14_000, 30_000, 60_000]);

    drainOutcome.current = { status: 'done', retryLater: [] };
    let before = runs.drain;
    await clock.advance(30_000, TAKEOVER_CHECK_MS); // the next retry gets through
    expect(runs.drain).toBeGreaterThan(before);
    before = runs.drain;
    await clock.advance(2 * PULL_INTERVAL_MS, TAKEOVER_CHECK_MS);
    expect(runs.drain).toBe(before + 2); // the minute's drains only
    scheduler.stop();
  });

  test('a started engine sends a new command at once, then pulls what it confirmed', async () => {
    const server = new FakeServer();
    const { engine, session } = tab({ server, storage: new MemorySyncStorage() });
    await login(server, session, '7', 'tok-7');
    engine.start();
    await until(() => server.seenOn('/api/v1/sync/pull').length === 1);
    await engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    await until(() => server.seenOn('/api/v1/sync/pull').length === 2);
    expect(server.effectsOn('/api/v1/user/name-update')).toHaveLength(1);
    await engine.stop();
  });

  test('quiesce (before an app update reloads the page) waits for the command on the wire, starts no other, and leaves the rest to another tab', async () => {
    const server = new FakeServer();
    const storage = new MemorySyncStorage();
    const locks = new MemoryLocks();
    const clock = new FakeClock();
    const first = tab({ server, storage, locks, clock });
    await login(server, first.session, '7', 'tok-7');
    let answer: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (answer = resolve));
    server.fault = (call) =>
      call.uri === NAME_UPDATE && server.seenOn(NAME_UPDATE).length === 1 ? { until: slow } : null;
    first.engine.start();
    await first.engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Neo' } });
    await first.engine.enqueue({ kind: 'profile-nickname', params: { nickname: 'Trinity' } });
    await until(() => server.seenOn(NAME_UPDATE).length === 1);

    let quiet = false;
    const quiescing = first.engine.quiesce().then(() => (quiet = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(quiet).toBe(false); // the send on the wire is not cut
    answer();
    await quiescing;
    expect(server.effectsOn(NAME_UPDATE).map((call) => call.params)).toEqual([{ nickname: 'Neo' }]);
    await first.engine.drain(); // a late trigger in the halted tab sends nothing
    expect(server.seenOn(NAME_UPDATE)).toHaveLength(1);

    const second = tab({ server, storage, locks, clock, session: first.session });
    await second.engine.drain();
    expect(server.effectsOn(NAME_UPDATE).map((call) => call.params)).toEqual([
      { nickname: 'Neo' },
      { nickname: 'Trinity' },
    ]);
  });
});
