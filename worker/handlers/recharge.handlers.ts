/**
 * USDT deposits (CONTRACT.md "Chains"). The deposit records themselves are the synced
 * `deposits` collection; here: the account's deposit address on a chain, asked of the server and
 * kept in the account's database (`depositAddresses`), so the recharge page shows it offline.
 */
import { rechargeAddressDataSchema } from '../../contract/api/recharge.js';
import type { Chain } from '../../contract/constants.js';
import {
  DexieDepositAddressStore,
  type DepositAddressRecord,
  type DepositAddressStore,
} from '../../client-db/caches/deposit-addresses.js';
import { readCached, type CachedResult } from './cached-read.js';
import type { HandlerDeps } from './deps.js';

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
    }): Promise<CachedResult<DepositAddressRecord>> {
      const read = () =>
        api.read('/api/v1/recharge/address', rechargeAddressDataSchema, { accountId, chain });
      return readCached(session, now, read, {
        record: (data, fetchedAt): DepositAddressRecord => ({ ...data, fetchedAt }),
        keep: (userId, record) => store.put(userId, record),
        kept: (userId) => store.get(userId, accountId, chain),
      });
    },
  };
}
