/**
 * Body codes of CONTRACT.md. Every answer under /api/v1 and /api/admin is HTTP 200 with one of
 * these in `code`; new codes are added only in the 6xx range and documented in docs/protocol.md.
 */
export const BodyCode = {
  ok: 200,
  tradePasswordNotSet: 300,
  invalidInput: 400,
  notLoggedIn: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  locked: 423,
  tooManyRequests: 429,
  envelopeRefused: 460,
  insufficientBalance: 470,
  outsideWithdrawalWindow: 471,
  oneTimeCodeRejected: 472,
  internalError: 500,
  authenticatorNotBound: 4900,
  noWithdrawalMethod: 4901,
  /** Above the daily amount allowed without it, a withdrawal needs an approved real-name verification. */
  realNameRequired: 601,
} as const;

export type BodyCode = (typeof BodyCode)[keyof typeof BodyCode];
