import { describe, expect, it } from 'vitest';
import { isSteady, runCapSec, warmupSliceSec, warmupWatch } from '../src/bench/run-length.ts';

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

describe('warmupWatch: one load cut into slices', () => {
  /** Looks at the load every 20 ms, as runLoad does, serving `rate(t)` requests a second; the time it stops, or undefined. */
  function watchLoad(rate: (sec: number) => number, options: Parameters<typeof warmupWatch>[0]) {
    const watch = warmupWatch(options);
    let served = 0;
    for (let t = 0.02; t <= options.maxSec + 1e-9; t += 0.02) {
      served += rate(t) * 0.02;
      if (watch.observe(Math.floor(served), t)) return { stoppedAt: t, watch };
    }
    return { stoppedAt: undefined, watch };
  }

  it('stops a steady bcrypt cell after its first 1 s slice, not at its cap', () => {
    // 14 hashes a second from the start: 0.5 s, then one slice of 1 s that agrees.
    const { stoppedAt, watch } = watchLoad(() => 14, { minSec: 0.5, maxSec: 3, connections: 10, requests: 10 });
    expect(stoppedAt).toBeCloseTo(1.5, 1);
    expect(watch.slices.map((s) => Math.round(s * 10) / 10)).toEqual([0.5, 1]);
  });

  it('goes on while the rate still climbs, in slices sized from the last rate', () => {
    // A JIT ramp from 100 to 1000 req/s over the first 1.5 s, then flat.
    const { stoppedAt, watch } = watchLoad((t) => Math.min(1000, 100 + 600 * t), { minSec: 0.5, maxSec: 3, connections: 10, requests: 10 });
    expect(stoppedAt).toBeGreaterThan(1.5);
    expect(stoppedAt).toBeLessThan(3);
    expect(isSteady(watch.rates, watch.slices)).toBe(true);
  });

  it('waits for every serving thread to have had its requests, however soon the slices agree', () => {
    // 26 req/s over 4 pool threads: 40 requests take three slices, not two.
    const { stoppedAt } = watchLoad(() => 26, { minSec: 0.5, maxSec: 3, connections: 10, requests: 40 });
    expect(stoppedAt).toBeCloseTo(2.5, 1);
  });

  it('stops at its cap when the rate never settles', () => {
    const { stoppedAt, watch } = watchLoad((t) => (Math.floor(t / 0.2) % 2 === 0 ? 5000 : 10_000), {
      minSec: 0.5,
      maxSec: 3,
      connections: 10,
      requests: 10,
    });
    expect(stoppedAt).toBeLessThanOrEqual(3);
    expect(isSteady(watch.rates, watch.slices)).toBe(false);
    expect(watch.observe(1, 10)).toBe(true);
  });

  it('gives a cell that has served nothing yet the rest of its budget as one slice', () => {
    const watch = warmupWatch({ minSec: 0.5, maxSec: 3, connections: 10, requests: 10 });
    expect(watch.observe(0, 0.5)).toBe(false);
    expect(watch.observe(4, 2.9)).toBe(false);
    expect(watch.observe(4, 3)).toBe(true);
    expect(watch.slices).toEqual([0.5, 2.5]);
  });
});

describe('warmupWatch.atSpeedAfter: what a later server of the cell is warmed up to', () => {
  it('is the requests served at the start of the earlier of the two slices that agreed', () => {
    const watch = warmupWatch({ minSec: 0.5, maxSec: 3, connections: 10, requests: 10 });
    // A ramp: 1000 req/s for 0.5 s, then 2000, 3000, 3000 in 0.2 s slices (steady at the last two).
    expect(watch.observe(500, 0.5)).toBe(false);
    expect(watch.atSpeedAfter()).toBeUndefined();
    expect(watch.observe(900, 0.7)).toBe(false);
    expect(watch.observe(1500, 0.9)).toBe(false);
    expect(watch.observe(2100, 1.1)).toBe(true);
    expect(watch.atSpeedAfter()).toBe(900);
  });

  it('is 0 when the first slice was already at speed (native code: bcrypt)', () => {
    const watch = warmupWatch({ minSec: 0.5, maxSec: 3, connections: 10, requests: 10 });
    watch.observe(7, 0.5);
    expect(watch.observe(21, 1.5)).toBe(true);
    expect(watch.atSpeedAfter()).toBe(0);
  });

  it('is undefined for a warm-up that stopped at its cap unsteady', () => {
    const watch = warmupWatch({ minSec: 0.5, maxSec: 1, connections: 10, requests: 10 });
    watch.observe(500, 0.5);
    expect(watch.observe(1500, 0.7)).toBe(false);
    expect(watch.observe(1700, 0.9)).toBe(true);
    expect(watch.atSpeedAfter()).toBeUndefined();
  });
});
