/** Public reads: configuration, languages, app version, avatars (spec section 7, "Others"). */
import {
  APP_VERSION,
  APP_VERSION_CODE,
  CODE_LENGTH,
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  DEPOSIT_CONFIRMATIONS,
  MIN_DEPOSIT_USDT,
  MIN_VALID_HOSTING_USD,
  PASSWORD_MIN_LENGTH,
  PROTOCOL_VERSION,
  UPLOAD_MAX_BYTES,
  WITHDRAWAL_WINDOW,
  AVATAR_URLS,
} from '../../contract/constants.js';
import type { ConfigData, VersionData } from '../../contract/api/common.js';
import type { ChainInfo } from '../../contract/api/recharge.js';
import { DEFAULT_LOCALE, LANGUAGES } from '../i18n/i18n.js';

/** The avatars a user may choose (files under public/avatars). */
export const AVATARS: readonly string[] = AVATAR_URLS;

export class CommonService {
  /** `hotVersionCode` reads the hot version of the web build being served. */
  constructor(
    private readonly timezone: string,
    /** The enabled deposit chains as users must see them (contract, minimum, confirmations). */
    private readonly chains: () => ChainInfo[],
    private readonly hotVersionCode: () => Promise<number> = async () => APP_VERSION_CODE,
  ) {}

  config(): ConfigData {
    return {
      appName: 'Coffer',
      version: APP_VERSION,
      versionCode: APP_VERSION_CODE,
      protocolVersion: PROTOCOL_VERSION,
      defaultLang: DEFAULT_LOCALE,
      timezone: this.timezone,
      passwordMinLength: PASSWORD_MIN_LENGTH,
      codeLength: CODE_LENGTH,
      codeResendSeconds: CODE_RESEND_SECONDS,
      codeTtlSeconds: CODE_TTL_SECONDS,
      minDeposit: MIN_DEPOSIT_USDT,
      minValidHosting: MIN_VALID_HOSTING_USD,
      depositConfirmations: DEPOSIT_CONFIRMATIONS,
      chains: this.chains(),
      withdrawalWindow: { ...WITHDRAWAL_WINDOW, workingDaysOnly: true },
      uploadMaxBytes: UPLOAD_MAX_BYTES,
    };
  }

  languages() {
    return {
      items: LANGUAGES.map((language) => ({ ...language, default: language.locale === DEFAULT_LOCALE })),
    };
  }

  /**
   * The app update config of spec section 4: the full package is this server's app version (the
   * download page); the hot package is the web build it serves, at `/`.
   */
  async version(): Promise<VersionData> {
    return {
      version: APP_VERSION,
      version_code: APP_VERSION_CODE,
      hot_version_code: await this.hotVersionCode(),
      package_url: '/#/pages/download/download',
      hot_package_url: '/',
    };
  }

  avatars() {
    return { items: [...AVATARS] };
  }
}
