/**
 * The team in the worker: `team-info`, `team-my-level`, `team-levels` and the first page
 * of each generation (`team-members`) are read from the server and kept in the user's database
 * (fake-indexeddb) with the time they were fetched, and served from there offline; a later page is
 * read only (offline it is the transport failure); a refusal keeps nothing; an answer of another
 * shape is not trusted.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import type { TeamInfoData, TeamMembersData } from '../../contract/api/team.js';
import { ok, refusal, workerUser } from './fake-api.js';

const INFO: TeamInfoData = {
  level: 1,
  levelName: 'V1',
  teamPerformance: '3300',
  directCount: 2,
  directValidCount: 1,
  teamCount: 4,
  teamValidCount: 3,
  smallAreaPerformance: '0',
  directPerformance: '2000',
  indirectPerformance: '1300',
  ownPerformance: '1000',
  largestAreaPerformance: '3300',
  validHostingThreshold: '500',
  asOf: '2026-01-06T02:00:00.000Z',
};

const members = (generation: number, nextCursor: string | null, ids: string[]): TeamMembersData => ({
  generation,
  items: ids.map((id) => ({
    id,
    nickname: `member ${id}`,
    avatar: '/avatars/01.svg',
    generation,
    joinedAt: '2026-01-05T02:00:00.000Z',
    valid: true,
    performance: '500',
  })),
  nextCursor,
  count: ids.length,
  validCount: ids.length,
  performance: String(500 * ids.length),
});

const { setup, readDb } = workerUser();

async function stored() {
  return readDb(async (db) => (await db.teamCache.toArray()).map((row) => row.id).sort());
}

describe('the team in the worker', () => {
  test('teamInfo is read and kept with its time; offline the kept answer is served with the failure', async () => {
    let online = true;
    const { handlers, seen } = await setup(() => (online ? ok(INFO) : { network: true }));
    expect(await handlers['team-info']()).toEqual({ kind: 'ok', data: INFO, fetchedAt: expect.any(String) });
    expect(seen[0]).toMatchObject({ uri: '/api/v1/user/teamInfo' });
    expect(await stored()).toEqual(['info']);
    online = false;
    expect(await handlers['team-info']()).toEqual({
      kind: 'cached',
      data: INFO,
      fetchedAt: expect.any(String),
      failure: expect.objectContaining({ kind: 'transport' }),
    });
  });

  test('the first page of each generation is kept, a later page is only answered (offline: the failure)', async () => {
    let online = true;
    const { handlers, seen } = await setup((call) => {
      if (!online) return { network: true };
      const cursor = call.params['cursor'];
      return ok(
        cursor ? members(1, null, ['3']) : members(Number(call.params['generation']), '4', ['5', '4']),
      );
    });
    expect(await handlers['team-members']({ generation: 1 })).toMatchObject({
      kind: 'ok',
      data: { generation: 1, nextCursor: '4' },
    });
    expect(await handlers['team-members']({ generation: 2 })).toMatchObject({ kind: 'ok' });
    expect(await handlers['team-members']({ generation: 1, cursor: '4' })).toMatchObject({
      kind: 'ok',
      data: { items: [{ id: '3' }] },
    });
    expect(seen.map((call) => call.params)).toEqual([
      { generation: '1' },
      { generation: '2' },
      { generation: '1', cursor: '4' },
    ]);
    expect(await stored()).toEqual(['members-1', 'members-2']);
    online = false;
    expect(await handlers['team-members']({ generation: 1 })).toMatchObject({
      kind: 'cached',
      data: { items: [{ id: '5' }, { id: '4' }] },
    });
    expect(await handlers['team-members']({ generation: 1, cursor: '4' })).toMatchObject({
      kind: 'transport',
    });
  });

  test('a refusal keeps nothing, and an answer of another shape is not trusted', async () => {
    const refused = await setup(() => refusal(401, 'Please log in'));
    expect(await refused.handlers['team-my-level']()).toMatchObject({ kind: 'refused', code: 401 });
    const odd = await setup(() => ok({ ...INFO, teamCount: 'four' }));
    expect((await odd.handlers['team-info']()).kind).toBe('transport');
    expect(await stored()).toEqual([]);
  });
});
