/**
 * Cell results (one file each on disk, possibly from several invocations) -> one Report.
 */
import { comparisons, dimensionKey, withRatioToFastest } from './mode-ratios.ts';
import { processComparisons } from './process-ratios.ts';
import { withAcrossProcesses } from './across-processes.ts';
import { withLoopVerdicts } from './loop-verdict.ts';
import { sweepSummary } from './sweep-summary.ts';
import type { CellResult } from '../model/cell.ts';
import type { Environment } from '../model/environment.ts';
import { MODES, SCENARIO_ORDER, type ScenarioName } from '../model/names.ts';
import { type Parameters, connectionsSwept } from '../model/parameters.ts';
import type { Report, RuntimeEntry, Timing } from '../model/report.ts';

/** The report's scenario order: the plan's as recorded (built-ins first, then the user's own), else the old fixed one. */
export function scenarioOrder(parameters: Pick<Parameters, 'scenarios'> | undefined): readonly ScenarioName[] {
  return parameters?.scenarios?.map((s) => s.name) ?? SCENARIO_ORDER;
}

export interface MergeInput {
  createdAt: string;
  status: Report['status'];
  environment: Environment;
  parameters: Parameters;
  runtimes: RuntimeEntry[];
  results: CellResult[];
  timing?: Timing;
}

function cellKey(cell: CellResult): string {
  // A cell of a named version is its own cell beside the same runtime's other versions.
  const runtime = cell.runtimeLabel === undefined ? cell.runtime : `${cell.runtime}\u0000${cell.runtimeLabel}`;
  return `${runtime}\u0000${cell.scenario}\u0000${cell.mode}${dimensionKey(cell)}`;
}

/** One cell per runtime+scenario+mode; a later result replaces an earlier one (a re-run). */
export function dedupeCells(results: readonly CellResult[]): CellResult[] {
  const byKey = new Map<string, CellResult>();
  for (const cell of results) byKey.set(cellKey(cell), cell);
  return [...byKey.values()];
}

/** Position in `order`; names not in it (e.g. a future scenario variant) sort after the known ones. */
function rank<T>(order: readonly T[], value: T): number {
  const index = order.indexOf(value);
  return index === -1 ? order.length : index;
}

/**
 * Sorted by runtime (in the order the runtimes were given), scenario, then mode. Names outside
 * the known orders keep their input order among themselves (Array.prototype.sort is stable).
 */
export function sortCells(
  results: readonly CellResult[],
  runtimes: readonly RuntimeEntry[],
  scenarios: readonly ScenarioName[] = SCENARIO_ORDER,
): CellResult[] {
  const runtimeOrder = runtimes.map((r) => r.label ?? r.name);
  const lane = (cell: CellResult) => cell.runtimeLabel ?? cell.runtime;
  return [...results].sort(
    (a, b) =>
      rank(runtimeOrder, lane(a)) - rank(runtimeOrder, lane(b)) ||
      rank(scenarios, a.scenario) - rank(scenarios, b.scenario) ||
      rank(MODES, a.mode) - rank(MODES, b.mode) ||
      (a.connections ?? 0) - (b.connections ?? 0) ||
      (a.processes ?? 1) - (b.processes ?? 1) ||
      (a.query ?? '').localeCompare(b.query ?? '', 'en', { numeric: true }),
  );
}

export function mergeReport(input: MergeInput): Report {
  const results = withLoopVerdicts(
    withAcrossProcesses(withRatioToFastest(sortCells(dedupeCells(input.results), input.runtimes, scenarioOrder(input.parameters)))),
  );
  return {
    schemaVersion: 1,
    createdAt: input.createdAt,
    status: input.status,
    environment: input.environment,
    parameters: input.parameters,
    runtimes: input.runtimes,
    results,
    comparisons: comparisons(results, connectionsSwept(input)),
    ...(input.timing === undefined ? {} : { timing: input.timing }),
    ...(results.some((c) => c.processes !== undefined) ? { processComparisons: processComparisons(results) } : {}),
    ...sweepOf(input.parameters, results),
  };
}

/** With --sweep: where the worker starts to pay, per runtime (report/sweep-summary.ts). */
function sweepOf(parameters: Parameters, results: CellResult[]): Pick<Report, 'sweep'> {
  const sweep = sweepSummary({ parameters, results });
  return sweep === undefined ? {} : { sweep };
}
