/**
 * Withdrawal methods (protocol section 15): the user's USDT addresses and bank cards. The list is
 * read from the server and kept in the user's database (`paymentMethods`) so the page shows it
 * offline. Adding and deleting are sent at once, never queued: offline they come back as a
 * transport failure the page shows as "needs a connection".
 */
import {
  paymentListDataSchema,
  paymentMethodSchema,
  type AddBankPaymentParams,
  type AddChainPaymentParams,
} from '../../contract/api/payment.js';
import { z } from 'zod';
import type { Outcome } from '../../sync/ports.js';
import type { SessionStore } from '../session.js';
import {
  DexiePaymentMethodStore,
  type PaymentMethodRecord,
  type PaymentMethodStore,
} from '../../client-db/caches/payment-methods.js';
import type { HandlerDeps } from './deps.js';

type Failure = Exclude<Outcome<unknown>, { kind: 'ok' }>;

/**
 * What `payment-list` came to:
 * - `ok`: the server's list, now stored;
 * - `cached`: no answer came (offline, timeout, 5xx), the stored list is served instead;
 * - a refusal, or a transport failure with no session to read a stored list for.
 */
export type PaymentListResult =
  | { kind: 'ok'; message: string; data: PaymentMethodRecord[] }
  | { kind: 'cached'; data: PaymentMethodRecord[]; failure: Extract<Failure, { kind: 'transport' }> }
  | Failure;

const deletedDataSchema = z.object({ id: z.string() });

export function paymentHandlers(
  { api, session, newIdempotencyKey }: HandlerDeps,
  store: PaymentMethodStore = new DexiePaymentMethodStore(),
  now: () => Date = () => new Date(),
) {
  async function list(): Promise<PaymentListResult> {
    const asked = await session.getSession();
    const outcome = await api.read('/api/v1/user/payment-list', paymentListDataSchema);
    if (outcome.kind === 'ok') {
      const fetchedAt = now().toISOString();
      await storeFor(session, asked?.userId ?? null, (userId) =>
        store.replace(userId, outcome.data.items, fetchedAt),
      );
      return {
        kind: 'ok',
        message: outcome.message,
        data: outcome.data.items.map((item) => ({ ...item, fetchedAt })),
      };
    }
    if (outcome.kind === 'transport' && asked !== null) {
      const cached = await store.all(asked.userId).catch(() => []);
      return { kind: 'cached', data: cached, failure: outcome };
    }
    return outcome;
  }

  /** After a change the server accepted, the stored list follows it (a failure here changes nothing of the answer). */
  async function refreshAfter<T>(outcome: Outcome<T>): Promise<Outcome<T>> {
    if (outcome.kind === 'ok') await list();
    return outcome;
  }

  return {
    /**
     * The user's withdrawal methods, newest first, from /api/v1/user/payment-list, stored for
     * offline use. Never throws: a failure to store still returns the answer.
     */
    'payment-list': list,

    /** Adds a USDT address; sent now with a new Idempotency-Key, then the stored list is refreshed. */
    async 'payment-add-chain'(params: AddChainPaymentParams) {
      return refreshAfter(
        await api.command('/api/v1/user/add-chain-payment', paymentMethodSchema, params, {
          idempotencyKey: newIdempotencyKey(),
        }),
      );
    },

    /** Adds a bank card; sent now with a new Idempotency-Key, then the stored list is refreshed. */
    async 'payment-add-bank'(params: AddBankPaymentParams) {
      return refreshAfter(
        await api.command('/api/v1/user/add-bank-payment', paymentMethodSchema, params, {
          idempotencyKey: newIdempotencyKey(),
        }),
      );
    },

    /** Deletes a method; sent now with a new Idempotency-Key, then the stored list is refreshed. */
    async 'payment-delete'({ id }: { id: string }) {
      return refreshAfter(
        await api.command(
          '/api/v1/user/payment-delete',
          deletedDataSchema,
          { id },
          {
            idempotencyKey: newIdempotencyKey(),
          },
        ),
      );
    },
  };
}

/**
 * Runs `write` only for the user who asked and is still logged in: a logout while the call was
 * out deleted the user's database, which a write would create again. Storage errors are swallowed:
 * the page then shows the answer only while it stays open.
 */
async function storeFor(
  session: SessionStore,
  askedUserId: string | null,
  write: (userId: string) => Promise<void>,
): Promise<void> {
  const current = await session.getSession();
  if (askedUserId === null || current?.userId !== askedUserId) return;
  await write(askedUserId).catch(() => {});
}
