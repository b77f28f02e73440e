import { describe, expect, it } from 'vitest';
import { DEFAULT_MIN_REQUESTS, isSteady, runLength, warmupSliceSec } from '../src/run/run-length.ts';

describe('runLength', () => {
  it('keeps --duration when it holds the minimum at the warm-up rate', () => {
    expect(runLength(0.5, 20, 20_000)).toEqual({ durationSec: 0.5, capped: false });
  });

  it('lengthens a heavy cell to hold the minimum, with a tenth more', () => {
    // bcrypt cost 10 serially, about 15 hashes a second: 0.5 s would hold 7.
    expect(runLength(0.5, DEFAULT_MIN_REQUESTS, 15)).toEqual({ durationSec: 1.47, capped: false });
  });

  it('stops at the cap and says so', () => {
    expect(runLength(0.5, 20, 2)).toEqual({ durationSec: 3, capped: true });
    expect(runLength(2, 20, 1)).toEqual({ durationSec: 8, capped: true });
  });

  it('has nothing to predict from without a warm-up, and no minimum when it is 0', () => {
    expect(runLength(0.5, 20, undefined)).toEqual({ durationSec: 0.5, capped: false });
    expect(runLength(0.5, 0, 1)).toEqual({ durationSec: 0.5, capped: false });
  });
});

describe('warm-up slices', () => {
  it('hold about ten requests, from 0.2 to 1 s', () => {
    expect(warmupSliceSec(40_000)).toBe(0.2);
    expect(warmupSliceSec(20)).toBe(0.5);
    expect(warmupSliceSec(3)).toBe(1);
    expect(warmupSliceSec(0)).toBe(1);
  });

  it('are steady when the last two rates agree within 10 %', () => {
    expect(isSteady([12_000, 25_000, 26_000])).toBe(true);
    expect(isSteady([12_000, 25_000])).toBe(false);
    expect(isSteady([25_000])).toBe(false);
    expect(isSteady([0, 0])).toBe(false);
  });
});
