/**
 * The one seam through which a service tells a user that something they wait for happened
 * (docs/protocol.md section 34): a web push to each device they turned notifications on for.
 * Callers call `notify` only after the change it is about committed, never inside its
 * transaction; it neither waits for the push service nor throws (failures are logged), so a push
 * can never fail or slow its cause.
 */

/** What a user is told about; amounts are wire decimals of USDT (`"10.5"`). */
export type PushEvent =
  | { kind: 'deposit_credited'; amount: string }
  | { kind: 'withdrawal_succeeded'; amount: string }
  | { kind: 'withdrawal_failed'; amount: string }
  | { kind: 'feedback_replied' }
  | { kind: 'identity_approved' }
  | { kind: 'identity_rejected' }
  /** Support answered in the customer-service chat (pages/chatroom/room). */
  | { kind: 'support_reply' };

export type PushEventKind = PushEvent['kind'];

export interface UserNotifier {
  /** Pushes `event` to the user's devices in the background; call after commit. Never throws. */
  notify(userId: number, event: PushEvent): void;
}

/** A notifier that tells nobody (services built without push, tests of other features). */
export const silentNotifier: UserNotifier = { notify: () => undefined };
