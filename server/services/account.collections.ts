/**
 * The account's ledger sync collections: its balances (one record, the account's own) and its
 * wallet records, one per side of a transfer the account is on (`<transferId>-d` / `-c`).
 */
import { accountBalances } from '../ledger/ledger.js';
import { latestTransferAt, transfersOfOwnerByIds } from '../ledger/ledger.repository.js';
import { toBalanceRecord, toWalletRecord } from './records.js';
import { defineCollections } from './sync-collection.js';

export const accountCollections = defineCollections({
  balances: async (db, accountId, ids) => {
    if (!ids.includes(String(accountId))) return [];
    const balances = (await accountBalances(db, [accountId])).get(accountId);
    const latest = await latestTransferAt(db, accountId);
    return balances ? [toBalanceRecord(accountId, balances, latest ?? new Date(0))] : [];
  },
  records: async (db, accountId, ids) => {
    const sides = new Map<number, Set<string>>();
    for (const id of ids) {
      const match = /^(\d{1,15})-([dc])$/.exec(id);
      if (!match?.[1] || !match[2]) continue;
      const transferId = Number(match[1]);
      sides.set(transferId, (sides.get(transferId) ?? new Set()).add(match[2]));
    }
    const rows = await transfersOfOwnerByIds(db, accountId, [...sides.keys()]);
    return rows.flatMap((row) =>
      (['d', 'c'] as const)
        .filter(
          (side) =>
            sides.get(row.id)?.has(side) && (side === 'd' ? row.debitOwner : row.creditOwner) === accountId,
        )
        .map((side) => toWalletRecord(row, side)),
    );
  },
});
