/**
 * `npm run devnet -- <command>`: pays test USDT on the local devnet that `npm start` runs when no
 * chain is configured (server/chains/devnet.ts), to try deposits by hand.
 *   pay <0x address> <amount>   sends that many devnet USDT from the hot wallet; prints the tx hash
 *   status                      the devnet's height, chain id, contract and hot wallet balance
 * Finds the devnet through `<DATA_DIR>/devnet.json` (DATA_DIR as for `npm start`, default ./data).
 * Exit code 1 when no devnet runs or the arguments are wrong.
 */
import path from 'node:path';
import { devnetStatus, findDevnet, payUsdt } from '../chains/devnet.js';

const USAGE = `usage: npm run devnet -- <command>
  pay <0x address> <amount>   send devnet USDT from the hot wallet (amount such as 12.5)
  status                      height, chain id, contract and hot wallet balance`;

type Command = { kind: 'pay'; to: string; amount: string } | { kind: 'status' };

/** The command line as a command; throws the usage on anything else. */
function parseCommand(argv: string[]): Command {
  const [name, to, amount, ...extra] = argv;
  if (name === 'pay' && to !== undefined && amount !== undefined && extra.length === 0) {
    return { kind: 'pay', to, amount };
  }
  if (name === 'status' && to === undefined) return { kind: 'status' };
  throw new Error(USAGE);
}

async function main(argv: string[]): Promise<void> {
  const command = parseCommand(argv);
  // Resolved as server/config.ts resolves it, so the CLI finds the devnet `npm start` runs.
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const info = await findDevnet(dataDir);
  if (!info) {
    throw new Error(
      `no devnet is running from ${dataDir}: start it with npm start (with no chain configured, not in production)`,
    );
  }
  if (command.kind === 'pay') {
    const hash = await payUsdt(info, command.to, command.amount);
    console.log(`paid ${command.amount} USDT to ${command.to}`);
    console.log(hash);
    return;
  }
  const status = await devnetStatus(info);
  console.log(`rpc:             ${info.rpcUrl}`);
  console.log(`chain id:        ${status.chainId}`);
  console.log(`height:          ${status.blockNumber}`);
  console.log(`contract:        ${status.contract} (USDT, ${info.decimals} decimals)`);
  console.log(`hot wallet:      ${status.hotWallet}`);
  console.log(`hot wallet USDT: ${status.hotWalletUsdt}`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
