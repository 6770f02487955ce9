/**
 * The operator's sweep (`npm run admin -- sweep BEP20`) against a real local EVM node, on PGlite
 * and PostgreSQL: the deposit key is given at run time and checked against the configured public
 * key; each address holding a credited deposit sends its whole USDT balance to the hot wallet,
 * its gas topped up from the hot wallet; every sweep is recorded and audited; a second run sends
 * nothing; a wrong key sends nothing at all.
 */
import { sql } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { readDevMnemonic } from '../../server/chains/keys.js';
import { SweepError } from '../../server/services/sweep.service.js';
import { availableTiers } from '../helpers/database.js';
import { bep20Env, bep20Watcher, useTestDevnet } from '../helpers/devnet.js';
import { useTestServer } from '../helpers/server.js';
import { cliContext } from '../../server/cli/cli-context.js';

const tiers = await availableTiers('sweep');
const OTHER_MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

describe.each(tiers)('sweeping BEP20 deposits on %s', (tier) => {
  const chain = useTestDevnet();
  const t = useTestServer(tier, () => bep20Env(chain(), 3, true));
  const watcher = () => bep20Watcher(t);

  const usdtOf = (address: string) => chain().usdtOf(address);
  async function depositor(name: string, amount: string) {
    const { token } = await t.register('plain', `${name}-${tier}@example.com`);
    const answer = await t.call<{ address: string }>(
      'plain',
      '/api/v1/recharge/address',
      { chain: 'BEP20' },
      { token },
    );
    await chain().pay(answer.data.address, amount);
    return answer.data.address;
  }
  const rows = async (table: 'sweeps' | 'audit_log') =>
    z
      .object({ rows: z.array(z.object({ n: z.number() })) })
      .parse(
        await t.server.database.db.execute(
          table === 'sweeps'
            ? sql`select count(*)::int as n from sweeps`
            : sql`select count(*)::int as n from audit_log where action = 'sweep'`,
        ),
      ).rows[0]?.n;

  test('a wrong key is refused before anything is sent', async () => {
    await expect(
      t.server.sweeps.sweep(cliContext(), 'BEP20', OTHER_MNEMONIC, () => undefined),
    ).rejects.toBeInstanceOf(SweepError);
    await expect(
      t.server.sweeps.sweep(cliContext(), 'BEP20', 'not a key', () => undefined),
    ).rejects.toBeInstanceOf(SweepError);
    await expect(
      t.server.sweeps.sweep(cliContext(), 'TRC20', OTHER_MNEMONIC, () => undefined),
    ).rejects.toThrow(/TRC20/);
    expect(await rows('sweeps')).toBe(0);
  });

  test('credited deposits move to the hot wallet with their gas topped up; recorded, audited, and a second run sends nothing', async () => {
    const first = await depositor('sweep-a', '30');
    const second = await depositor('sweep-b', '4.5');
    await chain().mine(4);
    for (let i = 0; i < 5; i += 1) await watcher().tick();
    const hotBefore = await usdtOf(chain().info.hotWallet);
    const mnemonic = readDevMnemonic(t.server.config.dataDir);
    if (!mnemonic) throw new Error('the test server made no development key');
    const lines: string[] = [];
    const outcomes = await t.server.sweeps.sweep(cliContext(), 'BEP20', mnemonic, (line) => lines.push(line));
    expect(outcomes.filter((outcome) => outcome.ok && outcome.txHash)).toHaveLength(2);
    expect(outcomes.every((outcome) => outcome.gasTxHash !== null)).toBe(true); // they held no BNB
    expect(await usdtOf(first)).toBe(0n);
    expect(await usdtOf(second)).toBe(0n);
    expect((await usdtOf(chain().info.hotWallet)) - hotBefore).toBe(parseUnits('34.5', 18));
    expect(await rows('sweeps')).toBe(2);
    expect(await rows('audit_log')).toBe(2);
    expect(lines.join('\n')).toMatch(/swept 30000000000000000000 token units/);

    const again = await t.server.sweeps.sweep(cliContext(), 'BEP20', mnemonic, () => undefined);
    expect(again.every((outcome) => outcome.txHash === null && outcome.value === 0n)).toBe(true);
    expect(await rows('sweeps')).toBe(2);
  }, 60_000);
});
