/**
 * The operator's sweep (`npm run admin -- sweep BEP20`): confirmed deposits move from users'
 * addresses to the hot wallet. The deposit key is given at run time, checked against the chain's
 * configured public key before anything is sent, used and dropped; every address swept is
 * recorded (`sweeps`) and audited.
 */
import type { Chain } from '../../contract/constants.js';
import { accountXpub } from '../chains/addresses.js';
import type { ChainSetup } from '../chains/setup.js';
import { sweepBep20, type SweepOutcome } from '../chains/sweep.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import { addressesWithCreditedDeposits, insertSweep } from '../repositories/recharge.repository.js';
import type { RequestContext } from '../core/context.js';
import { appendAudit } from '../repositories/operator.repository.js';
import { actorOf } from './operator.service.js';

export class SweepError extends Error {}

export interface SweepNode {
  rpcUrl: string;
  contract: string;
  hotWalletKey: `0x${string}` | undefined;
}

export class SweepService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly chains: Readonly<Record<Chain, ChainSetup>>,
    private readonly bep20: SweepNode | undefined,
  ) {}

  /**
   * Sweeps every address of `chain` holding a credited deposit. Throws SweepError when the chain
   * cannot be swept here, no node or hot wallet is configured, or the secret is not the chain's key.
   */
  async sweep(
    ctx: RequestContext,
    chain: Chain,
    secret: string,
    log: (line: string) => void,
  ): Promise<SweepOutcome[]> {
    if (chain !== 'BEP20')
      throw new SweepError(`${chain} sweeps are not supported yet (no TRON node runs here)`);
    const node = this.bep20;
    if (!node)
      throw new SweepError('no BEP20 node: set CHAIN_BEP20_RPC_URL (or start the devnet with `npm start`)');
    if (!node.hotWalletKey) throw new SweepError('no hot wallet: set HOT_WALLET_BEP20_KEY');
    let derived: string;
    try {
      derived = accountXpub(secret.trim(), chain);
    } catch (error) {
      throw new SweepError(error instanceof Error ? error.message : String(error));
    }
    if (derived !== this.chains[chain].xpub) {
      throw new SweepError(
        `the key given is not the ${chain} deposit key (its xpub differs from the configured one)`,
      );
    }
    const targets = await addressesWithCreditedDeposits(this.db, chain);
    log(`${targets.length} address(es) with credited deposits on ${chain}`);
    const outcomes = await sweepBep20({
      rpcUrl: node.rpcUrl,
      contract: node.contract,
      hotWalletKey: node.hotWalletKey,
      secret: secret.trim(),
      targets,
      log,
    });
    const now = this.clock.now();
    for (const outcome of outcomes) {
      if (!outcome.txHash) continue;
      await this.db.transaction(async (tx) => {
        await insertSweep(tx, {
          chain,
          accountId: outcome.accountId,
          address: outcome.address,
          value: String(outcome.value),
          gasTxHash: outcome.gasTxHash,
          txHash: outcome.txHash ?? '',
          status: outcome.ok ? 'sent' : 'failed',
          createdAt: now,
        });
        await appendAudit(tx, {
          actor: actorOf(ctx),
          action: 'sweep',
          target: `${chain}:${outcome.address}`,
          detail: {
            accountId: outcome.accountId,
            value: String(outcome.value),
            txHash: outcome.txHash,
            gasTxHash: outcome.gasTxHash,
            ok: outcome.ok,
          },
          at: now,
        });
      });
    }
    return outcomes;
  }
}
