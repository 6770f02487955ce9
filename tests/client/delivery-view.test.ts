/** Pure view logic of the delivery records page: the signed profit or loss, the leverage, the direction's name. */
import { describe, expect, test } from 'vitest';
import { directionKey, leverageLabel, profitView } from '../../src/features/delivery/delivery-view.js';

describe('a published trade as the delivery page shows it', () => {
  test('a profit carries its plus sign and a loss its minus sign, so colour is never the only signal', () => {
    expect(profitView('86.5')).toEqual({ text: '+86.5', outcome: 'gain' });
    expect(profitView('-2118.000001')).toEqual({ text: '-2118.000001', outcome: 'loss' });
    expect(profitView('0.000001')).toEqual({ text: '+0.000001', outcome: 'gain' });
  });

  test('a trade that broke even shows 0, neither gain nor loss', () => {
    expect(profitView('0')).toEqual({ text: '0', outcome: 'flat' });
  });

  test('the leverage reads as traders write it: 100 is 1:100', () => {
    expect(leverageLabel(100)).toBe('1:100');
    expect(leverageLabel(1)).toBe('1:1');
  });

  test('each direction has its own locale key (buy, sell)', () => {
    expect(directionKey('buy')).toBe('delivery.direction_buy');
    expect(directionKey('sell')).toBe('delivery.direction_sell');
  });
});
