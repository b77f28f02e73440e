import { describe, expect, it } from 'vitest';
import { isSteady, runCapSec, warmupSliceSec } from '../src/bench/run-length.ts';

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
    // Ten requests on each connection: a 50 req/s cell at 10 connections gets 1 s slices, fib at 400 req/s 0.25 s.
    expect(warmupSliceSec(50, 10)).toBe(1);
    expect(warmupSliceSec(400, 10)).toBe(0.25);
    expect(warmupSliceSec(40_000, 10)).toBe(0.2);
  });

  it('are steady when the last two rates agree within 10 %', () => {
    expect(isSteady([12_000, 25_000, 26_000])).toBe(true);
    expect(isSteady([12_000, 25_000])).toBe(false);
    expect(isSteady([25_000])).toBe(false);
    expect(isSteady([0, 0])).toBe(false);
  });
});

describe("isSteady with the slices' lengths (counting error)", () => {
  it('takes one request a slice as counting error, not as a JIT still settling', () => {
    // A bcrypt cell: 6 then 7 requests in 1 s slices differ by 14 %, one request.
    expect(isSteady([6, 7])).toBe(false);
    expect(isSteady([6, 7], [1, 1])).toBe(true);
    // Two requests' worth in 1 s slices (5 against 8, 38 %) is still a change.
    expect(isSteady([5, 8], [1, 1])).toBe(false);
  });

  it('changes nothing for fast cells, where one request is far below the tolerance', () => {
    expect(isSteady([20_000, 24_000], [0.2, 0.2])).toBe(false);
    expect(isSteady([20_000, 21_000], [0.2, 0.2])).toBe(true);
  });
});
