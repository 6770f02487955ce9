/**
 * The console's dashboard and deposits list: what customers are owed (the ledger) beside what the
 * chains hold (the hot wallet and the deposit addresses), their ratio, the last ledger check, what
 * waits for a person, and today's flows in the business time zone.
 */
import { DateTime } from 'luxon';
import type { DashboardData } from '../../contract/api/admin-users.js';
import type { Chain } from '../../contract/constants.js';
import { CHAINS } from '../../contract/constants.js';
import { formatMoney, type Minor, moneyText } from '../../contract/money.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { LEDGER_CHECK_JOB } from '../ledger/invariants.js';
import { customerBookTotals } from '../ledger/ledger.repository.js';
import { flowsBetween, lastJobRun, listDeposits, waitingCounts } from '../repositories/console.repository.js';
import { toDepositRecord } from './records.js';

/** USDT a chain holds at Coffer's addresses (minor units), at one block; null when it cannot be read. */
export type ReservesReader = (
  chain: Chain,
) => Promise<{ usdt: Minor; block: bigint; addresses: number } | null>;

const RATIO_DECIMALS = 4n;

export class DashboardService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly reserves: ReservesReader,
  ) {}

  async dashboard(): Promise<DashboardData> {
    const now = this.clock.now();
    const start = DateTime.fromJSDate(now, { zone: this.timeZone }).startOf('day');
    const [totals, waiting, flows, check, ...held] = await Promise.all([
      customerBookTotals(this.db),
      waitingCounts(this.db),
      flowsBetween(this.db, start.toJSDate(), start.plus({ days: 1 }).toJSDate()),
      lastJobRun(this.db, LEDGER_CHECK_JOB),
      ...CHAINS.map((chain) => this.reserves(chain).catch(() => null)),
    ]);
    const book = (asset: string, name: string) =>
      totals.find((row) => row.asset === asset && row.book === name)?.total ?? 0n;
    const liabilitiesOf = (asset: string) => {
      const [cash, held, hosting] = [book(asset, 'cash'), book(asset, 'held'), book(asset, 'hosting')];
      return {
        cash: moneyText(cash),
        held: moneyText(held),
        hosting: moneyText(hosting),
        total: moneyText(cash + held + hosting),
      };
    };
    const owedUsdt = book('USDT', 'cash') + book('USDT', 'held') + book('USDT', 'hosting');
    const reserves: DashboardData['reserves'] = {};
    let onChain: bigint | null = 0n;
    CHAINS.forEach((chain, index) => {
      const reading = held[index] ?? null;
      reserves[chain] = reading
        ? { usdt: formatMoney(reading.usdt), block: String(reading.block), addresses: reading.addresses }
        : null;
      if (reading === null) onChain = null;
      else if (onChain !== null) onChain += reading.usdt;
    });
    return {
      at: now.toISOString(),
      liabilities: { USDT: liabilitiesOf('USDT'), RAB: liabilitiesOf('RAB') },
      reserves,
      ratio: onChain === null || owedUsdt <= 0n ? null : ratioOf(onChain, owedUsdt),
      ledgerCheck:
        check && check.finishedAt
          ? { ok: check.detail['ok'] === true, at: check.finishedAt.toISOString() }
          : null,
      waiting,
      today: {
        day: start.toISODate() ?? '',
        deposits: { count: flows.deposits.count, usdt: moneyText(flows.deposits.total) },
        withdrawals: { count: flows.withdrawals.count, usdt: moneyText(flows.withdrawals.total) },
      },
    };
  }

  async deposits(params: {
    chain?: Chain | undefined;
    status?: string | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
  }) {
    const limit = params.limit ?? 50;
    const rows = await listDeposits(this.db, {
      chain: params.chain,
      status: params.status,
      beforeId: params.cursor ? Number(params.cursor) : undefined,
      limit,
    });
    return {
      items: rows.map(({ deposit, email }) => ({
        ...toDepositRecord(deposit),
        accountId: String(deposit.accountId),
        userId: String(deposit.userId),
        email,
      })),
      nextCursor: rows.length === limit ? String(rows[rows.length - 1]?.deposit.id) : null,
    };
  }
}

/** `held / owed` with four decimals, rounded down (never shows more cover than there is). */
export function ratioOf(held: bigint, owed: bigint): string {
  const scale = 10n ** RATIO_DECIMALS;
  const scaled = (held * scale) / owed;
  return `${scaled / scale}.${String(scaled % scale).padStart(Number(RATIO_DECIMALS), '0')}`;
}
