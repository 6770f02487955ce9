/** Configuration from the environment; every variable is documented in the README. */
import path from 'node:path';
import { z } from 'zod';
import { DEPOSIT_CONFIRMATIONS } from '../contract/constants.js';
import { isFeeRate } from '../contract/exchange-quote.js';
import { formatMoney, parseMoney } from '../contract/money.js';
import { emailSchema } from '../contract/schema.js';
import type { PlatformLimitsData } from '../contract/api/admin.js';
import { parseSecretKey } from './security/secret-box.js';
import { isVapidPrivateKey, isVapidPublicKey, type VapidKeys } from './security/vapid.js';

const segmentSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a path segment of letters, digits, _ or -');

/**
 * The proxies whose `X-Forwarded-*` headers count: comma-separated addresses or CIDR ranges, or
 * `loopback`, `linklocal`, `uniquelocal` (Fastify's `trustProxy`, proxy-addr's names).
 */
const trustProxySchema = z
  .string()
  .regex(
    /^\s*(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?))*\s*$/,
    'comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal',
  );

/** A USDT amount in plain notation (`10000`, `0.5`). */
const usdtSetting = z.string().regex(/^(0|[1-9]\d{0,14})(\.\d{1,6})?$/, 'a USDT amount such as 10000');

/** An exchange bound: an amount of at most 2 decimals (as a user may enter), at most 10^9. */
const exchangeBound = z
  .string()
  .regex(/^(0|[1-9]\d{0,8})(\.\d{1,2})?$/, 'an amount of at most 2 decimals such as 100000');

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_READ_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Coffer <no-reply@coffer.local>'),
  COFFER_ROOT_INVITE: z
    .string()
    .regex(/^[A-Za-z0-9]{4,32}$/)
    .optional(),
  COFFER_PUBLIC_URL: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//.test(value), 'an http(s) URL such as https://coffer.example.com')
    .optional(),
  COFFER_ROOT_OPERATOR: emailSchema.default('root@coffer.local'),
  COFFER_GATEWAY_SEGMENT: segmentSchema.default('gw'),
  COFFER_UPLOAD_SEGMENT: segmentSchema.default('up'),
  COFFER_CLIENT_TRANSPORT: z.enum(['envelope', 'plain']).default('envelope'),
  COFFER_TRUST_PROXY: trustProxySchema.optional(),
  COFFER_TIMEZONE: z.string().default('Asia/Shanghai'),
  COFFER_NOW: z.iso.datetime({ offset: true }).optional(),
  COFFER_SCRYPT_COST: z.coerce.number().int().min(4).max(20).default(15),
  COFFER_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  COFFER_JOBS: z.enum(['on', 'off']).default('on'),
  COFFER_DEMO: z.enum(['on', 'off']).default('on'),
  COFFER_QUOTES_URL: z.string().url().optional(),
  COFFER_QUOTES_SYMBOLS: z
    .string()
    .regex(/^[A-Z0-9]{4,20}(,[A-Z0-9]{4,20})*$/)
    .default('BTCUSDT,ETHUSDT,BNBUSDT,TRXUSDT'),
  COFFER_QUOTES_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  COFFER_CLIENT_BUILD: z.enum(['auto', 'off']).default('auto'),
  REDIS_URL: z.string().url().optional(),
  COFFER_REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'letters, digits and _ : . - (1 to 64)')
    .default('coffer:'),
  COFFER_ADJUST_REVIEW_ABOVE: usdtSetting.default('10000'),
  COFFER_WITHDRAW_REVIEW_ABOVE: usdtSetting.default('10000'),
  COFFER_WITHDRAW_FEE: usdtSetting.default('1'),
  COFFER_WITHDRAW_MIN: usdtSetting.default('10'),
  COFFER_WITHDRAW_DAILY_LIMIT: usdtSetting.default('50000'),
  COFFER_UNVERIFIED_WITHDRAW_DAILY: usdtSetting.default('1000'),
  CHAIN_BEP20_XPUB: z.string().optional(),
  CHAIN_TRC20_XPUB: z.string().optional(),
  CHAIN_BEP20_RPC_URL: z.string().url().optional(),
  CHAIN_BEP20_USDT_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x contract address')
    .default('0x55d398326f99059fF775485246999027B3197955'),
  CHAIN_BEP20_USDT_DECIMALS: z.coerce.number().int().min(0).max(36).default(18),
  CHAIN_BEP20_FINALITY: z.coerce.number().int().min(DEPOSIT_CONFIRMATIONS).max(10_000).default(15),
  CHAIN_BEP20_START_BLOCK: z.coerce.bigint().min(0n).optional(),
  HOT_WALLET_BEP20_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x private key of 64 hex digits')
    .optional(),
  CHAIN_TRC20_API_URL: z.string().url().optional(),
  CHAIN_TRC20_API_KEY: z.string().optional(),
  CHAIN_TRC20_USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a TRON base58 contract address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  CHAIN_TRC20_FINALITY: z.coerce.number().int().min(DEPOSIT_CONFIRMATIONS).max(10_000).default(20),
  CHAIN_TRC20_START_BLOCK: z.coerce.bigint().min(0n).optional(),
  CHAIN_POLL_SECONDS: z.coerce.number().min(0.1).max(3600).default(2),
  CHAIN_SCAN_RANGE: z.coerce.number().int().min(1).max(10_000).default(500),
  COFFER_DEVNET: z.enum(['auto', 'on', 'off']).default('auto'),
  COFFER_SECRET_KEY: z.string().optional(),
  COFFER_VAPID_PUBLIC_KEY: z
    .string()
    .refine(
      isVapidPublicKey,
      'an uncompressed P-256 public key in base64url (npx web-push generate-vapid-keys)',
    )
    .optional(),
  COFFER_VAPID_PRIVATE_KEY: z
    .string()
    .refine(isVapidPrivateKey, 'a 32-byte P-256 private key in base64url (npx web-push generate-vapid-keys)')
    .optional(),
  COFFER_VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'a mailto: address or an https: URL')
    .optional(),
  COFFER_NEW_METHOD_COOLDOWN_HOURS: z.coerce.number().min(0).max(720).default(24),
  COFFER_EXCHANGE_FEE_RATE: z
    .string()
    .refine(isFeeRate, 'a decimal from 0 to below 1 such as 0.002')
    .default('0.002'),
  COFFER_EXCHANGE_MIN: exchangeBound.default('1'),
  COFFER_EXCHANGE_MAX: exchangeBound.default('100000'),
  COFFER_OTC_PRICE_BAND: z
    .string()
    .refine(isFeeRate, 'a decimal from 0 to below 1 such as 0.1')
    .default('0.1'),
  COFFER_OTC_MAKER_FEE_RATE: z
    .string()
    .refine(isFeeRate, 'a decimal from 0 to below 1 such as 0.001')
    .default('0.001'),
  COFFER_OTC_TAKER_FEE_RATE: z
    .string()
    .refine(isFeeRate, 'a decimal from 0 to below 1 such as 0.002')
    .default('0.002'),
  COFFER_OTC_MIN: exchangeBound.default('1'),
  COFFER_DIVIDEND_CLAIM_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  COFFER_TEAM_MANAGEMENT_DEPTH: z.coerce.number().int().min(1).max(100).default(10),
  DEVNET_PORT: z.coerce.number().int().min(0).max(65535).default(8545),
  DEVNET_BLOCK_SECONDS: z.coerce.number().int().min(0).max(3600).default(2),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * A streaming replica of DATABASE_URL's server for customers' sync pulls and record lists, with
   * read-your-writes (server/db/read-routing.ts); undefined: every read on the primary.
   */
  databaseReadUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  rootInvite: string | undefined;
  /**
   * Where customers open the app (COFFER_PUBLIC_URL; default http://localhost:PORT): passkeys'
   * relying party id is its host name and their expected origin its origin.
   */
  publicUrl: URL;
  /** The first start's superadmin when the database has no operator (a one-time password is printed). */
  rootOperator: string;
  gatewaySegment: string;
  uploadSegment: string;
  /** The transport the web app uses, told to it at run time by GET /client-config.json. */
  clientTransport: 'envelope' | 'plain';
  /**
   * The proxies trusted for `X-Forwarded-For` and `X-Forwarded-Proto` (client address for rate
   * limits, https for HSTS); undefined trusts none.
   */
  trustProxy: string | undefined;
  timezone: string;
  now: Date | undefined;
  /** log2 of scrypt's N; tests lower it so they stay fast. */
  scryptCost: number;
  /** Requests per minute per client address; 0 turns the limit off (benchmarks). */
  rateLimitPerMinute: number;
  jobs: boolean;
  /**
   * Demo news, a notice and quotes on the first start, so a new user's Home is not empty: only on
   * the embedded default (no DATABASE_URL), never in production, and not with COFFER_DEMO=off.
   */
  demo: boolean;
  /** An exchange's public 24-hour ticker (Binance's /api/v3/ticker/24hr shape) polled for `symbols`. */
  quotesFeed: { url: string; symbols: string[]; pollSeconds: number } | undefined;
  /** `npm start` builds dist/ when it is missing, unless off. */
  clientBuild: boolean;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel name: deployments (or test runs) sharing one Redis stay apart. */
  redisPrefix: string;
  logLevel: string;
  chains: ChainsConfig;
  /** COFFER_SECRET_KEY (32 bytes): seals authenticator secrets; undefined: a development key in DATA_DIR. */
  secretKey: Buffer | undefined;
  /**
   * Web push's VAPID key pair (COFFER_VAPID_PUBLIC_KEY, COFFER_VAPID_PRIVATE_KEY); undefined: a
   * development pair in DATA_DIR (server/security/vapid.ts). Production requires both.
   */
  vapidKeys: VapidKeys | undefined;
  /**
   * The contact push services see in our VAPID signature (COFFER_VAPID_SUBJECT): by default
   * COFFER_PUBLIC_URL when it is https, else a mailto: of MAIL_FROM's address.
   */
  vapidSubject: string;
  /** Hours after adding a withdrawal method before withdrawals may use it. */
  newMethodCooldownHours: number;
  /** The BEP20 hot wallet's key (sweeps, withdrawals); the devnet's account 0 on a development start. */
  bep20HotWalletKey: `0x${string}` | undefined;
  /**
   * Start a local EVM devnet for BEP20 with the server: when not production and no BEP20 node is
   * configured, with COFFER_DEVNET `on`, or `auto` on the embedded database. On PostgreSQL the
   * server runs as several instances, each of which would start its own chain on DEVNET_PORT
   * (the second start failed), and a devnet's chain does not outlive its process while the
   * database keeps its deposits: there it is asked for by name.
   */
  devnet: { port: number; blockSeconds: number } | undefined;
  /** Operators' adjustments above this many USDT (RAB valued at its price) wait for a second finance operator. */
  adjustReviewAbove: string;
  /**
   * The RAB/USDT exchange: the fee rate (an exact decimal of the USDT side) and the bounds of an
   * amount in the asset given (RAB for rab_to_usdt, USDT for usdt_to_rab), as wire decimals.
   */
  exchange: { feeRate: string; minimum: string; maximum: string };
  /** The OTC market: the band around the guide price and the fees (exact decimal fractions), the least RAB an order or take moves. */
  otc: { priceBand: string; makerFeeRate: string; takerFeeRate: string; minimum: string };
  /**
   * Withdrawals (USDT strings): the flat fee, the minimum, the per-user daily limit, above what two
   * operators approve, and what a user without an approved real name may withdraw per business day.
   */
  withdraw: {
    fee: string;
    minimum: string;
    dailyLimit: string;
    reviewAbove: string;
    unverifiedDaily: string;
  };
  /** Days a customer may claim an AI dividend's record after it is published; then it expires. */
  dividendClaimDays: number;
  /** Generations up from a member that management income reaches (the team job). */
  teamManagementDepth: number;
}

