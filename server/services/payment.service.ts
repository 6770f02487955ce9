/**
 * Withdrawal methods: USDT addresses (checked as real addresses of their network, EIP-55 when
 * mixed-case, TRON base58check) and bank cards (digits, Luhn-checked). A new method is usable for
 * withdrawals only after the cooldown (an address whitelist, as Binance keeps one).
 */
import type {
  AddBankPaymentParams,
  AddChainPaymentParams,
  PaymentListData,
  PaymentMethod,
} from '../../contract/api/payment.js';
import { BodyCode } from '../../contract/codes.js';
import { isEvmAddress, isTronAddress } from '../chains/addresses.js';
import { userIdOf, type RequestContext } from '../core/context.js';
import { BusinessError, invalidField, notFound } from '../core/errors.js';
import { rowIdOf } from '../core/params.js';
import {
  deletePaymentMethod,
  insertPaymentMethod,
  paymentMethodsOf,
  type PaymentMethodRow,
} from '../repositories/payment.repository.js';
import { CoreService, type ServiceCore } from './service-core.js';

const HOUR_MS = 3_600_000;

/** True for 12 to 19 digits passing the Luhn check (ISO/IEC 7812). Pure. */
export function isCardNumber(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function toPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  return {
    id: String(row.id),
    kind: row.kind === 'bank' ? 'bank' : 'chain',
    currency: row.currency,
    network: row.network,
    address: row.address,
    bankName: row.bankName,
    cardNumber: row.cardNumber === null ? null : `•••• ${row.cardNumber.slice(-4)}`,
    holderName: row.holderName,
    branch: row.branch,
    createdAt: row.createdAt.toISOString(),
    usableAt: row.usableAt.toISOString(),
  };
}

const alreadySaved = () => new BusinessError(BodyCode.conflict, 'server.payment_method_exists');

export class PaymentService extends CoreService {
  constructor(
    core: ServiceCore,
    private readonly cooldownHours: number,
  ) {
    super(core);
  }

  async addChain(ctx: RequestContext, params: AddChainPaymentParams): Promise<PaymentMethod> {
    const valid = params.network === 'BEP20' ? isEvmAddress(params.address) : isTronAddress(params.address);
    if (!valid) throw invalidField('address', 'server.address_invalid', { network: params.network });
    return this.add(ctx, {
      kind: 'chain',
      currency: params.currency,
      network: params.network,
      address: params.address,
    });
  }

  async addBank(ctx: RequestContext, params: AddBankPaymentParams): Promise<PaymentMethod> {
    const cardNumber = params.cardNumber.replace(/\s+/g, '');
    if (!isCardNumber(cardNumber)) throw invalidField('cardNumber', 'server.card_invalid');
    return this.add(ctx, {
      kind: 'bank',
      bankName: params.bankName,
      cardNumber,
      holderName: params.holderName,
      branch: params.branch,
    });
  }

  async list(ctx: RequestContext): Promise<PaymentListData> {
    return { items: (await paymentMethodsOf(this.db, userIdOf(ctx))).map(toPaymentMethod) };
  }

  async delete(ctx: RequestContext, params: { id: string }): Promise<{ id: string }> {
    return this.commands.run(ctx, async (tx) => {
      const id = rowIdOf(params.id);
      if (id === null || !(await deletePaymentMethod(tx, userIdOf(ctx), id, this.clock.now())))
        throw notFound();
      return { id: params.id };
    });
  }

  private async add(
    ctx: RequestContext,
    method: Pick<PaymentMethodRow, 'kind'> & Partial<PaymentMethodRow>,
  ): Promise<PaymentMethod> {
    return this.commands.run(ctx, async (tx) => {
      const now = this.clock.now();
      const saved = await insertPaymentMethod(tx, {
        ...method,
        userId: userIdOf(ctx),
        createdAt: now,
        usableAt: new Date(now.getTime() + this.cooldownHours * HOUR_MS),
      });
      if (!saved) throw alreadySaved();
      return toPaymentMethod(saved);
    });
  }
}
