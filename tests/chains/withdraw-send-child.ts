/**
 * The withdrawal send job as a process of its own, for tests/chains/withdraw-send.test.ts: one
 * tick of the BEP20 sender over DATABASE_URL, then it prints `report <json>` and exits. With
 * CRASH_AT=record it kills itself (SIGKILL) right after a withdrawal's nonce and hash are
 * recorded, before the broadcast; with CRASH_AT=broadcast right after the broadcast, before
 * anything else is recorded.
 *
 * Environment: DATABASE_URL, RPC_URL, CONTRACT, DECIMALS, HOT_WALLET_KEY, CRASH_AT.
 */
import { DEPOSIT_CONFIRMATIONS } from '../../contract/constants.js';
import { createEvmUsdtSender } from '../../server/chains/evm-sender.js';
import { systemClock } from '../../server/clock.js';
import { openDatabase } from '../../server/db/database.js';
import { WithdrawalSender, type SendHooks } from '../../server/services/withdrawal-sender.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`withdraw-send-child: ${name} is required`);
  return value;
};
const crash = () => {
  process.kill(process.pid, 'SIGKILL');
};
const crashAt = process.env['CRASH_AT'];
const hooks: SendHooks =
  crashAt === 'record' ? { afterRecord: crash } : crashAt === 'broadcast' ? { afterBroadcast: crash } : {};

const database = await openDatabase({ databaseUrl: env('DATABASE_URL') });
const sender = new WithdrawalSender(
  database.db,
  systemClock,
  'BEP20',
  createEvmUsdtSender({
    rpcUrl: env('RPC_URL'),
    contract: env('CONTRACT'),
    decimals: Number(env('DECIMALS')),
    hotWalletKey: env('HOT_WALLET_KEY') as `0x${string}`, // a test fixture's key
  }),
  DEPOSIT_CONFIRMATIONS,
  hooks,
);
console.log(`report ${JSON.stringify(await sender.tick())}`);
await database.close();
