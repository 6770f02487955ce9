/** Configuration from the environment; every variable is documented in the README. */
import path from 'node:path';
import { z } from 'zod';

const segmentSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a path segment of letters, digits, _ or -');

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Coffer <no-reply@coffer.local>'),
  COFFER_ROOT_INVITE: z
    .string()
    .regex(/^[A-Za-z0-9]{4,32}$/)
    .optional(),
  COFFER_GATEWAY_SEGMENT: segmentSchema.default('gw'),
  COFFER_UPLOAD_SEGMENT: segmentSchema.default('up'),
  COFFER_TIMEZONE: z.string().default('Asia/Shanghai'),
  COFFER_NOW: z.iso.datetime({ offset: true }).optional(),
  COFFER_SCRYPT_COST: z.coerce.number().int().min(4).max(20).default(15),
  COFFER_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  COFFER_JOBS: z.enum(['on', 'off']).default('on'),
  COFFER_CLIENT_BUILD: z.enum(['auto', 'off']).default('auto'),
  REDIS_URL: z.string().url().optional(),
  COFFER_ADJUST_REVIEW_ABOVE: z
    .string()
    .regex(/^(0|[1-9]\d{0,14})(\.\d{1,6})?$/, 'a USDT amount such as 10000')
    .default('10000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  rootInvite: string | undefined;
  gatewaySegment: string;
  uploadSegment: string;
  timezone: string;
  now: Date | undefined;
  /** log2 of scrypt's N; tests lower it so they stay fast. */
  scryptCost: number;
  /** Requests per minute per client address; 0 turns the limit off (benchmarks). */
  rateLimitPerMinute: number;
  jobs: boolean;
  /** `npm start` builds dist/ when it is missing, unless off. */
  clientBuild: boolean;
  redisUrl: string | undefined;
  logLevel: string;
  /** Operators' adjustments above this many USDT (RAB valued at its price) wait for a second finance operator. */
  adjustReviewAbove: string;
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
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    rootInvite: e.COFFER_ROOT_INVITE,
    gatewaySegment: e.COFFER_GATEWAY_SEGMENT,
    uploadSegment: e.COFFER_UPLOAD_SEGMENT,
    timezone: e.COFFER_TIMEZONE,
    now: e.COFFER_NOW ? new Date(e.COFFER_NOW) : undefined,
    scryptCost: e.COFFER_SCRYPT_COST,
    rateLimitPerMinute: e.COFFER_RATE_LIMIT,
    jobs: e.COFFER_JOBS === 'on',
    clientBuild: e.COFFER_CLIENT_BUILD === 'auto',
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    adjustReviewAbove: e.COFFER_ADJUST_REVIEW_ABOVE,
  };
}
