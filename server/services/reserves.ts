/**
 * What the chains hold for Coffer in USDT: every deposit address and, on BEP20, the hot wallet
 * (TRC20 withdrawals are paid by hand, from no wallet of Coffer's), read through each chain's
 * adapter (the devnet's node on the embedded default). A chain with no node or API configured
 * has an unknown figure (null) rather than a guess.
 */
import { privateKeyToAccount } from 'viem/accounts';
import type { Chain } from '../../contract/constants.js';
import { minor } from '../../contract/money.js';
import type { ChainSetup } from '../chains/setup.js';
import type { Database } from '../db/database.js';
import { depositAddressHexes } from '../repositories/console.repository.js';
import type { ReservesReader } from './dashboard.service.js';

/** USDT has 6 decimals in Coffer's minor units; a chain's token may have more (18 on BEP20). */
const MINOR_DECIMALS = 6;

export function chainReserves(
  db: Database,
  chains: Record<Chain, ChainSetup>,
  hotWalletKey: `0x${string}` | undefined,
): ReservesReader {
  return async (chain) => {
    const setup = chains[chain];
    if (!setup.adapter) return null;
    const addresses = await depositAddressHexes(db, chain);
    if (chain === 'BEP20' && hotWalletKey) addresses.push(privateKeyToAccount(hotWalletKey).address);
    const { value, block } = await setup.adapter.holdings(addresses);
    const shift = 10n ** BigInt(Math.max(0, setup.info.decimals - MINOR_DECIMALS));
    return { usdt: minor(value / shift), block, addresses: addresses.length };
  };
}
