/**
 * The team's rules without a database (contract/team.ts): valid hosting at exactly 500,
 * small-area performance from the areas, the level at exact thresholds, what the next level still
 * needs, and how a nickname made of an e-mail address is masked.
 */
import { describe, expect, test } from 'vitest';
import { minor, parseMoney } from '../../contract/money.js';
import {
  levelFor,
  shortfallOf,
  smallAreaOf,
  validHostingOf,
  type LevelRequirements,
} from '../../contract/team.js';
import { maskNickname } from '../../server/services/team.service.js';

const usdt = (text: string) => parseMoney(text);
const LEVELS: LevelRequirements[] = [
  { level: 1, ownHosting: usdt('500'), directValidMembers: 1, smallAreaPerformance: usdt('0') },
  { level: 2, ownHosting: usdt('1000'), directValidMembers: 3, smallAreaPerformance: usdt('10000') },
  { level: 3, ownHosting: usdt('3000'), directValidMembers: 5, smallAreaPerformance: usdt('50000') },
];
const figures = (own: string, direct: number, small: string) => ({
  ownPerformance: usdt(own),
  directValidMembers: direct,
  smallAreaPerformance: usdt(small),
});

describe('valid hosting', () => {
  test('an account holding 499.99 in hosting has no valid hosting; 500.00 is valid in full', () => {
    expect(validHostingOf(usdt('499.99'))).toBe(0n);
    expect(validHostingOf(usdt('499.999999'))).toBe(0n);
    expect(validHostingOf(usdt('500'))).toBe(usdt('500'));
    expect(validHostingOf(usdt('1234.56'))).toBe(usdt('1234.56'));
  });
});

describe('small-area performance', () => {
  test('is the areas’ sum without the largest one', () => {
    expect(smallAreaOf([usdt('3300'), usdt('0')])).toBe(0n);
    expect(smallAreaOf([usdt('5000'), usdt('1200'), usdt('800')])).toBe(usdt('2000'));
  });
  test('two largest areas that tie: only one is left out', () => {
    expect(smallAreaOf([usdt('1000'), usdt('1000'), usdt('1')])).toBe(usdt('1001'));
  });
  test('no area or a single one makes no small area', () => {
    expect(smallAreaOf([])).toBe(0n);
    expect(smallAreaOf([usdt('99999')])).toBe(0n);
  });
});

describe('levels', () => {
  test('the level is the highest whose requirements are all met; own performance 499.99 is level 0, 500 level 1', () => {
    expect(levelFor(figures('0', 1, '0'), LEVELS)).toBe(0);
    expect(levelFor(figures('499.99', 1, '0'), LEVELS)).toBe(0);
    expect(levelFor(figures('500', 1, '0'), LEVELS)).toBe(1);
    expect(levelFor(figures('500', 0, '0'), LEVELS)).toBe(0);
  });
  test('small-area performance 9999.99 stays below a level asking 10000; 10000.00 reaches it', () => {
    expect(levelFor(figures('1000', 3, '9999.99'), LEVELS)).toBe(1);
    expect(levelFor(figures('1000', 3, '10000'), LEVELS)).toBe(2);
    expect(levelFor(figures('999.99', 3, '10000'), LEVELS)).toBe(1);
  });
  test('a higher level met while a lower one is not still counts (the highest met wins)', () => {
    const odd: LevelRequirements[] = [
      { level: 1, ownHosting: usdt('500'), directValidMembers: 5, smallAreaPerformance: usdt('0') },
      { level: 2, ownHosting: usdt('5000'), directValidMembers: 0, smallAreaPerformance: usdt('0') },
    ];
    expect(levelFor(figures('5000', 0, '0'), odd)).toBe(2);
  });
  test('what the next level still needs: 0 where a requirement is met', () => {
    const level2 = LEVELS[1];
    if (!level2) throw new Error('no level 2');
    expect(shortfallOf(figures('700', 4, '2500'), level2)).toEqual({
      ownHosting: minor(usdt('300')),
      directValidMembers: 0,
      smallAreaPerformance: minor(usdt('7500')),
    });
  });
});

describe('nicknames', () => {
  test('a nickname still made of the e-mail address is masked to its first two characters', () => {
    expect(maskNickname('alice.smith', true)).toBe('al***');
    expect(maskNickname('jo', true)).toBe('j***');
    expect(maskNickname('李雷同学', true)).toBe('李雷***');
    expect(maskNickname('Lucky Star', false)).toBe('Lucky Star');
  });
});
