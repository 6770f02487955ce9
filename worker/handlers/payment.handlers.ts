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
import {
  DexiePaymentMethodStore,
  type PaymentMethodRecord,
  type PaymentMethodStore,
} from '../../client-db/caches/payment-methods.js';
import { readCached, type CachedResult } from './cached-read.js';
import { commandNow, type HandlerDeps } from './deps.js';

const deletedDataSchema = z.object({ id: z.string() });

export function paymentHandlers(
  deps: HandlerDeps,
  store: PaymentMethodStore = new DexiePaymentMethodStore(),
  now: () => Date = () => new Date(),
) {
  const { api, session } = deps;
  const command = commandNow(deps);
  /** Offline, the stored list is served even when it is empty or cannot be read (then empty). */
  async function list(): Promise<CachedResult<PaymentMethodRecord[]>> {
    return readCached(session, now, () => api.read('/api/v1/user/payment-list', paymentListDataSchema), {
      record: ({ items }, fetchedAt): PaymentMethodRecord[] => items.map((item) => ({ ...item, fetchedAt })),
      keep: (userId, records) => store.replace(userId, records),
      kept: (userId) => store.all(userId).catch(() => []),
    });
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
      return refreshAfter(await command('/api/v1/user/add-chain-payment', paymentMethodSchema, params));
    },

    /** Adds a bank card; sent now with a new Idempotency-Key, then the stored list is refreshed. */
    async 'payment-add-bank'(params: AddBankPaymentParams) {
      return refreshAfter(await command('/api/v1/user/add-bank-payment', paymentMethodSchema, params));
    },

    /** Deletes a method; sent now with a new Idempotency-Key, then the stored list is refreshed. */
    async 'payment-delete'({ id }: { id: string }) {
      return refreshAfter(await command('/api/v1/user/payment-delete', deletedDataSchema, { id }));
    },
  };
}
