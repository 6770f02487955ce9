/**
 * Live reads of the recharge page: the account's deposit address on a chain (stored by the
 * worker's `recharge-address`, asked for again each time the page shows a chain), the depths of
 * every chain stored, and the account's deposits. Import from lazy pages only (it loads the
 * collections' schemas through client-db/).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { DepositRecord } from '../../../contract/api/recharge.js';
import type { Chain } from '../../../contract/constants.js';
import type { DepositAddressRecord } from '../../../client-db/schema.js';
import { useOutcome } from '../../app/outcome.js';
import { send, type ResultOf } from '../../app/worker-client.js';
import { accountDatabase, type ActiveAccount } from '../../../client-db/use-sync-db.js';
import { DEPOSIT_PULL_MS, type ChainDepths } from './recharge-view.js';

/**
 * Where the shown address stands:
 * - `loading`: asked, no answer yet;
 * - `fresh`: the server answered now;
 * - `saved`: the server was not reached; the address saved on this device is shown;
 * - `unavailable`: the server was not reached and nothing is saved;
 * - `refused`: the server refused (the refusal was shown as a toast).
 */
export type AddressState = 'loading' | 'fresh' | 'saved' | 'unavailable' | 'refused';

export interface DepositAddressView {
  /** The address and its chain's figures, or null while none is known. */
  address: DepositAddressRecord | null;
  state: AddressState;
  /** Asks the server again. */
  retry: () => void;
}

type Answer = { key: string; result: ResultOf<'recharge-address'> };

function stateOf(result: ResultOf<'recharge-address'>): AddressState {
  switch (result.kind) {
    case 'ok':
      return 'fresh';
    case 'cached':
      return 'saved';
    case 'transport':
      return 'unavailable';
    case 'refused':
      return 'refused';
  }
}

/**
 * The account's address on `chain`: the row the worker stored (read live, so it shows offline at
 * once), else the worker's last answer for it (when storing failed).
 */
export function useDepositAddress(active: ActiveAccount, chain: Chain): DepositAddressView {
  const { userId, accountId } = active;
  const handle = useOutcome();
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const key = `${userId}/${accountId}/${chain}/${attempt}`;

  const stored = useLiveQuery(
    async () => (await accountDatabase(userId, accountId).depositAddresses.get(chain)) ?? null,
    [userId, accountId, chain],
  );

  useEffect(() => {
    let live = true;
    void send('recharge-address', { accountId, chain }).then((result) => {
      if (!live) return;
      setAnswer({ key, result });
      // A refusal follows the body-code rules (401 to login, any other code as a toast); a
      // transport failure is told on the page, beside the address it concerns.
      if (result.kind === 'refused') handle(result);
    });
    return () => {
      live = false;
    };
  }, [key, accountId, chain, handle]);

  const current = answer?.key === key ? answer.result : null;
  const answered =
    current !== null && (current.kind === 'ok' || current.kind === 'cached') ? current.data : null;
  // Right after a switch of chain the live query may still hold the previous chain's row.
  const own = stored?.chain === chain && stored.accountId === accountId ? stored : null;
  return {
    address: own ?? answered,
    state: current === null ? 'loading' : stateOf(current),
    retry: () => setAttempt((count) => count + 1),
  };
}

/** The confirmation depths of every chain whose address is stored for the account. */
export function useChainDepths(active: ActiveAccount): Partial<Record<Chain, ChainDepths>> | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(async () => {
    const rows = await accountDatabase(userId, accountId).depositAddresses.toArray();
    const depths: Partial<Record<Chain, ChainDepths>> = {};
    for (const row of rows) depths[row.chain] = { confirmations: row.confirmations, finality: row.finality };
    return depths;
  }, [userId, accountId]);
}

/** The account's newest `limit` deposits (by when they were seen), newest first; undefined while loading. */
export function useDeposits(active: ActiveAccount, limit: number): DepositRecord[] | undefined {
  const { userId, accountId } = active;
  return useLiveQuery(
    () => accountDatabase(userId, accountId).deposits.orderBy('detectedAt').reverse().limit(limit).toArray(),
    [userId, accountId, limit],
  );
}

/**
 * Pulls now and every DEPOSIT_PULL_MS while the page is open and visible (a customer who has just
 * sent USDT waits here for it); the scheduler's own pull (every minute) goes on beside it.
 */
export function useDepositPulls(): void {
  useEffect(() => {
    void send('sync-pull');
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void send('sync-pull');
    }, DEPOSIT_PULL_MS);
    return () => clearInterval(timer);
  }, []);
}
