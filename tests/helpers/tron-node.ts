/**
 * TRON full-node HTTP API answers in their documented shapes (https://developers.tron.network/reference),
 * for tests of the TRC20 adapter and watcher: hex without 0x, log addresses without the 41
 * prefix, zero values left out as protobuf's JSON does.
 */
import { TRANSFER_TOPIC } from '../../server/chains/tron.js';

/** TRON's USDT contract, base58 and its 20-byte hex. */
export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const USDT_HEX = 'a614f803b6fd780986a42c78ec9c7f77e6ded13c';
export const SENDER = 'e4b8075df69297bc24cc4bbaf48cd17206e1f62c';

// ---- fixture factories: TRON's JSON, field names and hex formats as the node writes them ----

/** A 32-byte id whose first 8 bytes are the block number, as TRON's blockIDs are. */
export function blockId(number: number, salt = 'ab'): string {
  return number.toString(16).padStart(16, '0') + salt.repeat(24);
}
export function txId(seed: number): string {
  return seed.toString(16).padStart(8, '0').repeat(8);
}
export const word = (hexDigits: string) => hexDigits.padStart(64, '0');

export function transferLog(options: { contract?: string; from?: string; to: string; value: bigint }) {
  return {
    address: options.contract ?? USDT_HEX,
    data: word(options.value.toString(16)),
    topics: [TRANSFER_TOPIC, word(options.from ?? SENDER), word(options.to)],
  };
}

export interface InfoOptions {
  id: string;
  blockNumber: number;
  result?: string;
  log?: ReturnType<typeof transferLog>[];
}
export function transactionInfo(options: InfoOptions) {
  return {
    id: options.id,
    fee: 345000,
    blockNumber: options.blockNumber,
    blockTimeStamp: 1_700_000_000_000 + options.blockNumber * 3000,
    contractResult: ['0000000000000000000000000000000000000000000000000000000000000001'],
    contract_address: `41${USDT_HEX}`,
    receipt: {
      energy_usage_total: 14631,
      net_usage: 345,
      result: options.result ?? 'SUCCESS',
    },
    ...(options.log ? { log: options.log } : {}),
  };
}
/** A plain TRX transfer's info: no contract, no logs, a receipt without a result. */
export function trxTransferInfo(id: string, blockNumber: number) {
  return {
    id,
    blockNumber,
    blockTimeStamp: 1_700_000_000_000,
    contractResult: [''],
    receipt: { net_usage: 268 },
  };
}

export function block(number: number, txIds: string[], salt?: string) {
  return {
    blockID: blockId(number, salt),
    block_header: {
      raw_data: {
        // protobuf's JSON leaves out zero values: the genesis block has no number.
        ...(number === 0 ? {} : { number, timestamp: 1_700_000_000_000 + number * 3000 }),
        txTrieRoot: '0'.repeat(64),
        witness_address: '41928c9af0651632157ef27a2cf17ca72c575a4d21',
        parentHash:
          number === 0
            ? 'e58f33f9baf9305dc6f82b9f1934ea8f0ade2defb951258d50167028c780351f'
            : blockId(number - 1),
        version: 30,
      },
      witness_signature: 'ff'.repeat(65),
    },
    ...(txIds.length > 0
      ? {
          transactions: txIds.map((txID) => ({
            ret: [{ contractRet: 'SUCCESS' }],
            signature: ['ee'.repeat(65)],
            txID,
            raw_data: {
              contract: [],
              ref_block_bytes: '0000',
              ref_block_hash: '00'.repeat(8),
              expiration: 0,
              timestamp: 0,
            },
            raw_data_hex: '0a02',
          })),
        }
      : {}),
  };
}
