/**
 * The run's time budget and its grouping into paired cell groups (issue 22). Pure.
 */
import type { CellSpec } from './scenarios.ts';

/**
 * Whether runs beyond the plan's minimum may be added now: only while the run is ahead of an
 * even pace through the budget, i.e. the time spent is below the budget's share for the cells
 * finished plus the group under way. Early groups cannot spend what later ones need, and a
 * run that fell behind (slow machine, a restart) adds nothing until it has caught up.
 */
export function budgetPace(budgetSec: number, totalUnits: number, startedAtMs: number, now: () => number = Date.now): (done: number, current: number) => boolean {
  return (done, current) => {
    if (totalUnits <= 0) return false;
    const share = Math.min(1, (done + current) / totalUnits);
    return (now() - startedAtMs) / 1000 < budgetSec * share;
  };
}

/** Cells cut into runs of the same scenario, in order: the modes that are compared run together. */
export function scenarioGroups(cells: readonly CellSpec[]): CellSpec[][] {
  const groups: CellSpec[][] = [];
  for (const cell of cells) {
    const last = groups.at(-1);
    if (last?.[0]?.scenario === cell.scenario) last.push(cell);
    else groups.push([cell]);
  }
  return groups;
}
