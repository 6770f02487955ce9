/** Public reads under /api/v1/common (no token needed). */
import { z } from 'zod';
import { listOf } from '../schema.js';
import { chainInfoSchema } from './recharge.js';

export const languageSchema = z.object({
  /** The `lang` header value (KO, EN, JP, CN, DE, FH, TW). */
  code: z.string(),
  /** The locale file name under locales/ (zh-Hans, en, ...). */
  locale: z.string(),
  name: z.string(),
  default: z.boolean(),
});
export const langDataSchema = listOf(languageSchema);

export const versionDataSchema = z.object({
  version: z.string(),
  version_code: z.number().int(),
  hot_version_code: z.number().int(),
  package_url: z.string(),
  hot_package_url: z.string(),
});
export type VersionData = z.infer<typeof versionDataSchema>;

export const avatarListDataSchema = listOf(z.string());

export const configDataSchema = z.object({
  appName: z.string(),
  version: z.string(),
  versionCode: z.number().int(),
  protocolVersion: z.number().int(),
  defaultLang: z.string(),
  timezone: z.string(),
  passwordMinLength: z.number().int(),
  codeLength: z.number().int(),
  codeResendSeconds: z.number().int(),
  codeTtlSeconds: z.number().int(),
  minDeposit: z.string(),
  minValidHosting: z.string(),
  depositConfirmations: z.number().int(),
  /** The enabled deposit chains with their USDT contract, minimum and confirmations. */
  chains: z.array(chainInfoSchema),
  withdrawalWindow: z.object({ opens: z.string(), closes: z.string(), workingDaysOnly: z.boolean() }),
  uploadMaxBytes: z.number().int(),
});
export type ConfigData = z.infer<typeof configDataSchema>;

export const uploadDataSchema = z.object({ url: z.string(), id: z.string() });
export type UploadData = z.infer<typeof uploadDataSchema>;
