import { describe, expect, it } from 'vitest';
import { abLaneOrder } from '../src/ab/ab-rounds.ts';
import { roundOrder } from '../src/bench/round-policy.ts';
import { markSlowRuns, precisionTarget, wantsMoreRuns, withCrossCheck } from '../src/bench/run-rules.ts';
import { keptRuns } from '../src/system/host-speed.ts';
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

describe('paired schedule', () => {
  const runs = (...rps: number[]) => rps.map((r) => makeRun({ requestsPerSec: r }));

  it('alternates the cells of a group ABBA: as given on odd rounds, reversed on even ones', () => {
    const order = [1, 2, 3, 4].map((round) => roundOrder(['sync', 'async'], round).join(' '));
    expect(order).toEqual(['sync async', 'async sync', 'sync async', 'async sync']);
    expect(roundOrder(['sync', 'async', 'worker'], 2)).toEqual(['worker', 'async', 'sync']);
  });

  it("alternates bench:ab's lanes ABBA within each process pair, and which lane goes first on a fresh process pair", () => {
    const order = (per: number | undefined) =>
      [1, 2, 3, 4, 5, 6, 7, 8].map((round) => abLaneOrder(['A', 'B'], round, per).join('')).join(' ');
    expect(order(2)).toBe('AB BA BA AB AB BA BA AB');
    // an odd process length alternates the fresh pair's first lane by itself
    expect(order(3)).toBe('AB BA AB BA AB BA AB BA');
    expect(order(undefined)).toBe(order(1));
    // each lane goes first on half the fresh pairs and in half the rounds
    const firsts = [1, 3, 5, 7].map((round) => abLaneOrder(['A', 'B'], round, 2)[0]);
    expect(firsts).toEqual(['A', 'B', 'A', 'B']);
  });

  it('adds runs while the interval is wider than the precision target (hello: twice it), within the cap and the budget', () => {
    const plan = { runs: 4, targetCv: undefined, maxRuns: 8, targetPrecision: 0.05 };
    // mean 100, sd 2.58, t(3) 3.18: half-width 4.1 % -> met; sd 8.2 -> 13 % -> not met
    expect(wantsMoreRuns(runs(97, 103, 100, 100), plan, 'fib')).toBe(false);
    expect(wantsMoreRuns(runs(90, 110, 100, 100), plan, 'fib')).toBe(true);
    expect(wantsMoreRuns(runs(93, 107, 100, 100), plan, 'hello')).toBe(false);
    expect(wantsMoreRuns(runs(93, 107, 100, 100), plan, 'fib')).toBe(true);
    expect(wantsMoreRuns(runs(90, 110, 100, 100), plan, 'fib', () => false)).toBe(false);
    expect(wantsMoreRuns(runs(90, 110, 100, 100, 90, 110, 100, 100), plan, 'fib')).toBe(false);
    expect(precisionTarget(0.05, 'hello')).toBe(0.1);
  });

  it('marks runs taken on a markedly slow machine, keeps them out of the summary while three others remain, and asks for a replacement', () => {
    const speeds = [1.9, 1.95, 1.0, 1.92];
    const measured = speeds.map((coresWorth, i) =>
      makeRun({ requestsPerSec: i === 2 ? 60 : 100, machine: { coresWorth, min: coresWorth, max: coresWorth, ticks: 4 } }),
    );
    markSlowRuns(measured);
    expect(measured.map((r) => r.slowMachine === true)).toEqual([false, false, true, false]);
    expect(keptRuns(measured).map((r) => r.requestsPerSec)).toEqual([100, 100, 100]);
    expect(wantsMoreRuns(measured, { runs: 4, targetCv: undefined, maxRuns: 8 })).toBe(true);
    // the machine back to speed for every run: the mark goes
    measured[2] = { ...measured[2]!, machine: { coresWorth: 1.9, min: 1.9, max: 1.9, ticks: 4 } };
    markSlowRuns(measured);
    expect(measured.some((r) => r.slowMachine === true)).toBe(false);
  });
});
