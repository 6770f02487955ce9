/**
 * The ledger's balances as SQL fragments, for other repositories' set-based statements (a team's
 * performance, a day's dividend shares) to embed without an N+1: only server/ledger names the
 * ledger's tables. Each fragment is a subquery to put in a FROM clause under an alias.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * Every customer account's USDT hosting book now: one row `(owner, balance)` per account that has
 * the book (`owner` is the account id). A simple subquery: PostgreSQL folds it into the outer
 * join, so it reads the balances' primary key as a join on the table would.
 */
export const customerHostingBalances: SQL = sql`(select owner, balance from ledger_balances
   where book = 'hosting' and asset = 'USDT' and slot = 0)`;

/**
 * Every customer account's USDT hosting balance at `end` (exclusive), as the ledger held it: one
 * row `(owner, balance)` per account with a hosting transfer before `end`, the balance after the
 * last one (a customer's book is one row, so its transfers' ids follow the order they were
 * applied in). Accounts with none are left out.
 */
export function customerHostingBalancesAt(end: Date): SQL {
  return sql`(select distinct on (moves.owner) moves.owner, moves.balance
      from (select debit_owner as owner, debit_balance_after as balance, id from ledger_transfers
             where debit_book = 'hosting' and asset = 'USDT' and debit_owner <> 0
               and created_at < ${end}::timestamptz
            union all
            select credit_owner, credit_balance_after, id from ledger_transfers
             where credit_book = 'hosting' and asset = 'USDT' and credit_owner <> 0
               and created_at < ${end}::timestamptz) moves
     order by moves.owner, moves.id desc)`;
}
