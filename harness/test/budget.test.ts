import { describe, expect, it } from 'vitest';
import { budgetNeed, MAX_NEED, weightedPace } from '../src/run/budget.ts';
import { wantsMoreRuns } from '../src/run/schedule.ts';
import { makeRun } from './fixtures.ts';

describe('budgetNeed', () => {
  it('is 1 at or below the goal and grows with the square of how far the interval is from it', () => {
    expect(budgetNeed(0.04, 0.05)).toBe(1);
    expect(budgetNeed(0.05, 0.05)).toBe(1);
    expect(budgetNeed(0.06, 0.05)).toBeCloseTo(1.44, 10);
    expect(budgetNeed(0.08, 0.05)).toBeCloseTo(2.56, 10);
  });

  it('is capped, and a cell with no interval yet counts as far from its goal', () => {
    expect(budgetNeed(0.5, 0.05)).toBe(MAX_NEED);
    expect(budgetNeed(Infinity, 0.05)).toBe(MAX_NEED);
    expect(budgetNeed(0.2, 0)).toBe(1);
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

  it('passes (half-width / goal)^2 for a wide cell and 1 for a cell only short of runs', () => {
    const needs: number[] = [];
    const spy = (need: number): boolean => {
      needs.push(need);
      return true;
    };
    // mean 100, sd 8.16, t(3) 3.182: half-width 13 %, need (0.13 / 0.05)^2 capped at 3
    expect(wantsMoreRuns(runs(90, 110, 100, 100), plan, 'fib', spy)).toBe(true);
    // sd 4.08: half-width 6.5 % -> need 1.69
    expect(wantsMoreRuns(runs(95, 105, 100, 100), plan, 'fib', spy)).toBe(true);
    expect(needs[0]).toBe(3);
    expect(needs[1]).toBeGreaterThan(1.68);
    expect(needs[1]).toBeLessThan(1.7);
    // at its goal: the budget is not even asked
    expect(wantsMoreRuns(runs(99, 101, 100, 100), plan, 'fib', spy)).toBe(false);
    expect(needs).toHaveLength(2);
  });
});
