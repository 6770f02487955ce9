/**
 * The chains as this start of the server sees them: for each, what users are shown (contract,
 * minimum, confirmations, finality), the key its addresses come from, and the adapter its
 * watcher reads through when a node or API is configured (the devnet's, on a development start).
 */
import type { ChainInfo } from '../../contract/api/recharge.js';
import { CHAINS, DEPOSIT_CONFIRMATIONS, MIN_DEPOSIT_USDT, type Chain } from '../../contract/constants.js';
import type { ChainConfig, Config } from '../config.js';
import type { ChainAdapter } from './chain.js';
import type { DevnetInfo } from './devnet.js';
import { createEvmAdapter } from './evm.js';
import { loadDepositKeys } from './keys.js';
import { createTronAdapter } from './tron.js';

export interface ChainSetup {
  chain: Chain;
  info: ChainInfo;
  xpub: string;
  /** The node (BEP20) or API (TRC20) URL; undefined when not configured. */
  url: string | undefined;
  /** Undefined when no node or API is configured: addresses still show, nothing is watched. */
  adapter: ChainAdapter | undefined;
  finality: number;
  startBlock: bigint | 'head';
  /** The variable to set when `adapter` is missing. */
  missing: string;
}

/** The BEP20 settings with the devnet's node and token in place of the configured ones. */
function withDevnet(chain: ChainConfig, devnet: DevnetInfo | undefined): ChainConfig {
  if (!devnet) return chain;
  return {
    ...chain,
    url: devnet.rpcUrl,
    contract: devnet.contract,
    decimals: devnet.decimals,
    startBlock: 0n,
  };
}

export function setUpChains(
  config: Config,
  devnet: DevnetInfo | undefined,
  warn: (line: string) => void,
): Record<Chain, ChainSetup> {
  const xpubs = loadDepositKeys({
    production: config.production,
    dataDir: config.dataDir,
    bep20Xpub: config.chains.BEP20.xpub,
    trc20Xpub: config.chains.TRC20.xpub,
    warn,
  });
  const settings: Record<Chain, ChainConfig> = {
    BEP20: withDevnet(config.chains.BEP20, devnet),
    TRC20: config.chains.TRC20,
  };
  const adapters: Record<Chain, () => ChainAdapter | undefined> = {
    BEP20: () => {
      const { url, contract, decimals } = settings.BEP20;
      return url ? createEvmAdapter({ rpcUrl: url, contract, decimals }) : undefined;
    },
    TRC20: () => {
      const { url, contract, decimals, apiKey } = settings.TRC20;
      return url
        ? createTronAdapter({ apiUrl: url, contract, decimals, ...(apiKey ? { apiKey } : {}) })
        : undefined;
    },
  };
  const missing: Record<Chain, string> = { BEP20: 'CHAIN_BEP20_RPC_URL', TRC20: 'CHAIN_TRC20_API_URL' };
  const entries = CHAINS.map((chain): [Chain, ChainSetup] => {
    const setting = settings[chain];
    const adapter = adapters[chain]();
    return [
      chain,
      {
        chain,
        info: {
          chain,
          contract: adapter?.contract ?? setting.contract,
          decimals: setting.decimals,
          minimum: MIN_DEPOSIT_USDT,
          confirmations: DEPOSIT_CONFIRMATIONS,
          finality: setting.finality,
        },
        xpub: xpubs[chain],
        url: setting.url,
        adapter,
        finality: setting.finality,
        startBlock: setting.startBlock ?? 'head',
        missing: missing[chain],
      },
    ];
  });
  return Object.fromEntries(entries) as Record<Chain, ChainSetup>; // one entry per chain of CHAINS
}
