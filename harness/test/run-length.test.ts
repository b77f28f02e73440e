import { describe, expect, it } from 'vitest';
import { isSteady, runCapSec, warmupSliceSec } from '../src/run/run-length.ts';

describe('runCapSec', () => {
  it('lets a run stretch to 4x --duration, and at least 3 s', () => {
    expect(runCapSec(0.5)).toBe(3);
    expect(runCapSec(2)).toBe(8);
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