export interface ChainConfig {
  xpub: string | undefined;
  /** The node (BEP20) or API (TRC20); undefined: the chain's watcher waits, its addresses still show. */
  url: string | undefined;
  apiKey: string | undefined;
  contract: string;
  decimals: number;
  finality: number;
  startBlock: bigint | undefined;
}

export interface ChainsConfig {
  BEP20: ChainConfig;
  TRC20: ChainConfig;
  pollSeconds: number;
  scanRange: number;
}

export class ConfigError extends Error {}

/** Reads and checks the environment; throws ConfigError with every problem named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (!Intl.supportedValuesOf('timeZone').includes(e.COFFER_TIMEZONE) && e.COFFER_TIMEZONE !== 'UTC') {
    throw new ConfigError(`COFFER_TIMEZONE: unknown time zone ${e.COFFER_TIMEZONE}`);
  }
  if (production && !e.SMTP_URL) {
    throw new ConfigError(
      'SMTP_URL is required when NODE_ENV=production (the dev mailbox is for development only)',
    );
  }
  if (production && (!e.CHAIN_BEP20_XPUB || !e.CHAIN_TRC20_XPUB)) {
    throw new ConfigError(
      'CHAIN_BEP20_XPUB and CHAIN_TRC20_XPUB are required when NODE_ENV=production (the development deposit key is for development only)',
    );
  }
  const secretKey = e.COFFER_SECRET_KEY === undefined ? undefined : parseSecretKey(e.COFFER_SECRET_KEY);
  if (secretKey === null) {
    throw new ConfigError('COFFER_SECRET_KEY: 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)');
  }
  if (production && !secretKey) {
    throw new ConfigError(
      'COFFER_SECRET_KEY is required when NODE_ENV=production (32 bytes, hex or base64: openssl rand -hex 32)',
    );
  }
  if ((e.COFFER_VAPID_PUBLIC_KEY === undefined) !== (e.COFFER_VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError(
      'COFFER_VAPID_PUBLIC_KEY and COFFER_VAPID_PRIVATE_KEY go together: set both, or neither',
    );
  }
  if (production && !e.COFFER_VAPID_PUBLIC_KEY) {
    throw new ConfigError(
      'COFFER_VAPID_PUBLIC_KEY and COFFER_VAPID_PRIVATE_KEY are required when NODE_ENV=production (web push; make a pair with: npx web-push generate-vapid-keys)',
    );
  }
  const publicUrl = new URL(e.COFFER_PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const mailFromAddress = /<([^<>\s]+@[^<>\s]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM.trim();
  const vapidSubject =
    e.COFFER_VAPID_SUBJECT ??
    (publicUrl.protocol === 'https:' ? publicUrl.origin : `mailto:${mailFromAddress}`);
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'DATABASE_READ_URL (a streaming replica) needs DATABASE_URL (its PostgreSQL primary); the embedded database has no replica',
    );
  }
  if (production && e.COFFER_NOW) throw new ConfigError('COFFER_NOW is refused when NODE_ENV=production');
  if (
    e.COFFER_GATEWAY_SEGMENT === e.COFFER_UPLOAD_SEGMENT ||
    ['v1', 'admin', 'docs', 'health'].includes(e.COFFER_GATEWAY_SEGMENT) ||
    ['v1', 'admin', 'docs', 'health'].includes(e.COFFER_UPLOAD_SEGMENT)
  ) {
    throw new ConfigError(
      'COFFER_GATEWAY_SEGMENT and COFFER_UPLOAD_SEGMENT must differ from each other and from v1, admin, docs, health',
    );
  }
  if (
    parseMoney(e.COFFER_EXCHANGE_MIN) <= 0n ||
    parseMoney(e.COFFER_EXCHANGE_MAX) < parseMoney(e.COFFER_EXCHANGE_MIN)
  ) {
    throw new ConfigError('COFFER_EXCHANGE_MIN must be above 0, and COFFER_EXCHANGE_MAX at least as much');
  }
  if (parseMoney(e.COFFER_OTC_MIN) <= 0n) throw new ConfigError('COFFER_OTC_MIN must be above 0');
  const devnet =
    !production &&
    !e.CHAIN_BEP20_RPC_URL &&
    (e.COFFER_DEVNET === 'on' || (e.COFFER_DEVNET === 'auto' && !e.DATABASE_URL))
      ? { port: e.DEVNET_PORT, blockSeconds: e.DEVNET_BLOCK_SECONDS }
      : undefined;
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    rootInvite: e.COFFER_ROOT_INVITE,
    publicUrl,
    rootOperator: e.COFFER_ROOT_OPERATOR,
    gatewaySegment: e.COFFER_GATEWAY_SEGMENT,
    uploadSegment: e.COFFER_UPLOAD_SEGMENT,
    clientTransport: e.COFFER_CLIENT_TRANSPORT,
    trustProxy: e.COFFER_TRUST_PROXY?.trim(),
    timezone: e.COFFER_TIMEZONE,
    now: e.COFFER_NOW ? new Date(e.COFFER_NOW) : undefined,
    scryptCost: e.COFFER_SCRYPT_COST,
    rateLimitPerMinute: e.COFFER_RATE_LIMIT,
    jobs: e.COFFER_JOBS === 'on',
    demo: e.COFFER_DEMO === 'on' && !production && !e.DATABASE_URL,
    quotesFeed: e.COFFER_QUOTES_URL
      ? {
          url: e.COFFER_QUOTES_URL,
          symbols: e.COFFER_QUOTES_SYMBOLS.split(','),
          pollSeconds: e.COFFER_QUOTES_SECONDS,
        }
      : undefined,
    clientBuild: e.COFFER_CLIENT_BUILD === 'auto',
    redisUrl: e.REDIS_URL,
    redisPrefix: e.COFFER_REDIS_PREFIX,
    logLevel: e.LOG_LEVEL,
    adjustReviewAbove: e.COFFER_ADJUST_REVIEW_ABOVE,
    exchange: {
      feeRate: e.COFFER_EXCHANGE_FEE_RATE,
      minimum: formatMoney(parseMoney(e.COFFER_EXCHANGE_MIN)),
      maximum: formatMoney(parseMoney(e.COFFER_EXCHANGE_MAX)),
    },
    otc: {
      priceBand: e.COFFER_OTC_PRICE_BAND,
      makerFeeRate: e.COFFER_OTC_MAKER_FEE_RATE,
      takerFeeRate: e.COFFER_OTC_TAKER_FEE_RATE,
      minimum: formatMoney(parseMoney(e.COFFER_OTC_MIN)),
    },
    withdraw: {
      fee: e.COFFER_WITHDRAW_FEE,
      minimum: e.COFFER_WITHDRAW_MIN,
      dailyLimit: e.COFFER_WITHDRAW_DAILY_LIMIT,
      unverifiedDaily: e.COFFER_UNVERIFIED_WITHDRAW_DAILY,
      reviewAbove: e.COFFER_WITHDRAW_REVIEW_ABOVE,
    },
    dividendClaimDays: e.COFFER_DIVIDEND_CLAIM_DAYS,
    teamManagementDepth: e.COFFER_TEAM_MANAGEMENT_DEPTH,
    chains: {
      BEP20: {
        xpub: e.CHAIN_BEP20_XPUB,
        url: e.CHAIN_BEP20_RPC_URL,
        apiKey: undefined,
        contract: e.CHAIN_BEP20_USDT_CONTRACT,
        decimals: e.CHAIN_BEP20_USDT_DECIMALS,
        finality: e.CHAIN_BEP20_FINALITY,
        startBlock: e.CHAIN_BEP20_START_BLOCK,
      },
      TRC20: {
        xpub: e.CHAIN_TRC20_XPUB,
        url: e.CHAIN_TRC20_API_URL,
        apiKey: e.CHAIN_TRC20_API_KEY,
        contract: e.CHAIN_TRC20_USDT_CONTRACT,
        decimals: 6,
        finality: e.CHAIN_TRC20_FINALITY,
        startBlock: e.CHAIN_TRC20_START_BLOCK,
      },
      pollSeconds: e.CHAIN_POLL_SECONDS,
      scanRange: e.CHAIN_SCAN_RANGE,
    },
    devnet,
    newMethodCooldownHours: e.COFFER_NEW_METHOD_COOLDOWN_HOURS,
    secretKey,
    vapidKeys:
      e.COFFER_VAPID_PUBLIC_KEY && e.COFFER_VAPID_PRIVATE_KEY
        ? { publicKey: e.COFFER_VAPID_PUBLIC_KEY.trim(), privateKey: e.COFFER_VAPID_PRIVATE_KEY.trim() }
        : undefined,
    vapidSubject,
    bep20HotWalletKey: e.HOT_WALLET_BEP20_KEY as `0x${string}` | undefined, // the regex above
  };
}

/** The fees and limits of `config` as operators are shown them (read-only in the console). */
export function platformLimitsOf(config: Config): PlatformLimitsData['limits'] {
  const usdt = (value: string) => formatMoney(parseMoney(value));
  return {
    withdrawFee: usdt(config.withdraw.fee),
    withdrawMinimum: usdt(config.withdraw.minimum),
    withdrawDailyLimit: usdt(config.withdraw.dailyLimit),
    withdrawReviewAbove: usdt(config.withdraw.reviewAbove),
    unverifiedWithdrawDaily: usdt(config.withdraw.unverifiedDaily),
    adjustReviewAbove: usdt(config.adjustReviewAbove),
    exchangeFeeRate: config.exchange.feeRate,
    exchangeMinimum: config.exchange.minimum,
    exchangeMaximum: config.exchange.maximum,
    otcPriceBand: config.otc.priceBand,
    otcMakerFeeRate: config.otc.makerFeeRate,
    otcTakerFeeRate: config.otc.takerFeeRate,
    otcMinimum: config.otc.minimum,
    newMethodCooldownHours: String(config.newMethodCooldownHours),
    dividendClaimDays: String(config.dividendClaimDays),
  };
}
