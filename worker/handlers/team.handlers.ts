/**
 * The team (issue 13, docs/protocol.md section 23): the caller's figures (teamInfo), level
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
import type { Outcome } from '../../sync/ports.js';
import { DexieTeamCacheStore, type TeamCacheData, type TeamCacheStore } from '../../client-db/caches/team.js';
import type { HandlerDeps } from './deps.js';

type Failure = Exclude<Outcome<unknown>, { kind: 'ok' }>;

/**
 * What a team read came to:
 * - `ok`: the server's answer (kept when it is one the tab caches);
 * - `cached`: no answer came (offline, timeout, 5xx), the kept one is served instead;
 * - a refusal, or a transport failure with nothing kept.
 */
export type TeamResult<T> =
  | { kind: 'ok'; data: T; fetchedAt: string }
  | { kind: 'cached'; data: T; fetchedAt: string; failure: Extract<Failure, { kind: 'transport' }> }
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
    const asked = await session.getSession();
    const outcome = await api.read(uri, schema, params);
    if (outcome.kind === 'ok') {
      const fetchedAt = now().toISOString();
      const current = await session.getSession();
      if (id !== null && asked !== null && current?.userId === asked.userId) {
        await store.put(asked.userId, id, outcome.data, fetchedAt).catch(() => {
          // The tab then shows the answer only while it stays open; nothing else depends on the row.
        });
      }
      return { kind: 'ok', data: outcome.data, fetchedAt };
    }
    if (outcome.kind === 'transport' && asked !== null && id !== null) {
      const cached = await store.get(asked.userId, id).catch(() => null);
      if (cached !== null) return { kind: 'cached', ...cached, failure: outcome };
    }
    return outcome;
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
