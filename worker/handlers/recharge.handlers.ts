/**
 * USDT deposits (CONTRACT.md "Chains"). The deposit records themselves are the synced
 * `deposits` collection; here: the account's deposit address on a chain, asked of the server and
 * kept in the account's database (`depositAddresses`), so the recharge page shows it offline.
 */
import { rechargeAddressDataSchema } from '../../contract/api/recharge.js';
import type { Chain } from '../../contract/constants.js';
import type { Outcome } from '../../sync/ports.js';
import {
  DexieDepositAddressStore,
  type DepositAddressRecord,
  type DepositAddressStore,
} from '../../client-db/caches/deposit-addresses.js';
import type { HandlerDeps } from './deps.js';

type Failure = Exclude<Outcome<unknown>, { kind: 'ok' }>;

/**
 * What `recharge-address` came to:
 * - `ok`: the server's answer, now stored;
 * - `cached`: no answer came (offline, timeout, 5xx), the stored address is served instead;
 * - a refusal, or a transport failure with nothing stored.
 */
export type RechargeAddressResult =
  | { kind: 'ok'; message: string; data: DepositAddressRecord }
  | { kind: 'cached'; data: DepositAddressRecord; failure: Extract<Failure, { kind: 'transport' }> }
  | Failure;

export function rechargeHandlers(
  { api, session }: HandlerDeps,
  store: DepositAddressStore = new DexieDepositAddressStore(),
  now: () => Date = () => new Date(),
) {
  return {
    /**
     * The account's deposit address on `chain` with the chain's USDT contract, minimum and
     * confirmation depths, from /api/v1/recharge/address, stored for offline use. Never throws:
     * a failure to store still returns the answer.
     */
    async 'recharge-address'({
      accountId,
      chain,
    }: {
      accountId: string;
      chain: Chain;
    }): Promise<RechargeAddressResult> {
      const asked = await session.getSession();
      const outcome = await api.read('/api/v1/recharge/address', rechargeAddressDataSchema, {
        accountId,
        chain,
      });
      if (outcome.kind === 'ok') {
        const record: DepositAddressRecord = { ...outcome.data, fetchedAt: now().toISOString() };
        // Stored only for the user who asked and is still logged in: a logout while the call was
        // out deleted the account's database, which a write would create again.
        const current = await session.getSession();
        if (asked !== null && current?.userId === asked.userId) {
          await store.put(asked.userId, record).catch(() => {
            // The page then shows the answer only while it stays open; nothing else depends on the row.
          });
        }
        return { kind: 'ok', message: outcome.message, data: record };
      }
      if (outcome.kind === 'transport' && asked !== null) {
        const cached = await store.get(asked.userId, accountId, chain).catch(() => null);
        if (cached !== null) return { kind: 'cached', data: cached, failure: outcome };
      }
      return outcome;
    },
  };
}
