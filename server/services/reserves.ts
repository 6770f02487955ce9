/**
 * What the chains hold for Coffer in USDT: the hot wallet and every deposit address, read at one
 * block. BEP20 through its node (the devnet on the embedded default); TRC20 has no balance reader
 * here yet, so its figure is unknown (null) rather than a guess.
 */
import { privateKeyToAccount } from 'viem/accounts';
import type { Chain } from '../../contract/constants.js';
import { minor } from '../../contract/money.js';
import { evmUsdtHoldings } from '../chains/holdings.js';
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
    if (chain !== 'BEP20' || !setup.url) return null;
    const addresses = await depositAddressHexes(db, chain);
    if (hotWalletKey) addresses.push(privateKeyToAccount(hotWalletKey).address);
    const { value, block } = await evmUsdtHoldings(setup.url, setup.info.contract, addresses);
    const shift = 10n ** BigInt(Math.max(0, setup.info.decimals - MINOR_DECIMALS));
    return { usdt: minor(value / shift), block, addresses: addresses.length };
  };
}
