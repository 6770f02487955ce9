/** Pure view logic of the recharge page: status labels, the shortened hash, amounts, and the copy messages of spec section 8. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { DEPOSIT_STATUSES, type DepositStatus } from '../../contract/api/recharge.js';
import { CHAINS } from '../../contract/constants.js';
import { shortHash } from '../../src/ui/chain-text.js';
import { copyText } from '../../src/ui/copy.js';
import {
  CHAIN_LIST,
  isChain,
  showsConfirmations,
  statusLabel,
  statusTone,
} from '../../src/features/recharge/recharge-view.js';

const toasts: string[] = [];
vi.mock('../../src/ui/toast.js', () => ({ toast: (content: string) => toasts.push(content) }));

const BEP20 = { confirmations: 3, finality: 15 };

function deposit(status: DepositStatus, confirmations: number) {
  return { status, confirmations };
}

describe('a deposit status as the page names it', () => {
  test('confirming shows the confirmations so far out of the chain’s required ones: "Confirming 1/3"', () => {
    expect(statusLabel(deposit('confirming', 1), BEP20, 3)).toEqual({
      key: 'recharge.status_confirming',
      values: { count: 1, required: 3 },
    });
  });

  test('confirming uses the figure of the chain’s answer, not the fallback', () => {
    expect(statusLabel(deposit('confirming', 2), { confirmations: 5, finality: 20 }, 3).values).toEqual({
      count: 2,
      required: 5,
    });
  });

  test('without the chain’s answer on this device, confirming counts to the fallback (the spec’s 3)', () => {
    expect(statusLabel(deposit('confirming', 0), undefined, 3).values).toEqual({ count: 0, required: 3 });
  });

  test('the count never reads past the required confirmations', () => {
    expect(statusLabel(deposit('confirming', 7), BEP20, 3).values).toEqual({ count: 3, required: 3 });
  });

  test('held says after how many confirmations it becomes usable: the chain’s finality', () => {
    expect(statusLabel(deposit('held', 4), BEP20, 3)).toEqual({
      key: 'recharge.status_held',
      values: { count: 15 },
    });
  });

  test('held without the chain’s finality known says so without a number', () => {
    expect(statusLabel(deposit('held', 4), undefined, 3).key).toBe('recharge.status_held_unknown');
  });

  test.each([
    ['credited', 'recharge.status_credited', 'done'],
    ['below_minimum', 'recharge.status_below_minimum', 'refused'],
    ['reversed', 'recharge.status_reversed', 'refused'],
  ] as const)('%s is labelled %s', (status, key, tone) => {
    expect(statusLabel(deposit(status, 15), BEP20, 3).key).toBe(key);
    expect(statusTone(status)).toBe(tone);
  });

  test('a deposit below the minimum shows no confirmations (they count towards nothing)', () => {
    expect(DEPOSIT_STATUSES.filter((status) => !showsConfirmations(status))).toEqual(['below_minimum']);
  });

  test('every status of the contract has a label and a tone', () => {
    for (const status of DEPOSIT_STATUSES) {
      expect(statusLabel(deposit(status, 1), BEP20, 3).key).toMatch(/^recharge\.status_/);
      expect(['pending', 'done', 'refused']).toContain(statusTone(status));
    }
  });
});

describe('chains, hashes and amounts', () => {
  test('the picker offers the contract’s chains, BEP20 then TRC20', () => {
    expect(CHAIN_LIST).toEqual(CHAINS);
    expect(CHAIN_LIST).toEqual(['BEP20', 'TRC20']);
    expect(isChain('TRC20')).toBe(true);
    expect(isChain('ERC20')).toBe(false);
  });

  test('a transaction hash keeps its start and end around an ellipsis', () => {
    const evm = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
    expect(shortHash(evm)).toBe('0x5c504e…b22060');
    const tron = '7c2d4206c03a883dd9066d920ef0e2d2b6c9b4e9bc9a6b9c4a9b8a7c6d5e4f3a';
    expect(shortHash(tron)).toBe('7c2d42…5e4f3a');
    expect(shortHash('0xabc')).toBe('0xabc');
  });
});

describe('copying an address (spec section 8 messages)', () => {
  const messages = { empty: 'empty', unsupported: 'unsupported', failed: 'failed', copied: 'copied' };

  beforeEach(() => {
    toasts.length = 0;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test('no address yet: "content to copy cannot be empty", nothing is written', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    expect(await copyText('', messages)).toBe(false);
    expect(toasts).toEqual(['empty']);
    expect(writeText).not.toHaveBeenCalled();
  });

  test('a browser without the Clipboard API: "copy not supported by browser"', async () => {
    vi.stubGlobal('navigator', {});
    expect(await copyText('0xabc', messages)).toBe(false);
    expect(toasts).toEqual(['unsupported']);
  });

  test('the browser refuses the write: "copy failed"', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: async () => Promise.reject(new Error('denied')) } });
    expect(await copyText('0xabc', messages)).toBe(false);
    expect(toasts).toEqual(['failed']);
  });

  test('written: the success toast, with the address itself on the clipboard', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    expect(await copyText('0xabc', messages)).toBe(true);
    expect(writeText).toHaveBeenCalledWith('0xabc');
    expect(toasts).toEqual(['copied']);
  });
});
