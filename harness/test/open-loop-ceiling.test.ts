import { describe, expect, it } from 'vitest';
import { openLoopCeiling, openLoopRates, rungHeld, type OpenLoopFigures } from '../src/calibrate/open-loop-ceiling.ts';

/** A generator that keeps its schedule up to `limit` req/s and falls behind above it. */
const fake =
  (limit: number, calls: number[] = []) =>
  async (_url: string, rate: number): Promise<OpenLoopFigures> => {
    calls.push(rate);
    return { achievedPerSec: rate, dropped: 0, errors: 0, timeouts: 0, latenessMs: { p99: rate <= limit ? 0.2 : 3 }, busyPercent: 50 };
  };
const signal = new AbortController().signal;

describe('open-loop ceiling', () => {
  it('climbs from a quarter to twice the closed-loop figure, 1.25x apart', () => {
    const rates = openLoopRates(20_000);
    expect(rates[0]).toBe(5_000);
    expect(rates.at(-1)).toBeLessThanOrEqual(40_000);
    expect(rates.at(-1)).toBeGreaterThan(40_000 / 1.25);
    for (let i = 1; i < rates.length; i++) expect((rates[i] ?? 0) / (rates[i - 1] ?? 1)).toBeCloseTo(1.25, 1);
  });

  it('holds a rate only on schedule, with nothing dropped or failed and the rate served', () => {
    const ok: OpenLoopFigures = { achievedPerSec: 1000, dropped: 0, errors: 0, timeouts: 0, latenessMs: { p99: 0.5 }, busyPercent: 40 };
    expect(rungHeld(1000, ok)).toBe(true);
    expect(rungHeld(1000, { ...ok, latenessMs: { p99: 1 } })).toBe(false);
    expect(rungHeld(1000, { ...ok, dropped: 1 })).toBe(false);
    expect(rungHeld(1000, { ...ok, timeouts: 1 })).toBe(false);
    expect(rungHeld(1000, { ...ok, achievedPerSec: 900 })).toBe(false);
  });

  it('stops at the first rate not held twice, and compares the ceiling with both closed loops', async () => {
    const calls: number[] = [];
    const c = await openLoopCeiling(fake(12_000, calls), 'http://x/hello', { autocannonPerSec: 20_000, wrkPerSec: 80_000 }, 1, signal);
    expect(c.ceilingPerSec).toBe(9_770);
    expect(c.atLeast).toBe(false);
    expect(c.overAutocannon).toBe(0.49);
    expect(c.overWrk).toBe(0.12);
    // The failing rate was tried twice; nothing above it.
    expect(calls.slice(-2)).toEqual([12_210, 12_210]);
    expect(c.steps.filter((s) => !s.held)).toHaveLength(2);
  });

  it('reads "at least" when every rate up to the top held', async () => {
    const c = await openLoopCeiling(fake(1e9), 'http://x/hello', { autocannonPerSec: 1_000, wrkPerSec: null }, 1, signal);
    expect(c).toMatchObject({ ceilingPerSec: openLoopRates(1_000).at(-1), atLeast: true, overWrk: null });
  });
});
