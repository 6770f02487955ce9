/**
 * Withdrawal fixtures on the devnet: a USDT balance read from the token contract, amounts in the
 * token's units, and an approved BEP20 withdrawal ready for the send job to pay.
 */
import { erc20Abi, getAddress, parseUnits } from 'viem';
import { expect } from 'vitest';
import type { TestDevnet } from './devnet.js';
import type { withdrawFixtures } from './withdraw.js';

export function chainWithdrawFixtures(
  devnet: () => TestDevnet,
  f: ReturnType<typeof withdrawFixtures>,
  finance: () => string,
) {
  /** The token balance of `address`, in the token's units. */
  const balanceOf = (address: string) =>
    devnet().publicClient.readContract({
      address: devnet().info.contract,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [getAddress(address)],
    });
  /** A USDT amount in the token's units. */
  const units = (usdt: string) => parseUnits(usdt, devnet().info.decimals);

  /** A ready user (`email`) whose BEP20 method is `address`, funded, with an approved withdrawal of `amount`. */
  const approvedWithdrawal = async (email: string, address: string, amount: string) => {
    const user = await f.fundedUser(finance(), email, '1000', 'chain', address);
    const created = await f.withdraw(user, amount);
    expect(created.code, created.message).toBe(200);
    const approved = await f.asFinance(finance(), '/api/admin/withdraw/approve', { id: created.data.id });
    expect(approved.data).toMatchObject({ stage: 'approved' });
    return { user, id: created.data.id };
  };

  return { balanceOf, units, approvedWithdrawal };
}
