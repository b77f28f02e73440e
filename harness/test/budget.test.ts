import { describe, expect, it } from 'vitest';
import { budgetLine, budgetNeed, MAX_NEED, plannedUnitSec, runsToGoal, weightedPace } from '../src/bench/budget.ts';
import { wantsMoreRuns } from '../src/bench/run-rules.ts';
import { makeRun } from './fixtures.ts';

describe('runsToGoal', () => {
  it('gives the runs that bring an interval to its goal if the spread holds: its own at the goal, none past the cap', () => {
    // t(3)/sqrt(4) = 1.591, t(8)/sqrt(9) = 0.769: 9.8 % at 4 runs is 4.7 % at 9
    expect(runsToGoal(0.098, 0.05, 4, 12)).toBe(9);
    expect(runsToGoal(0.05, 0.05, 4, 12)).toBe(4);
    expect(runsToGoal(0.13, 0.05, 4, 12)).toBeUndefined();
    // t(12)/sqrt(13) = 0.604: 13 % at 4 runs is 4.9 % at 13
    expect(runsToGoal(0.13, 0.05, 4, 40)).toBe(13);
  });
});

describe('budgetNeed', () => {
  // t(3)/sqrt(4) = 1.591; t(8)/sqrt(9) = 0.769; t(11)/sqrt(12) = 0.635
  it('is 1 at or below the goal', () => {
    expect(budgetNeed(0.04, 0.05, 4, 12)).toBe(1);
    expect(budgetNeed(0.05, 0.05, 4, 12)).toBe(1);
  });

  it('is the runs it would take to reach the goal over the runs it has, if the spread holds', () => {
    // 6 % at 4 runs: 5 runs give 6 % x (2.776/sqrt 5) / 1.591 = 4.7 %
    expect(budgetNeed(0.06, 0.05, 4, 12)).toBe(5 / 4);
    // 9.8 % at 4 runs (Node hash/async in a default run): 9 runs give 4.7 %
    expect(budgetNeed(0.098, 0.05, 4, 12)).toBe(9 / 4);
  });

  it('asks nothing beyond the even share for a cell the cap of runs cannot bring to its goal', () => {
    // 13 % at 4 runs: even 12 runs leave 5.2 %
    expect(budgetNeed(0.13, 0.05, 4, 12)).toBe(1);
    expect(budgetNeed(0.098, 0.05, 4, 8)).toBe(1);
    expect(budgetNeed(Infinity, 0.05, 2, 12)).toBe(1);
  });

  it('is capped at MAX_NEED', () => {
    expect(budgetNeed(0.3, 0.05, 3, 100)).toBe(MAX_NEED); // about 25 runs of 3
  });
});

describe('weightedPace', () => {
  // 100 s for 10 units (10 s each), a unit's minimum 5 s.
  let now = 0;
  const pace = weightedPace(100, 10, 0, 5, () => now);

  it('with need 1 is the even pace: the share of the cells done plus the group under way', () => {
    now = 19_000;
    expect(pace(0, 2, 1)).toBe(true); // 20 s is the share of the first 2 of 10
    now = 21_000;
    expect(pace(0, 2, 1)).toBe(false);
    expect(pace(2, 2, 1)).toBe(true);
  });

  it('lets a group far from its goal spend need times its share, borrowing from later cells', () => {
    now = 35_000;
    expect(pace(0, 2, 1)).toBe(false); // even share: 20 s
    expect(pace(0, 2, 2)).toBe(true); // 20 s + 20 s borrowed
    now = 41_000;
    expect(pace(0, 2, 2)).toBe(false);
  });

  it('never borrows what the cells still to come need for their minimum runs', () => {
    // 8 units under way at need 3 would allow 240 s; the 2 left need 2 x 5 s of the 100.
    now = 89_000;
    expect(pace(0, 8, 3)).toBe(true);
    now = 91_000;
    expect(pace(0, 8, 3)).toBe(false);
  });

  it('a reserve never makes a group poorer than the even pace', () => {
    const tight = weightedPace(100, 10, 0, 50, () => now);
    now = 15_000;
    expect(tight(0, 2, 3)).toBe(true); // reserve 400 s > budget: the even 20 s still holds
    now = 25_000;
    expect(tight(0, 2, 3)).toBe(false);
  });
});

describe("wantsMoreRuns asks the budget with the cell's need", () => {
  const runs = (...rps: number[]) => rps.map((r) => makeRun({ requestsPerSec: r }));
  const plan = { runs: 4, targetCv: undefined, maxRuns: 12, targetPrecision: 0.05 };

  it('passes the runs a wide cell needs over those it has, and 1 for a cell out of reach', () => {
    const needs: number[] = [];
    const spy = (need: number): boolean => {
      needs.push(need);
      return true;
    };
    // mean 100, sd 8.16, t(3) 3.182: half-width 13 %, out of reach in 12 runs: need 1
    expect(wantsMoreRuns(runs(90, 110, 100, 100), plan, 'fib', spy)).toBe(true);
    // sd 4.08: half-width 6.5 %, 6 runs would do (6.5 % x 0.999 / 1.591 = 4.1 %): need 1.5
    expect(wantsMoreRuns(runs(95, 105, 100, 100), plan, 'fib', spy)).toBe(true);
    expect(needs).toEqual([1, 6 / 4]);
    // at its goal: the budget is not even asked
    expect(wantsMoreRuns(runs(99, 101, 100, 100), plan, 'fib', spy)).toBe(false);
    expect(needs).toHaveLength(2);
  });
});

describe('plannedUnitSec and budgetLine', () => {
  const plan = { warmupSec: 0.5, runs: 12, durationSec: 1, roundsPerProcess: undefined, serverProcesses: undefined };

  it('costs a warm-up for each server process a cell is measured on', () => {
    expect(plannedUnitSec(plan)).toBeCloseTo(0.8 + 12 * 1.4);
    expect(plannedUnitSec({ ...plan, serverProcesses: 2 })).toBeCloseTo(2 * 0.8 + 12 * 1.4);
    // bench:ab: a new pair every 2 rounds, 6 processes a lane
    expect(plannedUnitSec({ ...plan, roundsPerProcess: 2 })).toBeCloseTo(6 * 0.8 + 12 * 1.4);
  });

  it('says whether the budget leaves room past the planned runs, and what to do when it does not', () => {
    expect(budgetLine(1, 2, 43, 300)).toBe(
      '1 cell on each of 2 lanes takes about 43 s at the planned runs; a cell whose interval is still wide takes more, until it is narrow enough or the 300 s budget is spent',
    );
    expect(budgetLine(1, 1, 20, 300)).toMatch(/^1 cell on 1 lane takes about 20 s/);
    expect(budgetLine(12, 6, 1555, 300)).toMatch(
      /^12 cells on each of 6 lanes take about 26 min at the planned runs, past the 300 s budget: no cell gets runs beyond those \(give --budget, or fewer cells/,
    );
  });
});
