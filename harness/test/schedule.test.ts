import { describe, expect, it } from 'vitest';
import { wantsMoreRuns, withCrossCheck } from '../src/run/schedule.ts';
import { makeCell, makeRun } from './fixtures.ts';

describe('withCrossCheck', () => {
  const cell = makeCell({ runtime: 'bun', scenario: 'hello', mode: 'raw' }, { rps: 15_000 });

  it('records wrk beside autocannon and flags client-bound below 0.9 of wrk', () => {
    const checked = withCrossCheck(cell, { requestsPerSec: 35_000.4, connections: 10, threads: 2 });
    expect(checked.crossCheck).toEqual({ tool: 'wrk', requestsPerSec: 35_000, ratio: 0.429, connections: 10, threads: 2 });
    expect(checked.flags).toEqual(['client-bound']);
  });

  it('leaves a cell that reached 0.9 of wrk unflagged, and adds no flag twice', () => {
    expect(withCrossCheck(cell, { requestsPerSec: 16_000, connections: 10, threads: 2 }).flags).toEqual([]);
    const bound = { ...cell, flags: ['client-bound' as const, 'unstable' as const] };
    expect(withCrossCheck(bound, { requestsPerSec: 40_000, connections: 10, threads: 2 }).flags).toEqual(['client-bound', 'unstable']);
  });

  it('lifts the CPU-based client-bound flag when autocannon matched wrk', () => {
    const busy = { ...cell, flags: ['client-bound' as const, 'unstable' as const] };
    expect(withCrossCheck(busy, { requestsPerSec: 13_000, connections: 10, threads: 2 }).flags).toEqual(['unstable']);
  });

  it('changes nothing without a wrk figure', () => {
    expect(withCrossCheck(cell, undefined)).toBe(cell);
  });
});

describe('wantsMoreRuns', () => {
  const runs = (...rps: number[]) => rps.map((r) => makeRun({ requestsPerSec: r }));
  const plan = { runs: 3, targetCv: undefined, maxRuns: 10 };

  it('always runs the planned number, no more without a CV target', () => {
    expect(wantsMoreRuns(runs(100, 100), plan)).toBe(true);
    expect(wantsMoreRuns(runs(100, 200, 300), plan)).toBe(false);
  });

  it('with a target, adds runs while the CV is above it, up to the cap', () => {
    const target = { ...plan, targetCv: 0.05 };
    expect(wantsMoreRuns(runs(100, 101, 99), target)).toBe(false);
    expect(wantsMoreRuns(runs(100, 130, 70), target)).toBe(true);
    expect(wantsMoreRuns(runs(100, 130, 70, 100, 130, 70, 100, 130, 70, 100), target)).toBe(false);
  });
});
