/**
 * Live reads and the command of the exchange page: the exchange's terms now (asked of the server
 * each time, never stored, and asked again as soon as a newer price is pulled), the synced RAB
 * price, the exchange command in the outbox followed to its end, and the account's synced
 * exchanges. Import from lazy pages only (it loads the collections' schemas through src/db).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import type { PriceRecord } from '../../../contract/api/account.js';
import type { ExchangeIndexData, ExchangeRecord } from '../../../contract/api/exchange.js';
import type { OutboxRecord } from '../../../sync/commands.js';
import { useOutcome } from '../../app/outcome.js';
import { send } from '../../app/worker-client.js';
import { accountDatabase, publicDatabase, type ActiveAccount } from '../../db/sync-db.js';

/**
 * Where the terms stand: `loading` (asked, no answer yet), `ready` (the server answered),
 * `unavailable` (no answer: offline or the server unreachable), `refused` (told as a toast).
 */
export type TermsState = 'loading' | 'ready' | 'unavailable' | 'refused';

export interface TermsView {
  /** The last answer for this account, kept while a new one is asked for; null before the first. */
  terms: ExchangeIndexData | null;
  state: TermsState;
  /** Asks the server again. */
  reload: () => void;
}

/** The RAB price as last pulled (the public `prices` record): undefined while loading, null before it was synced. */
export function useSyncedPrice(): PriceRecord | null | undefined {
  return useLiveQuery(async () => (await publicDatabase().prices.get('RAB')) ?? null, []);
}

/**
 * /api/v1/exchange/index for the account, asked again on `reload`, when the link comes back and
 * when a price version other than the one shown is pulled (`pulledVersion`), so the quote follows
 * the operators' price live. A refusal follows the body-code rules (useOutcome).
 */
export function useExchangeTerms(
  accountId: string,
  online: boolean,
  pulledVersion: string | null,
): TermsView {
  const handle = useOutcome();
  const [round, setRound] = useState(0);
  const [last, setLast] = useState<{ accountId: string; terms: ExchangeIndexData } | null>(null);
  const [answered, setAnswered] = useState<{ key: string; state: TermsState } | null>(null);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  const key = `${accountId}/${String(online)}/${pulledVersion ?? ''}/${round}`;

  useEffect(() => {
    let live = true;
    void send('exchange-index', { accountId }).then((outcome) => {
      if (!live) return;
      if (outcome.kind === 'ok') {
        setLast({ accountId, terms: outcome.data });
        setAnswered({ key, state: 'ready' });
      } else if (outcome.kind === 'transport') {
        // Told on the page (an exchange needs a connection), not as a toast.
        setAnswered({ key, state: 'unavailable' });
      } else {
        setAnswered({ key, state: 'refused' });
        handle(outcome);
      }
    });
    return () => {
      live = false;
    };
  }, [key, accountId, handle]);

  return {
    terms: last?.accountId === accountId ? last.terms : null,
    state: answered?.key === key ? answered.state : 'loading',
    reload,
  };
}

export type ExchangeCommand = Extract<OutboxRecord, { kind: 'exchange-submit' }>;

/** The account's newest `limit` exchanges, newest first; undefined while loading. */
export function useExchanges(active: ActiveAccount, limit: number): ExchangeRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () => accountDatabase(userId, accountId).exchanges.orderBy('createdAt').reverse().limit(limit).toArray(),
    [userId, accountId, limit],
  );
}

/** Pulls once when the page opens, so the price and the records are as fresh as the link allows. */
export function usePullOnOpen(): void {
  useEffect(() => {
    void send('sync-pull');
  }, []);
}
