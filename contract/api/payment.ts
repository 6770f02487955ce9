/**
 * Withdrawal methods (spec section 3 "Withdrawal method", section 5's required inputs):
 * /api/v1/user/add-chain-payment, add-bank-payment, payment-list, payment-delete. A method is
 * usable for withdrawals from `usableAt` (the cooldown after adding it).
 */
import { z } from 'zod';
import { choiceOf, idParamsSchema, isoTimeSchema, listOf, text } from '../schema.js';
import { chainSchema } from './recharge.js';

export const addChainPaymentParamsSchema = z.object({
  currency: choiceOf(['USDT']),
  network: chainSchema,
  /** An EVM address (EIP-55 checked when mixed-case) on BEP20, a base58check TRON address on TRC20. */
  address: text({ max: 64 }),
});
export type AddChainPaymentParams = z.infer<typeof addChainPaymentParamsSchema>;

export const addBankPaymentParamsSchema = z.object({
  bankName: text({ max: 64 }),
  /** Digits only (spaces are dropped), 12 to 19 of them, Luhn-checked. */
  cardNumber: text({ max: 40 }),
  holderName: text({ max: 64 }),
  branch: text({ max: 128 }),
});
export type AddBankPaymentParams = z.infer<typeof addBankPaymentParamsSchema>;

export const paymentIdParamsSchema = idParamsSchema;

/** A method as its owner sees it: a card shows its last four digits only. */
export const paymentMethodSchema = z.object({
  id: z.string(),
  kind: z.enum(['chain', 'bank']),
  currency: z.string().nullable(),
  network: z.string().nullable(),
  address: z.string().nullable(),
  bankName: z.string().nullable(),
  /** `•••• 1234`. */
  cardNumber: z.string().nullable(),
  holderName: z.string().nullable(),
  branch: z.string().nullable(),
  createdAt: isoTimeSchema,
  /** Withdrawals may use it from this time (the cooldown after adding it). */
  usableAt: isoTimeSchema,
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentListDataSchema = listOf(paymentMethodSchema);
export type PaymentListData = z.infer<typeof paymentListDataSchema>;
