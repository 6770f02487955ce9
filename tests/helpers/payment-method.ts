/**
 * A withdrawal method as the server lists it (`PaymentMethod`), for client and worker tests: a
 * BEP20 address by default, usable a day after it was added; `overrides` change any field.
 */
import type { PaymentMethod } from '../../contract/api/payment.js';

export function paymentMethod(overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    id: '1',
    kind: 'chain',
    currency: 'USDT',
    network: 'BEP20',
    address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
    bankName: null,
    cardNumber: null,
    holderName: null,
    branch: null,
    createdAt: '2026-11-20T08:00:00.000Z',
    usableAt: '2026-11-21T08:00:00.000Z',
    ...overrides,
  };
}
