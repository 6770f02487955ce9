/**
 * The crash test's writer (tests/ledger/ledger.crash.pg.test.ts), a process of its own that the
 * test kills with SIGKILL: it streams events of two or three transfers each (a transfer, its
 * fee, sometimes a payout of the payee), each event in one transaction, from WRITERS concurrent
 * connections, as fast as it can, forever. Keys are `crash:<event>:<transfers>:<index>`.
 * Prints `begin <event>` before and `commit <event>` after each transaction.
 *
 * Environment: DATABASE_URL (migrated, accounts 1..ACCOUNTS funded), ACCOUNTS, WRITERS.
 */
import { minor } from '../../contract/money.js';
import { openDatabase } from '../../server/db/database.js';
import { customerBook, platformBook } from '../../server/ledger/books.js';
import { transfer, type TransferInput } from '../../server/ledger/ledger.js';

const url = process.env['DATABASE_URL'];
if (!url) throw new Error('crash-writer: DATABASE_URL is required');
const accounts = Number(process.env['ACCOUNTS'] ?? 20);
const writers = Number(process.env['WRITERS'] ?? 6);
const database = await openDatabase({ databaseUrl: url });
const ref = { table: 'crash', id: '0' };
const pick = () => 1 + Math.floor(Math.random() * accounts);

function event(number: number): TransferInput[] {
  const payer = pick();
  let payee = pick();
  if (payee === payer) payee = (payer % accounts) + 1;
  const size = number % 3 === 0 ? 3 : 2;
  const key = (index: number) => `crash:${number}:${size}:${index}`;
  const inputs: TransferInput[] = [
    {
      key: key(0),
      kind: 'account_transfer',
      asset: 'USDT',
      from: customerBook(payer, 'cash'),
      to: customerBook(payee, 'cash'),
      amount: minor(1_000_000n),
      ref,
    },
    {
      key: key(1),
      kind: 'fee',
      asset: 'USDT',
      from: customerBook(payer, 'cash'),
      to: platformBook('fee_revenue'),
      amount: minor(10_000n),
      ref,
    },
  ];
  if (size === 3) {
    inputs.push({
      key: key(2),
      kind: 'withdrawal',
      asset: 'USDT',
      from: customerBook(payee, 'cash'),
      to: platformBook('hot_wallet'),
      amount: minor(500_000n),
      ref,
    });
  }
  return inputs;
}

let next = 0;
async function writer(): Promise<never> {
  for (;;) {
    const number = (next += 1);
    process.stdout.write(`begin ${number}\n`);
    await database.db.transaction((tx) => transfer(tx, event(number), new Date()));
    process.stdout.write(`commit ${number}\n`);
  }
}

await Promise.all(Array.from({ length: writers }, writer));
