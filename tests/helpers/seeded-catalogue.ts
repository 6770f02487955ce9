/**
 * The seeded catalogue's terms as the spec states them: what the API answers for a fresh
 * database, and what client tests build their records from. Names and ids stay with each test.
 */

/** Product 1, the 7-day hosting: 0.3 % a day paid daily, 100 to 100000, early exit at a 1 % penalty. */
export const SEEDED_7_DAY_HOSTING = {
  days: 7,
  dailyRate: '0.003',
  minimum: '100',
  maximum: '100000',
  payout: 'daily',
  earlyExit: true,
  penaltyRate: '0.01',
} as const;

/** Machine 1, the Starter miner: 10 T for 100 USDT or 1 ticket, 0.36 USDT a T a day for 30 days. */
export const SEEDED_STARTER_MINER = {
  hashPower: '10',
  price: '100',
  ticketPrice: 1,
  days: 30,
  dailyOutput: '0.36',
  machineDailyOutput: '3.6',
  rentPrice: '3.5',
  status: 'active',
} as const;

/** A holding of 2 Starter miners bought with USDT: 20 T, 7.2 USDT a day for 30 days, 200 paid. */
export const TWO_STARTER_MINERS_BOUGHT = {
  acquisition: 'buy',
  payWith: 'usdt',
  quantity: 2,
  hashPower: '10',
  totalHashPower: '20',
  dailyOutput: '0.36',
  holdingDailyOutput: '7.2',
  days: 30,
} as const;
