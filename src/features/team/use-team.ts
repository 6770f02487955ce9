/**
 * Live reads of the Team tab: the team's answers the worker kept (`teamCache`: teamInfo,
 * myLevel, levelConfig, each generation's first page), asked for again when the tab opens, the link
 * comes back or the language changes; further pages of a generation; the team income lines of the
 * user's main account (the synced `income` collection); and the user's invite code (the synced
 * profile). Import from lazy pages only (it loads the collections' schemas through client-db/).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { IncomeRecord } from '../../../contract/api/income.js';
import type { TeamMember } from '../../../contract/api/team.js';
import { TEAM_CACHE_IDS, type TeamCacheId } from '../../../client-db/schema.js';
import { parseTeamCache, type TeamCached } from '../../../client-db/caches/team.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { accountDatabase, userDatabase } from '../../../client-db/use-sync-db.js';
import { TEAM_INCOME_TYPES } from './team-view.js';

/**
 * Where the answers stand: `loading` (asked, no answer yet), `fresh` (the server answered),
 * `saved` (the server was not reached; what this device kept is shown), `refused` (told as a toast).
 */
export type TeamState = 'loading' | 'fresh' | 'saved' | 'refused';

export type TeamAnswers = { [I in TeamCacheId]: TeamCached<I> | null };

/** The kept answers, read live (undefined while loading), and asked for again on open, link and language. */
export function useTeamAnswers(
  userId: string,
  online: boolean,
  locale: string,
): { answers: TeamAnswers | undefined; state: TeamState } {
  const handle = useOutcome();
  const [answered, setAnswered] = useState<{ key: string; state: TeamState } | null>(null);
  const answers = useLiveQuery(async (): Promise<TeamAnswers> => {
    const rows = await userDatabase(userId).teamCache.bulkGet([...TEAM_CACHE_IDS]);
    return {
      info: parseTeamCache('info', rows[0]),
      'my-level': parseTeamCache('my-level', rows[1]),
      levels: parseTeamCache('levels', rows[2]),
      'members-1': parseTeamCache('members-1', rows[3]),
      'members-2': parseTeamCache('members-2', rows[4]),
    };
  }, [userId]);
  const key = `${userId}/${String(online)}/${locale}`;

  useEffect(() => {
    let live = true;
    void Promise.all([
      send('team-info'),
      send('team-my-level'),
      send('team-levels'),
      send('team-members', { generation: 1 }),
      send('team-members', { generation: 2 }),
    ]).then((results) => {
      if (!live) return;
      const refused = results.find((result) => result.kind === 'refused');
      if (refused) handle(refused);
      const state: TeamState = results.every((result) => result.kind === 'ok')
        ? 'fresh'
        : refused
          ? 'refused'
          : 'saved';
      setAnswered({ key, state });
    });
    return () => {
      live = false;
    };
  }, [key, handle]);

  return { answers, state: answered?.key === key ? answered.state : 'loading' };
}

/**
 * Pages of a generation after its first (kept) one, asked for with "more" while online. `more`
 * answers false when the page could not be read (offline: it is not kept).
 */
export function useMorePages(generation: 1 | 2, firstCursor: string | null) {
  const [pages, setPages] = useState<{ first: string | null; items: TeamMember[]; next: string | null }>({
    first: firstCursor,
    items: [],
    next: firstCursor,
  });
  // A new first page (another answer) starts the extra pages again.
  const current = pages.first === firstCursor ? pages : { first: firstCursor, items: [], next: firstCursor };
  const more = async (): Promise<boolean> => {
    if (current.next === null) return true;
    const result = await send('team-members', { generation, cursor: current.next });
    if (result.kind !== 'ok') return false;
    setPages({
      first: current.first,
      items: [...current.items, ...result.data.items],
      next: result.data.nextCursor,
    });
    return true;
  };
  return { items: current.items, next: current.next, more };
}

/** The user's main account's id (team income is paid there); undefined while loading, null when none. */
export function useMainAccountId(userId: string): string | null | undefined {
  return useLiveQuery(async () => {
    const accounts = await userDatabase(userId).accounts.toArray();
    return accounts.find((account) => account.kind === 'main')?.id ?? null;
  }, [userId]);
}

/** The main account's newest `limit` promotion and management lines; undefined while loading. */
export function useTeamIncome(userId: string, accountId: string | null, limit: number) {
  return useLiveQuery(async (): Promise<IncomeRecord[]> => {
    if (accountId === null) return [];
    const types: readonly string[] = TEAM_INCOME_TYPES;
    return accountDatabase(userId, accountId)
      .income.orderBy('createdAt')
      .reverse()
      .filter((line) => types.includes(line.type))
      .limit(limit)
      .toArray();
  }, [userId, accountId, limit]);
}

/** The user's invite code from the synced profile; undefined while loading, null before the first pull. */
export function useInviteCode(userId: string): string | null | undefined {
  return useLiveQuery(
    async () => (await userDatabase(userId).profile.get(userId))?.inviteCode ?? null,
    [userId],
  );
}
