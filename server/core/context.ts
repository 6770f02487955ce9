/**
 * Who is asking, and what a service knows about the command it serves: below the HTTP layer, so
 * services, the ledger and jobs take it without knowing HTTP.
 */
import type { Locale } from '../i18n/i18n.js';
import type { BusinessError } from './errors.js';

export type Caller =
  | { kind: 'anonymous' }
  /** `frozen`: an operator froze the user; reads go on, money commands are refused (403). */
  | { kind: 'user'; userId: number; tokenHash: string; frozen: boolean }
  /**
   * `setupRequired`: the operator has a one-time password or no authenticator yet (only the
   * setup routes answer); `elevatedUntil`: the session's step-up, for money and access actions.
   */
  | {
      kind: 'operator';
      operatorId: number;
      role: string;
      tokenHash: string;
      setupRequired: boolean;
      elevatedUntil: Date | null;
    }
  /**
   * `npm run admin`: whoever holds the server's shell, allowed everything an operator of any role
   * is; audited as `cli`, or `cli:<name>` when the command names who runs it (`--as NAME`).
   */
  | { kind: 'cli'; name: string | null };

export interface RequestContext {
  locale: Locale;
  /** The client's address (the outer request's, for calls inside an envelope). */
  ip: string;
  /** The client's User-Agent header (the outer request's inside an envelope); absent outside HTTP. */
  userAgent?: string | undefined;
  requestId: string;
  caller: Caller;
  /** Present on commands sent with an Idempotency-Key. */
  idempotency: { key: string; requestHash: string } | null;
  /** Renders this request's success answer for `data` (used to store a command's answer). */
  renderSuccess(data: unknown): string;
  /** Renders a business error answer in this request's language. */
  renderError(error: BusinessError): string;
  /** Set by the command runner: the exact text to send (stored with the effect). */
  answerText: string | undefined;
}

/** The user id of a logged-in caller; services call it after the route checked the token. */
export function userIdOf(ctx: RequestContext): number {
  if (ctx.caller.kind !== 'user') throw new Error('route requires a user token');
  return ctx.caller.userId;
}

/** The owner of a command's idempotency key: the user, the operator, the CLI, or one shared anonymous owner. */
export function idempotencyOwnerOf(caller: Caller): string {
  switch (caller.kind) {
    case 'user':
      return `u${caller.userId}`;
    case 'operator':
      return `o${caller.operatorId}`;
    case 'cli':
      return 'cli';
    case 'anonymous':
      return 'anonymous';
  }
}
