/**
 * The Team tab's cached answers: the local `teamCache` table of `coffer-u{user}` (`schema.ts`),
 * one row per answer (teamInfo, myLevel, levelConfig, each generation's first page). The worker
 * alone writes it, through the team handlers; the UI reads it live, so the tab shows the team
 * offline with the answers' age. Rows are parsed on the way out (STYLE rule 5): a row of another
 * shape counts as absent.
 */
import type { z } from 'zod';
import {
  levelConfigDataSchema,
  myLevelDataSchema,
  teamInfoDataSchema,
  teamMembersDataSchema,
} from '../../contract/api/team.js';
import type { TeamCacheId } from '../schema.js';
import { userDbHandles } from './handles.js';

/** Each cached answer's schema, by its row's id. */
const TEAM_CACHE_SCHEMAS = {
  info: teamInfoDataSchema,
  'my-level': myLevelDataSchema,
  levels: levelConfigDataSchema,
  'members-1': teamMembersDataSchema,
  'members-2': teamMembersDataSchema,
} as const satisfies Record<TeamCacheId, z.ZodType>;

export type TeamCacheData<I extends TeamCacheId> = z.infer<(typeof TEAM_CACHE_SCHEMAS)[I]>;

/** A cached answer with the time the server gave it. */
export interface TeamCached<I extends TeamCacheId> {
  data: TeamCacheData<I>;
  fetchedAt: string;
}

/** Parses a stored row as the answer its id names; null for a row of another shape. */
export function parseTeamCache<I extends TeamCacheId>(id: I, row: unknown): TeamCached<I> | null {
  if (typeof row !== 'object' || row === null) return null;
  const { data, fetchedAt } = row as { data?: unknown; fetchedAt?: unknown }; // checked just below
  const parsed = TEAM_CACHE_SCHEMAS[id].safeParse(data);
  if (!parsed.success || typeof fetchedAt !== 'string') return null;
  return { data: parsed.data as TeamCacheData<I>, fetchedAt }; // the schema of `id` parsed it
}

export interface TeamCacheStore {
  /** The user's cached answer, or null when none (or an unreadable row) is stored. */
  get<I extends TeamCacheId>(userId: string, id: I): Promise<TeamCached<I> | null>;
  /** Replaces one cached answer. May throw a storage error. */
  put(userId: string, id: TeamCacheId, data: unknown, fetchedAt: string): Promise<void>;
}

/** Over IndexedDB, one handle per user database, replaced once Dexie closed it (logout deletes it). */
export class DexieTeamCacheStore implements TeamCacheStore {
  private readonly db = userDbHandles();

  async get<I extends TeamCacheId>(userId: string, id: I): Promise<TeamCached<I> | null> {
    return parseTeamCache(id, await this.db(userId).teamCache.get(id));
  }

  async put(userId: string, id: TeamCacheId, data: unknown, fetchedAt: string): Promise<void> {
    await this.db(userId).teamCache.put({ id, data, fetchedAt });
  }
}
