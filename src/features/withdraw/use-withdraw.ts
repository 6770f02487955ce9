/**
 * Live reads and the command of the withdrawal pages: the terms of a withdrawal now (asked of the
 * server each time, never stored: a stale window or limit would mislead), the withdrawal command
 * in the outbox followed to its end, and the account's synced withdrawals. Import from lazy
 * pages only (it loads the collections' schemas through client-db/).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import type { WithdrawIndexData, WithdrawalRecord } from '../../../contract/api/withdraw.js';
import type { OutboxRecord } from '../../../worker/commands.js';
import { useServerRead, type ServerRead } from '../../app/use-server-read.js';
import { noteServerTime, serverNow } from '../../app/server-clock.js';
import { send } from '../../app/worker-client.js';
import { accountDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';

/**
 * /api/v1/withdraw/index for the account (and the chosen method, whose usability the server then
 * gives), asked again on `reload`, when the method changes, when the link comes back and when the
 * window opens or closes.
 */
export function useWithdrawTerms(
  accountId: string,
  methodId: string | null,
  online: boolean,
): ServerRead<WithdrawIndexData> {
  const read = useServerRead(accountId, `${methodId ?? ''}/${String(online)}`, async () => {
    const outcome = await send('withdraw-index', methodId === null ? { accountId } : { accountId, methodId });
    if (outcome.kind === 'ok') noteServerTime(outcome.data.serverTime);
    return outcome;
  });

  // The window opens or closes at a known time: ask again then, so "open" is never stale.
  const terms = read.data;
  const reload = read.reload;
  const turn = terms === null ? null : (terms.window.closesAt ?? terms.window.nextOpen);
  useEffect(() => {
    if (turn === null) return;
    // Capped: a timer longer than 2^31 ms fires at once; after a day the page asks again anyway.
    const wait = Math.min(Math.max(Date.parse(turn) - serverNow(), 0) + 1_000, 24 * 60 * 60 * 1000);
    const timer = setTimeout(reload, wait);
    return () => clearTimeout(timer);
  }, [turn, reload]);

  return read;
}

export type WithdrawCommand = Extract<OutboxRecord, { kind: 'withdraw-create' }>;

/** The account's newest `limit` withdrawals, newest first; undefined while loading. */
export function useWithdrawals(active: ActiveAccount, limit: number): WithdrawalRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () =>
      accountDatabase(userId, accountId).withdrawals.orderBy('createdAt').reverse().limit(limit).toArray(),
    [userId, accountId, limit],
  );
}
