/**
 * The watcher's loop with a node that is down, then answers garbage, then comes back: each
 * failed tick applies nothing, the loop warns (at the first failure, not at every retry), backs
 * off, never throws, and goes on scanning when the node answers again. A scripted in-memory
 * chain stands in for the node.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { ChainAnswerError, type ChainAdapter } from '../../server/chains/chain.js';
import { openDatabase, type OpenDatabase } from '../../server/db/database.js';
import { findCursor } from '../../server/repositories/recharge.repository.js';
import { DepositWatcher } from '../../server/services/deposit-watcher.js';
import { PollLoop } from '../../server/jobs/poll-loop.js';
import { ManualClock } from '../../server/clock.js';

/** A chain of `height` blocks whose answers fail while `failing` says so. */
function scriptedChain(): ChainAdapter & { height: bigint; failing: 'no' | 'down' | 'garbage' } {
  const chain = {
    chain: 'BEP20' as const,
    decimals: 18,
    contract: '0x55d398326f99059fF775485246999027B3197955',
    height: 10n,
    failing: 'no' as 'no' | 'down' | 'garbage',
    check() {
      if (chain.failing === 'down') throw new ChainAnswerError('BEP20 node: connect ECONNREFUSED');
      if (chain.failing === 'garbage') throw new ChainAnswerError('BEP20 node: block number failed: not hex');
    },
    async genesisHash() {
      chain.check();
      return '0xgenesis';
    },
    async head() {
      chain.check();
      return chain.height;
    },
    async blockHash(number: bigint) {
      chain.check();
      return number <= chain.height ? `0xblock${number}` : null;
    },
    async transfers() {
      chain.check();
      return [];
    },
    async holdings() {
      chain.check();
      return { value: 0n, block: chain.height };
    },
  };
  return chain;
}

describe('the watcher loop when the node misbehaves', () => {
  let database: OpenDatabase | undefined;
  afterEach(async () => database?.close());

  test('down, then garbage, then back: nothing applied meanwhile, one warning per run of failures, then it catches up', async () => {
    database = await openDatabase({});
    const chain = scriptedChain();
    const watcher = new DepositWatcher(database.db, new ManualClock('2026-11-23T08:00:00Z'), {
      adapter: chain,
      finality: 15,
      startBlock: 0n,
      scanRange: 4,
    });
    const warnings: string[] = [];
    const infos: string[] = [];
    const loop = new PollLoop(watcher, 0.1, {
      info: (line) => infos.push(line),
      warn: (line) => warnings.push(line),
    });
    chain.failing = 'down';
    loop.start();
    const waitFor = async (done: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 20_000;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`not within 20 s: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await waitFor(async () => warnings.length > 0, 'a warning');
    expect(warnings[0]).toMatch(/BEP20 watcher: tick failed \(1 in a row\), retrying: .*ECONNREFUSED/);
    expect(await findCursor(database.db, 'BEP20')).toBeUndefined();
    chain.failing = 'garbage';
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(warnings).toHaveLength(1); // retries in a row are not each a warning
    expect(await findCursor(database.db, 'BEP20')).toBeUndefined();

    chain.failing = 'no';
    await waitFor(
      async () => (await findCursor(database!.db, 'BEP20'))?.nextBlock === 11n,
      'the cursor past block 10',
    );
    expect(infos.some((line) => line.includes('the node answers again'))).toBe(true);
    chain.height = 20n; // the chain goes on; so does the loop
    await waitFor(async () => (await findCursor(database!.db, 'BEP20'))?.nextBlock === 21n, 'block 20');
    await loop.stop();
  }, 60_000);
});
