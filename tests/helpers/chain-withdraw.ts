/**
 * Withdrawal fixtures on the devnet: a USDT balance read from the token contract, amounts in the
 * token's units, an approved BEP20 withdrawal ready for the send job to pay, and a withdrawal's
 * state as the operators' list shows it.
 */
import { parseUnits } from 'viem';
import { expect } from 'vitest';
import type { TestDevnet } from './devnet.js';
import type { withdrawFixtures } from './withdraw.js';

export function chainWithdrawFixtures(
  devnet: () => TestDevnet,
  f: ReturnType<typeof withdrawFixtures>,
  finance: () => string,
  /** The address of the user named `name` (unique to the file and its tier). */
  emailOf: (name: string) => string,
) {
  /** The token balance of `address`, in the token's units. */
  const balanceOf = (address: string) => devnet().usdtOf(address);
  /** A USDT amount in the token's units. */
  const units = (usdt: string) => parseUnits(usdt, devnet().info.decimals);

  /** A ready user (`name`) whose BEP20 method is `address`, funded, with an approved withdrawal of `amount`. */
  const approvedWithdrawal = async (name: string, address: string, amount: string) => {
    const user = await f.fundedUser(finance(), emailOf(name), '1000', 'chain', address);
    const created = await f.withdraw(user, amount);
    expect(created.code, created.message).toBe(200);
    const approved = await f.asFinance(finance(), '/api/admin/withdraw/approve', { id: created.data.id });
    expect(approved.data).toMatchObject({ stage: 'approved' });
    return { user, id: created.data.id };
  };

  /** The withdrawal `id` as the operators' list shows it (undefined when it is not listed). */
  const stateOf = async (id: string) => {
    const listed = await f.asFinance(finance(), '/api/admin/withdraw/list', { limit: 100 });
    const { items } = listed.data as unknown as {
      items: Array<{
        id: string;
        status: string;
        stage: string;
        txHash: string | null;
        nonce: number | null;
        confirmations: { required: number; reached: boolean; seen: number | null } | null;
      }>;
    }; // the list's rows, of which the tests read these fields
    return items.find((item) => item.id === id);
  };

  return { balanceOf, units, approvedWithdrawal, stateOf };
}
