/**
 * USDT deposits seen from the customer: each account's address per chain (derived from the
 * chain's extended public key at index = the account's id, stored on first request so it never
 * changes) and the account's deposits. The watchers (deposit-watcher.ts) record and credit them.
 */
import type { ChainInfo, RechargeAddressData, RechargeListData } from '../../contract/api/recharge.js';
import type { Chain } from '../../contract/constants.js';
import { depositAddress } from '../chains/addresses.js';
import type { Clock } from '../clock.js';
import type { RequestContext } from '../core/context.js';
import type { Database } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import {
  depositsOfAccount,
  findDepositAddress,
  saveDepositAddress,
} from '../repositories/recharge.repository.js';
import { ownAccount } from './own-account.js';
import { ownAccountPage, type AccountPageParams } from './paging.js';
import { toDepositRecord } from './records.js';

/** What the service knows of each chain: what users are shown, and the key addresses come from. */
export interface DepositChain {
  info: ChainInfo;
  xpub: string;
}

export class RechargeService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly chains: Readonly<Record<Chain, DepositChain>>,
    /** Where the customer's record lists run (a caught-up replica or the primary). */
    private readonly reads: ReadRouting,
  ) {}

  /** The enabled chains with their USDT contract, minimum and confirmations (common/config). */
  chainInfos(): ChainInfo[] {
    return Object.values(this.chains).map((chain) => chain.info);
  }

  /** The account's deposit address on `chain`, the same on every call. */
  async address(
    ctx: RequestContext,
    params: { accountId?: string | undefined; chain: Chain },
  ): Promise<RechargeAddressData> {
    const { accountId, userId } = await ownAccount(this.db, ctx, params.accountId);
    const chain = this.chains[params.chain];
    const stored =
      (await findDepositAddress(this.db, params.chain, accountId)) ??
      (await saveDepositAddress(this.db, {
        chain: params.chain,
        accountId,
        userId,
        derivationIndex: accountId,
        ...depositAddress(params.chain, chain.xpub, accountId),
        createdAt: this.clock.now(),
      }));
    return { ...chain.info, accountId: String(accountId), address: stored.address };
  }

  /** The account's deposits, newest first. */
  list(ctx: RequestContext, params: AccountPageParams): Promise<RechargeListData> {
    return this.reads.read(ctx.caller, (db) =>
      ownAccountPage(db, ctx, params, depositsOfAccount, toDepositRecord),
    );
  }
}
