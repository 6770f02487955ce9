/** Business constants of the product spec (section 9) and CONTRACT.md, shared by client and server. */

export const APP_VERSION = '1.0.20';
export const APP_VERSION_CODE = 10020;
/** The web build's release file in dist/ and the shell's meta tag with its hot version (contract/release.ts). */
export const RELEASE_FILE = 'version.json';
export const HOT_VERSION_META = 'coffer-hot-version';

/**
 * The wire protocol's version, sent as `X-Coffer-Protocol`.
 * History: 1 - first contract (answers, envelope, exactly-once commands).
 */
export const PROTOCOL_VERSION = 1;

export const PASSWORD_MIN_LENGTH = 6;
/** Longer passwords are refused before hashing: a 200 KB password must not cost a hash. */
export const PASSWORD_MAX_LENGTH = 128;
export const CODE_LENGTH = 6;
export const CODE_RESEND_SECONDS = 60;
export const CODE_TTL_SECONDS = 600;
export const CODE_MAX_WRONG_TRIES = 5;

export const EMAIL_MAX_LENGTH = 254;
export const NICKNAME_MAX_LENGTH = 32;
export const TEXTAREA_MAX_LENGTH = 140;
export const INVITE_CODE_MAX_LENGTH = 32;

export const ENVELOPE_MAX_AGE_SECONDS = 300;
export const REQUEST_TIMEOUT_MS = 60_000;
export const SPECIAL_CODE_REDIRECT_MS = 1_500;
export const REQUEST_DEBOUNCE_MS = 500;
export const TOAST_MS = 2_000;

export const IDEMPOTENCY_KEY_TTL_DAYS = 7;
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** A user may open at most this many sub-accounts; their names are 1 to 20 characters. */
export const SUB_ACCOUNTS_MAX = 10;
export const SUB_ACCOUNT_NAME_MAX_LENGTH = 20;
/** The outbox's life of a money command that carries no one-time code or seen price (CONTRACT.md). */
export const MONEY_COMMAND_EXPIRY_MS = 60 * 60 * 1000;
/**
 * The outbox's life of a command that carries a one-time code or a price the user saw (a
 * withdrawal, an exchange): sent only while online, expired after a minute (CONTRACT.md).
 */
export const ONLINE_COMMAND_EXPIRY_MS = 60 * 1000;

export const MIN_DEPOSIT_USDT = '1';
export const MIN_VALID_HOSTING_USD = '500';
export const DEPOSIT_CONFIRMATIONS = 3;
export const WITHDRAWAL_WINDOW = { opens: '09:00', closes: '21:00' } as const;
export const CHAINS = ['BEP20', 'TRC20'] as const;
export type Chain = (typeof CHAINS)[number];

/** The avatars a user may choose (files under public/avatars), as common/avatarList lists them. */
export const AVATAR_URLS: readonly string[] = Array.from(
  { length: 8 },
  (_, i) => `/avatars/${String(i + 1).padStart(2, '0')}.svg`,
);

/** Withdrawals wait this long after a change (not the first binding) of a password or the authenticator. */
export const SECURITY_CHANGE_LOCK_HOURS = 24;

/** A passkey's name: 1 to 40 characters (docs/protocol.md section 33). */
export const PASSKEY_NAME_MAX_LENGTH = 40;
