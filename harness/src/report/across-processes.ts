/**
 * Each cell's intervals across server processes (stats/process-interval.ts): for requests/s
 * (CellResult.acrossProcesses) and for the drift-cancelled figure (its requestsPerUnit.ci95,
 * widened the same way), the between-process variance pooled per scenario over the report's
 * cells. Cells measured on one process are left as they are. Pure.
 */
import type { CellResult, RunResult, Summary } from '../model/cell.ts';
import { acrossProcessInterval, pooledBetween, processComponents, type ProcessComponents } from '../stats/process-interval.ts';
import { roundFigure } from '../stats/stats.ts';
import { keptRuns } from '../system/host-speed.ts';

type Figure = (run: RunResult) => number | undefined;
type CellFigure = (cell: CellResult) => Figure;

const rawFigure: CellFigure = () => (run) => run.requestsPerSec;
/** req/unit: each run's req/s times the cell's reference (the median of its rounds', bench/reference.ts). */
const cancelledFigure =
  (cell: CellResult): Figure =>
  (run) => {
    const factor = cell.driftCancelled?.referenceMs.median;
    return factor === undefined ? undefined : run.requestsPerSec * factor;
  };

/** The runs that count (not taken on a slow machine, unless too few remain: as the summary) grouped by server process. */
function groups(cell: CellResult, figure: Figure): number[][] | undefined {
  const runs = keptRuns(cell.runDetails);
  const byProcess = new Map<number, number[]>();
  for (const run of runs) {
    const value = figure(run);
    if (run.serverProcess === undefined || value === undefined || !(value > 0)) return undefined;
    byProcess.set(run.serverProcess, [...(byProcess.get(run.serverProcess) ?? []), value]);
  }
  return byProcess.size < 2 ? undefined : [...byProcess.values()];
}

function componentsOf(cells: readonly CellResult[], figure: CellFigure): Map<CellResult, ProcessComponents> {
  const out = new Map<CellResult, ProcessComponents>();
  for (const cell of cells) {
    if (cell.status !== 'ok') continue;
    const g = groups(cell, figure(cell));
    const c = g === undefined ? undefined : processComponents({ groups: g });
    if (c !== undefined) out.set(cell, c);
  }
  return out;
}

function intervals(
  cells: readonly CellResult[],
  figure: CellFigure,
): Map<CellResult, { ci95: [number, number]; betweenCv: number; processes: number }> {
  const components = componentsOf(cells, figure);
  const out = new Map<CellResult, { ci95: [number, number]; betweenCv: number; processes: number }>();
  for (const scenario of new Set(cells.map((c) => c.scenario))) {
    const mine = [...components].filter(([cell]) => cell.scenario === scenario);
    const between = pooledBetween(mine.map(([, c]) => c));
    for (const [cell, c] of mine) {
      const [lo, hi] = acrossProcessInterval(c, between);
      out.set(cell, {
        ci95: [roundFigure(lo), roundFigure(hi)],
        betweenCv: roundFigure(Math.sqrt(between.variance), 4),
        processes: c.processes,
      });
    }
  }
  return out;
}

function widened(summary: Summary, ci95: [number, number]): Summary {
  const share = summary.median === 0 ? 0 : roundFigure((ci95[1] - ci95[0]) / 2 / summary.median, 4);
  return { ...summary, ci95, halfWidthShare: share };
}

/** The cells with their across-process intervals added. */
export function withAcrossProcesses(cells: readonly CellResult[]): CellResult[] {
  const raw = intervals(cells, rawFigure);
  const cancelled = intervals(cells, cancelledFigure);
  return cells.map((cell) => {
    const r = raw.get(cell);
    const c = cancelled.get(cell);
    return {
      ...cell,
      ...(r === undefined ? {} : { acrossProcesses: r }),
      ...(c === undefined || cell.driftCancelled === undefined
        ? {}
        : { driftCancelled: { ...cell.driftCancelled, requestsPerUnit: widened(cell.driftCancelled.requestsPerUnit, c.ci95) } }),
    };
  });
}
