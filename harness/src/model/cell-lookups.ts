/**
 * A cell's lane and the cells a comparison compares: the lookups the merge, the sentences, the
 * renderers, the front page's answers and the sweep summary share. Below merge.ts, so what merge
 * derives (the sweep summary) can use them too.
 */
import type { CellResult } from './cell.ts';
import type { Comparison } from './comparison.ts';
import type { Mode } from './names.ts';
import type { Report, RuntimeEntry } from './report.ts';

/** A cell's lane: its installation's label when the plan named versions ("node@24"), else the runtime. */
export function laneOf(cell: Pick<CellResult, 'runtime' | 'runtimeLabel'>): string {
  return cell.runtimeLabel ?? cell.runtime;
}

/** A runtime entry's lane, as laneOf. */
export function entryLane(entry: Pick<RuntimeEntry, 'name' | 'label'>): string {
  return entry.label ?? entry.name;
}

/** The cell of a comparison's lane, scenario and dimensions in the given mode, whatever its status. */
export function comparedCell(report: Pick<Report, 'results'>, c: Comparison, mode: Mode): CellResult | undefined {
  return report.results.find(
    (r) =>
      laneOf(r) === laneOf(c) &&
      r.scenario === c.scenario &&
      r.mode === mode &&
      // A comparison names its connections only in a sweep; otherwise every cell has the run's one count.
      (c.connections === undefined || r.connections === c.connections) &&
      r.processes === c.processes &&
      r.query === c.query,
  );
}

/** comparedCell when it was measured (ok). */
export function cellOf(report: Pick<Report, 'results'>, c: Comparison, mode: Mode): CellResult | undefined {
  const cell = comparedCell(report, c, mode);
  return cell?.status === 'ok' ? cell : undefined;
}
