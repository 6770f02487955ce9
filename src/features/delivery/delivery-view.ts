/**
 * What a delivery (trade settlement) record shows: the profit or loss with its sign (colour is
 * never the only signal), the leverage as "1:100", the direction's locale key. Pure; it imports
 * only types, so neither zod nor IndexedDB.
 */
import type { DeliveryDirection } from '../../../contract/api/delivery.js';

export type Outcome = 'gain' | 'loss' | 'flat';

/** A signed USDT amount as the list shows it: "+86.5", "-2118.000001" or "0", and which it is. */
export function profitView(profitLoss: string): { text: string; outcome: Outcome } {
  if (profitLoss.startsWith('-')) return { text: profitLoss, outcome: 'loss' };
  if (/^[0.]+$/.test(profitLoss)) return { text: '0', outcome: 'flat' };
  return { text: `+${profitLoss}`, outcome: 'gain' };
}

/** The leverage as traders write it: 100 -> "1:100". */
export function leverageLabel(leverage: number): string {
  return `1:${leverage}`;
}

/** The locale key naming a direction. */
export function directionKey(direction: DeliveryDirection): `delivery.direction_${DeliveryDirection}` {
  return `delivery.direction_${direction}`;
}
