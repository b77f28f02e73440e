/**
 * Ratios between cells of one runtime and scenario (what async or a worker buys over sync, what
 * Hono costs over a raw server) and between runtimes (ratio to the fastest). Pure functions.
 */
import type { CellResult } from '../model/cell.ts';
import type { Comparison, Ratios } from '../model/comparison.ts';
import type { Mode, ScenarioName } from '../model/names.ts';
import { pairedRatioInterval, roundRatios } from '../stats/paired.ts';

/**
 * Ratios are rounded to 4 significant digits rather than fixed decimals: a probe p99 ratio can
 * be 0.004 as easily as 40, and both deserve the same relative precision.
 */
export const RATIO_SIGNIFICANT_DIGITS = 4;

export function roundRatio(x: number): number {
  return Number(x.toPrecision(RATIO_SIGNIFICANT_DIGITS));
}

/** numerator / denominator, or null when either is missing or the denominator is zero. */
function ratio(numerator: number | undefined, denominator: number | undefined): number | null {
  if (numerator === undefined || denominator === undefined || denominator === 0 || numerator === 0) return null;
  return roundRatio(numerator / denominator);
}

/**
 * A cell that can carry a ratio: present and ok. A failed cell holds only zeros; an invalid one
 * counted errors or wrong answers as work, or finished nothing. (An overloaded cell is ok: its
 * completed requests are measured.)
 */
function measured(cell: CellResult | undefined): CellResult | undefined {
  return cell?.status === 'ok' ? cell : undefined;
}

/**
 * Ratios of `over` to `base`: throughput, load p99 latency, probe p99 latency. Each is null when
 * a side is missing, failed, or zero (a zero figure makes the ratio meaningless, not infinite).
 */
export function cellRatios(over: CellResult | undefined, base: CellResult | undefined): Ratios {
  const o = measured(over);
  const b = measured(base);
  const paired = o === undefined || b === undefined ? undefined : pairedRatioInterval(roundRatios(o.runDetails ?? [], b.runDetails ?? []));
  return {
    throughput: ratio(o?.requestsPerSec.median, b?.requestsPerSec.median),
    p99: ratio(o?.latencyMs.p99, b?.latencyMs.p99),
    probeP99: ratio(o?.probeLatencyMs.p99, b?.probeLatencyMs.p99),
    // Runs measured in alternation: the ratio from the pairs, with its interval.
    ...(paired === undefined ? {} : { pairedThroughput: paired.ratio, throughputCi95: paired.ci95, pairs: paired.pairs }),
  };
}

/** Ratios for one mode pair; undefined when neither mode was measured here at all. */
function pairRatios(cells: readonly CellResult[], over: Mode, base: Mode): Ratios | undefined {
  const o = cells.find((c) => c.mode === over);
  const b = cells.find((c) => c.mode === base);
  return o === undefined && b === undefined ? undefined : cellRatios(o, b);
}

const hasMode = (cells: readonly CellResult[], mode: Mode): boolean => cells.some((c) => c.mode === mode);

/**
 * The added dimensions of a cell (--connections sweep, --processes, --sweep's input), as a key
 * suffix: each is its own group, so x2's async is compared with x2's sync, @100's with @100's,
 * kb=64's worker with kb=64's sync. Every cell carries its connections; a run without a
 * --connections sweep has one count, so its cells group as if it were not there. A cell without
 * processes or a query (every older report) keys as before.
 */
export function dimensionKey(cell: Pick<CellResult, 'connections' | 'processes' | 'query'>): string {
  return `${cell.connections === undefined ? '' : `\u0000c${cell.connections}`}${cell.processes === undefined ? '' : `\u0000x${cell.processes}`}${cell.query === undefined ? '' : `\u0000q${cell.query}`}`;
}

/** With --processes, each process count is its own group: x2's async is compared with x2's sync. */
function groupKey(cell: CellResult): string {
  return `${cell.runtimeLabel ?? cell.runtime}\u0000${cell.scenario}${dimensionKey(cell)}`;
}

/** Cells grouped by runtime and scenario, groups in order of first appearance. */
function groupByRuntimeAndScenario(results: readonly CellResult[]): CellResult[][] {
  const groups = new Map<string, CellResult[]>();
  for (const cell of results) {
    const group = groups.get(groupKey(cell));
    if (group === undefined) groups.set(groupKey(cell), [cell]);
    else group.push(cell);
  }
  return [...groups.values()];
}

const HELLO: ScenarioName = 'hello';

/**
 * One comparison per runtime and scenario that has something to compare: async and worker over
 * sync; for "hello", the Hono server (mode baseline) over the raw server (mode raw). A pair is
 * present when either of its cells exists (even failed), so a missing or failed side shows as
 * null ratios; workerOverSync only where a worker cell exists, as only some scenarios have one.
 * A comparison names its cells' connections only when the run swept them (model/cell-lookups.ts).
 */
export function comparisons(results: readonly CellResult[], connectionsSwept: boolean): Comparison[] {
  const out: Comparison[] = [];
  for (const cells of groupByRuntimeAndScenario(results)) {
    const first = cells[0];
    if (first === undefined) continue;
    const asyncOverSync = pairRatios(cells, 'async', 'sync');
    const workerOverSync = hasMode(cells, 'worker') ? pairRatios(cells, 'worker', 'sync') : undefined;
    const honoOverRaw = first.scenario === HELLO ? pairRatios(cells, 'baseline', 'raw') : undefined;
    if (asyncOverSync === undefined && workerOverSync === undefined && honoOverRaw === undefined) continue;
    out.push({
      runtime: first.runtime,
      ...(first.runtimeLabel === undefined ? {} : { runtimeLabel: first.runtimeLabel }),
      scenario: first.scenario,
      ...(connectionsSwept && first.connections !== undefined ? { connections: first.connections } : {}),
      ...(first.processes === undefined ? {} : { processes: first.processes }),
      ...(first.query === undefined ? {} : { query: first.query }),
      ...(asyncOverSync === undefined ? {} : { asyncOverSync }),
      ...(workerOverSync === undefined ? {} : { workerOverSync }),
      ...(honoOverRaw === undefined ? {} : { honoOverRaw }),
    });
  }
  return out;
}

function modeKey(cell: CellResult): string {
  return `${cell.scenario}\u0000${cell.mode}${dimensionKey(cell)}`;
}

/**
 * Each ok cell's median requests/s as a fraction of the fastest ok runtime's in the same scenario
 * and mode (1 for the fastest). Cells that are not ok get no ratio: their figures are not
 * comparable. Returns new cell objects; the input is left untouched.
 */
export function withRatioToFastest(results: readonly CellResult[]): CellResult[] {
  const fastest = new Map<string, number>();
  for (const cell of results) {
    if (cell.status !== 'ok') continue;
    fastest.set(modeKey(cell), Math.max(fastest.get(modeKey(cell)) ?? 0, cell.requestsPerSec.median));
  }
  return results.map((cell) => {
    const { ratioToFastest: _previous, ...rest } = cell;
    const best = fastest.get(modeKey(cell));
    if (cell.status !== 'ok' || best === undefined || best === 0) return rest;
    return { ...rest, ratioToFastest: roundRatio(cell.requestsPerSec.median / best) };
  });
}
