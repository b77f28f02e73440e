/**
 * The run's time budget and its grouping into paired cell groups. Pure.
 */
import type { CellSpec } from '../servers/scenarios.ts';
import { tCritical95 } from '../stats/stats.ts';
import type { Plan } from './plan.ts';

/**
 * What one cell costs on one lane at its planned runs, in seconds: a check and a warm-up on each
 * server process it is measured on (bench:ab starts a new process pair every roundsPerProcess rounds),
 * and each run with the pause around it (a default bench:ab on 2 vCPUs took 45 s a cell on its
 * two lanes; this gives 43 s).
 */
export function plannedUnitSec(plan: Pick<Plan, 'warmupSec' | 'runs' | 'durationSec' | 'roundsPerProcess' | 'serverProcesses'>): number {
  const processes =
    plan.roundsPerProcess === undefined ? Math.max(1, plan.serverProcesses ?? 1) : Math.ceil(plan.runs / plan.roundsPerProcess);
  return processes * (plan.warmupSec + 0.3) + plan.runs * (plan.durationSec + 0.4);
}

/**
 * The line that says, before the first cell, what the run's planned runs cost against its
 * budget: whether the budget leaves room for more runs where intervals are wide (a ceiling: the
 * run ends sooner when every cell is narrow enough), or is spent on the planned runs alone (then
 * no cell gets more, and the way out is fewer cells or more budget).
 */
export function budgetLine(cells: number, lanes: number, plannedSec: number, budgetSec: number): string {
  // A lane runs every cell, and bench:ab counts its verdicts per runtime (36 for 12 cells on 3
  // runtimes' A and B lanes): "on each of" keeps the count of cells from reading as either.
  const where = lanes === 1 ? 'on 1 lane' : `on each of ${lanes} lanes`;
  const planned = `${cells} cell${cells === 1 ? '' : 's'} ${where} take${cells === 1 ? 's' : ''} about ${minutes(plannedSec)} at the planned runs`;
  return plannedSec >= budgetSec
    ? `${planned}, past the ${budgetSec} s budget: no cell gets runs beyond those (give --budget, or fewer cells: --scenarios, --modes, --runtimes)`
    : `${planned}; a cell whose interval is still wide takes more, until it is narrow enough or the ${budgetSec} s budget is spent`;
}

const minutes = (sec: number): string => (sec < 90 ? `${Math.round(sec)} s` : `${Math.round(sec / 60)} min`);

/**
 * A cell's need for more runs, the weight of its claim on the budget: how many times its
 * present runs it would take to bring its interval to the goal, if the spread stays what it is
 * (the half-width goes as t(n-1)/sqrt(n): from 4 runs to 12 it narrows 2.5-fold). 1 at or below
 * the goal, and 1 too when even `maxRuns` would not reach it (a hello cell at ±20 % with a
 * ±10 % goal): runs there narrow an interval that still misses, and the budget they would
 * borrow is what a later cell needs to reach its goal. At most MAX_NEED.
 */
export const MAX_NEED = 3;
export function budgetNeed(halfWidthShare: number, goal: number, runs: number, maxRuns: number): number {
  if (!(halfWidthShare > goal)) return 1;
  const n = runsToGoal(halfWidthShare, goal, runs, maxRuns);
  return n === undefined ? 1 : Math.min(MAX_NEED, n / runs);
}

/**
 * How many runs (or units: bench:ab's process pairs) would bring an interval of
 * `halfWidthShare` over `runs` to `goal` if the spread stays what it is (the half-width goes as
 * t(n-1)/sqrt(n)): `runs` itself when it is there already, undefined past `maxRuns`.
 */
export function runsToGoal(halfWidthShare: number, goal: number, runs: number, maxRuns: number): number | undefined {
  if (!(goal > 0) || !Number.isFinite(halfWidthShare) || runs < 2) return undefined;
  if (halfWidthShare <= goal) return runs;
  const scale = (n: number): number => tCritical95(n - 1) / Math.sqrt(n);
  const now = scale(runs);
  for (let n = runs + 1; n <= maxRuns; n++) {
    if ((halfWidthShare * scale(n)) / now <= goal) return n;
  }
  return undefined;
}

/**
 * Whether runs beyond the plan's minimum may be added now: only while the run is ahead of its
 * pace through the budget. With need 1 that pace is even: the time spent must be below the
 * budget's share for the cells finished plus the group under way, so early groups cannot spend
 * what later ones need, and a run that fell behind (slow machine, a restart) adds nothing until
 * it has caught up. Weighted by spread: a group whose widest interval
 * is far from its goal may spend beyond its even share, `need` times it (budgetNeed), borrowing
 * from the cells still to come - never so much that those cells' minimum runs
 * (`minUnitSec` each: warm-up and the planned runs) no longer fit in what is left. A cell at
 * its goal asks nothing (wantsMoreRuns stops it), so what it leaves over goes to the next wide
 * one; together, runs go where the interval is widest relative to its goal.
 */
export function weightedPace(
  budgetSec: number,
  totalUnits: number,
  startedAtMs: number,
  minUnitSec: number,
  now: () => number = Date.now,
): (done: number, current: number, need?: number) => boolean {
  return (done, current, need = 1) => {
    if (totalUnits <= 0) return false;
    const perUnit = budgetSec / totalUnits;
    const even = perUnit * Math.min(totalUnits, done + current);
    const borrowed = even + perUnit * current * (Math.max(1, need) - 1);
    const reserve = minUnitSec * Math.max(0, totalUnits - done - current);
    const allowed = Math.min(borrowed, budgetSec - reserve);
    // Never less than the even pace: a weight cannot make a group poorer than before.
    return (now() - startedAtMs) / 1000 < Math.max(Math.min(even, budgetSec), allowed);
  };
}

/** Cells cut into runs of the same scenario (and input, in a --sweep), in order: the modes that are compared run together. */
export function cellGroups(cells: readonly CellSpec[]): CellSpec[][] {
  const groups: CellSpec[][] = [];
  for (const cell of cells) {
    const last = groups.at(-1);
    if (last?.[0]?.scenario === cell.scenario && last[0].query === cell.query) last.push(cell);
    else groups.push([cell]);
  }
  return groups;
}
