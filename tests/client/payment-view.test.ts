/** The withdrawal methods page's checks before sending, and how a method is named. */
import { describe, expect, test } from 'vitest';
import { paymentMethod } from '../helpers/payment-method.js';
import {
  cardDigits,
  checkAddress,
  checkBank,
  inCooldown,
  methodName,
} from '../../src/features/payment/payment-view.js';

const method = paymentMethod;

describe('the receiving address', () => {
  test('is required', () => {
    expect(checkAddress('BEP20', '  ')).toBe('required');
  });

  test('on BEP20 is 0x and 40 hex digits (the checksum is the server’s)', () => {
    expect(checkAddress('BEP20', '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23')).toBeNull();
    expect(checkAddress('BEP20', '0x2c7536E3605D9C16a7a3D7b1898e529396a65c2')).toBe('evm_address');
    expect(checkAddress('BEP20', 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')).toBe('evm_address');
  });

  test('on TRC20 starts with T and has 34 base58 characters', () => {
    expect(checkAddress('TRC20', 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')).toBeNull();
    expect(checkAddress('TRC20', 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeB')).toBe('tron_address');
    expect(checkAddress('TRC20', '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23')).toBe('tron_address');
  });
});

describe('the bank card', () => {
  const card = { bankName: 'Bank', cardNumber: '4111 1111 1111 1111', holderName: 'A B', branch: 'Main' };

  test('with every field filled and 12 to 19 digits may be sent', () => {
    expect(checkBank(card)).toEqual({});
    expect(cardDigits(card.cardNumber)).toBe('4111111111111111');
  });

  test('every field is required', () => {
    expect(checkBank({ bankName: '', cardNumber: '', holderName: ' ', branch: '' })).toEqual({
      bankName: 'required',
      cardNumber: 'required',
      holderName: 'required',
      branch: 'required',
    });
  });

  test('a card number of letters or of 11 or 20 digits is refused', () => {
    expect(checkBank({ ...card, cardNumber: '4111 abcd 1111' }).cardNumber).toBe('card_digits');
    expect(checkBank({ ...card, cardNumber: '41111111111' }).cardNumber).toBe('card_digits');
    expect(checkBank({ ...card, cardNumber: '41111111111111111111' }).cardNumber).toBe('card_digits');
  });
});

describe('a method', () => {
  test('is named by network and short address, or by bank and masked number', () => {
    expect(methodName(method())).toBe('BEP20 0x2c75…5c23');
    expect(
      methodName(
        method({ kind: 'bank', network: null, address: null, bankName: 'Bank', cardNumber: '•••• 1234' }),
      ),
    ).toBe('Bank •••• 1234');
  });

  test('is in its cooldown until usableAt', () => {
    expect(inCooldown(method(), Date.parse('2026-11-21T07:59:59Z'))).toBe(true);
    expect(inCooldown(method(), Date.parse('2026-11-21T08:00:00Z'))).toBe(false);
  });
});
