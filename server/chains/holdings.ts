/**
 * What an EVM chain holds in USDT at addresses Coffer controls (the hot wallet and the deposit
 * addresses), read at one block so the figures belong together: the console's dashboard and the
 * proof of reserves compare it with what customers are owed.
 */
import { createPublicClient, erc20Abi, getAddress, http } from 'viem';

export interface Holdings {
  /** In the token's own units (10^decimals per USDT). */
  value: bigint;
  block: bigint;
}

export async function evmUsdtHoldings(
  rpcUrl: string,
  contract: string,
  addresses: readonly string[],
): Promise<Holdings> {
  const client = createPublicClient({
    transport: http(rpcUrl, { timeout: 5_000, retryCount: 0 }),
    cacheTime: 0,
  });
  const block = await client.getBlockNumber();
  const token = getAddress(contract);
  let value = 0n;
  for (const address of new Set(addresses.map((item) => item.toLowerCase()))) {
    value += await client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [getAddress(address)],
      blockNumber: block,
    });
  }
  return { value, block };
}
