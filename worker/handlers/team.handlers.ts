/**
 * The team (docs/protocol.md section 23): the caller's figures (teamInfo), level
 * (myLevel), the levels (levelConfig) and the first and second generation (teamMembers), read from
 * the server and kept in the user's database (`teamCache`) so the Team tab reads offline with their
 * age. The first page of each generation is kept; further pages are answered only. Team income
 * lines are the synced `income` collection (types promotion and management), read by the UI.
 */
import type { z } from 'zod';
import {
  levelConfigDataSchema,
  myLevelDataSchema,
  teamInfoDataSchema,
  teamMembersDataSchema,
  type TeamMembersData,
} from '../../contract/api/team.js';
import type { TeamCacheId } from '../../client-db/schema.js';
import {
  DexieTeamCacheStore,
  type TeamCacheData,
  type TeamCacheStore,
  type TeamCached,
} from '../../client-db/caches/team.js';
import { readCached, type Failure, type TransportFailure } from './cached-read.js';
import type { HandlerDeps } from './deps.js';

/**
 * What a team read came to (`cached-read.ts`), the answer beside the time it came:
 * - `ok`: the server's answer (kept when it is one the tab caches);
 * - `cached`: no answer came (offline, timeout, 5xx), the kept one is served instead;
 * - a refusal, or a transport failure with nothing kept.
 */
export type TeamResult<T> =
  | { kind: 'ok'; data: T; fetchedAt: string }
  | { kind: 'cached'; data: T; fetchedAt: string; failure: TransportFailure }
  | Failure;

export function teamHandlers(
  { api, session }: Pick<HandlerDeps, 'api' | 'session'>,
  store: TeamCacheStore = new DexieTeamCacheStore(),
  now: () => Date = () => new Date(),
) {
  /** Reads `uri`; keeps the answer under `id` (when given) for the user who asked and is still logged in. */
  async function read<I extends TeamCacheId>(
    uri: string,
    schema: z.ZodType<TeamCacheData<I>>,
    id: I | null,
    params: Record<string, unknown> = {},
  ): Promise<TeamResult<TeamCacheData<I>>> {
    const result = await readCached(session, now, () => api.read(uri, schema, params), {
      record: (data, fetchedAt): TeamCached<I> => ({ data, fetchedAt }),
      keep: async (userId, { data, fetchedAt }) => {
        if (id !== null) await store.put(userId, id, data, fetchedAt);
      },
      kept: async (userId) => (id === null ? null : store.get(userId, id)),
    });
    if (result.kind === 'ok') return { kind: 'ok', ...result.data };
    if (result.kind === 'cached') return { kind: 'cached', ...result.data, failure: result.failure };
    return result;
  }

  return {
    /** /api/v1/user/teamInfo: the team's figures now and the level they make; kept. */
    'team-info': () => read('/api/v1/user/teamInfo', teamInfoDataSchema, 'info'),

    /** /api/v1/user/myLevel: the level, the next one and what it still needs; kept. */
    'team-my-level': () => read('/api/v1/user/myLevel', myLevelDataSchema, 'my-level'),

    /** /api/v1/user/levelConfig: every level's requirements and rewards; kept. */
    'team-levels': () => read('/api/v1/user/levelConfig', levelConfigDataSchema, 'levels'),

    /**
     * /api/v1/user/teamMembers of generation 1 or 2: the first page (no cursor) is kept; a later
     * page (`cursor`) is answered only (offline it is a transport failure).
     */
    async 'team-members'({
      generation,
      cursor,
    }: {
      generation: 1 | 2;
      cursor?: string;
    }): Promise<TeamResult<TeamMembersData>> {
      const id = cursor ? null : generation === 1 ? 'members-1' : 'members-2';
      return read('/api/v1/user/teamMembers', teamMembersDataSchema, id, {
        generation: String(generation),
        ...(cursor ? { cursor } : {}),
      });
    },
  };
}
