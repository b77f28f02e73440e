/** How a mode ratio may be read, on fixed figures: a difference, no difference, no interval, or inconclusive with why. */
import { describe, expect, it } from 'vitest';
import { cellsDoubt, ratioVerdict, WIDEST_READABLE } from '../src/present/ratio-verdict.ts';

describe('ratioVerdict', () => {
  it('calls a narrow interval holding 1 no difference, and one apart from 1 more or less', () => {
    expect(ratioVerdict(1.02, [0.95, 1.09])).toEqual({ reading: 'same' });
    expect(ratioVerdict(1.8, [1.7, 1.9])).toEqual({ reading: 'more' });
    expect(ratioVerdict(0.5, [0.45, 0.55])).toEqual({ reading: 'less' });
    expect(ratioVerdict(0.013, undefined)).toEqual({ reading: 'no-interval' });
  });

  it('calls an interval wider than 1.5x end to end inconclusive where it holds 1, and wide (a direction, no size) where it does not', () => {
    expect(ratioVerdict(1.48, [0.91, 2.43])).toEqual({ reading: 'inconclusive', why: `interval over ${WIDEST_READABLE}x end to end` });
    expect(ratioVerdict(2.2, [1.4, 3.45])).toEqual({ reading: 'wide', direction: 'more' });
    expect(ratioVerdict(0.5, [0.3, 0.8])).toEqual({ reading: 'wide', direction: 'less' });
    expect(ratioVerdict(1.25, [1.05, 1.55]).reading).toBe('more');
  });

  it('calls a ratio from a shared-host, invalid or failed cell inconclusive, naming the cell', () => {
    const ok = { mode: 'sync', status: 'ok', flags: [] } as const;
    const shared = { mode: 'async', status: 'ok', flags: ['shared-host'] } as const;
    const failed = { mode: 'worker', status: 'failed', flags: [] } as const;
    expect(cellsDoubt([ok, { mode: 'async', status: 'ok', flags: ['unstable'] }])).toBeUndefined();
    expect(cellsDoubt([shared, ok])).toBe('the host was shared during async');
    expect(cellsDoubt([failed, shared])).toBe('the worker server failed, the host was shared during async');
    expect(cellsDoubt([{ mode: 'async', status: 'invalid', flags: [] }])).toBe('async gave invalid answers');
    expect(ratioVerdict(1.01, [0.99, 1.03], cellsDoubt([shared, ok]))).toEqual({
      reading: 'inconclusive',
      why: 'the host was shared during async',
      doubt: true,
    });
  });
});
