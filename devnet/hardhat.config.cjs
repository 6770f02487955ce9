/**
 * Hardhat 2 configuration for Coffer's local devnet (`hardhat node`, started by
 * server/chains/devnet.ts). Everything that varies per start comes from the environment:
 *   DEVNET_MNEMONIC       the accounts' BIP39 mnemonic (fresh per start: a new chain each time)
 *   DEVNET_BLOCK_SECONDS  > 0: a block every that many seconds plus one per transaction;
 *                         0: a block per transaction only (tests mine more with evm_mine)
 *   DEVNET_INITIAL_DATE   ISO time of the genesis block (the start time: a distinct genesis)
 * Nothing is compiled here (the contract comes from the committed artifact), and Hardhat's
 * cache and artifacts go to the OS temp dir so nothing is written into the repository.
 */
/* global require, module, process -- Hardhat 2 loads its config as CommonJS */
/* eslint-disable @typescript-eslint/no-require-imports -- same reason */
const os = require('node:os');
const path = require('node:path');

const mnemonic = process.env.DEVNET_MNEMONIC;
if (!mnemonic) throw new Error('DEVNET_MNEMONIC is required (server/chains/devnet.ts sets it)');
const blockSeconds = Number(process.env.DEVNET_BLOCK_SECONDS ?? '0');
if (!Number.isFinite(blockSeconds) || blockSeconds < 0) {
  throw new Error(`DEVNET_BLOCK_SECONDS must be a number >= 0, not ${process.env.DEVNET_BLOCK_SECONDS}`);
}
const scratch = path.join(os.tmpdir(), 'coffer-devnet-hardhat');

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  defaultNetwork: 'hardhat',
  networks: {
    hardhat: {
      chainId: 31337,
      accounts: { mnemonic, count: 10, accountsBalance: '10000000000000000000000' },
      mining: blockSeconds > 0 ? { auto: true, interval: blockSeconds * 1000 } : { auto: true, interval: 0 },
      // Like a real node: a reverted transaction is mined and its hash returned (receipt status 0),
      // instead of Hardhat's default of answering eth_sendTransaction with an error.
      throwOnTransactionFailures: false,
      ...(process.env.DEVNET_INITIAL_DATE ? { initialDate: process.env.DEVNET_INITIAL_DATE } : {}),
    },
  },
  paths: {
    sources: path.join(scratch, 'sources'),
    cache: path.join(scratch, 'cache'),
    artifacts: path.join(scratch, 'artifacts'),
  },
};
