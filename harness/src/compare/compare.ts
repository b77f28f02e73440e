/**
 * Two reports -> the differences between them, each with its significance. Pure: no I/O.
 *
 * Why Welch's t-test: a cell has only a few runs (3-10), and the run-to-run variance differs
 * between runtimes and between versions of the same code, so a test that pools the variances
 * (Student's) would be wrong exactly when something changed. The mean of a few runs, each itself
 * an average over thousands of requests, is close enough to normal for a t-test. A rank test
 * (Mann-Whitney) needs no normality but cannot say anything with 3 runs against 3: its smallest
 * possible two-sided p is 0.1, so nothing would ever be significant at p < 0.05.
 *
 * The size of a change is the ratio of the medians (the figure the report shows, robust to one
 * odd run); the test says whether the runs differ more than their spread explains. A cell
 * regresses only when both agree: bad direction, beyond the threshold, and significant.
 */
import type { RuntimeName } from '@bench/app';
import { median } from '../stats/stats.ts';
import { welchTTest } from '../stats/t-distribution.ts';
import type { MetricChange, Verdict } from '../model/change.ts';
import type { CellResult } from '../model/cell.ts';
import type { CellStatus, Flag, Mode, ScenarioName } from '../model/names.ts';
import type { Report } from '../model/report.ts';
import type { HostCheck } from '../model/environment.ts';
import {
  environmentDifferences,
  parameterDifferences,
  runtimeVersionDifferences,
  type FieldDifference,
  type RuntimeVersionDifference,
} from './differences.ts';
import { driftCancelledReproducibility, ratioPairs, ratioReproducibility, reproducibility, type Reproducibility } from './reproduced.ts';
import {
  bothAgree,
  DEFAULT_MARGIN,
  driftCancelledEstimate,
  judgeChange,
  P99_MARGIN_FACTOR,
  rawEstimate,
  sessionFrom,
  throughputMargin,
  type SessionAllowance,
  withJudgement,
  type GateFields,
} from './gate.ts';
import { ci95 } from '../stats/stats.ts';
import { sharedHost } from '../system/host-speed.ts';

export const SUPPORTED_SCHEMA_VERSION = 1;
export const DEFAULT_THRESHOLD = DEFAULT_MARGIN;
export const DEFAULT_ALPHA = 0.05;
/**
 * autocannon reports latencies in whole milliseconds, so a p99 moving by 1 ms (1 -> 2 ms on a
 * trivial route) is the instrument's resolution, not a measurable change, however "significant"
 * identical runs make it look.
 */
export const LATENCY_RESOLUTION_MS = 1;

/** A comparison that must not be made (e.g. different schema versions) or was asked wrongly. */
export class CompareError extends Error {
  override name = 'CompareError';
}

export interface CompareOptions {
  /** Smallest relative change that counts, as a fraction (0.05 = 5 %). */
  threshold: number;
  /** Significance level of the two-sided test; default 0.05. */
  alpha?: number;
}

export type { MetricChange, Verdict };

export interface CellKey {
  runtime: RuntimeName;
  /** Set when the reports measured named versions (node@22): each installation is its own cell. */
  runtimeLabel?: string;
  scenario: ScenarioName;
  mode: Mode;
  /** Set for a --sweep's sized cells ("kb=64"): each input is its own cell; absent in older reports. */
  query?: string;
}

export interface ComparedCell extends CellKey {
  kind: 'compared';
  runs: { baseline: number; current: number };
  throughput: MetricChange & Partial<GateFields>;
  /** added: the drift-cancelled throughput (requests per reference unit), when both reports carry it. */
  driftCancelled?: MetricChange & GateFields;
  p99: MetricChange & Partial<GateFields>;
  /** Regressed if any metric did, else improved if any did, else not testable if any was not. */
  verdict: Verdict;
  flags: { baseline: Flag[]; current: Flag[] };
}

export interface SideStatus {
  status: CellStatus;
  reason?: string;
}

/** In both reports but not ok in at least one: its figures mean nothing to compare. */
export interface NotComparedCell extends CellKey {
  kind: 'not-compared';
  baseline: SideStatus;
  current: SideStatus;
}

export type CellComparison = ComparedCell | NotComparedCell;

export interface ReportSide {
  createdAt: string;
  status: Report['status'];
  commit: string;
  dirty: boolean;
  /** added: the report's own host check (environment.hostCheck), so a pair can say whether the host held from the first start to the last end. */
  hostCheck?: HostCheck;
}

export interface ComparisonCounts {
  regressed: number;
  improved: number;
  unchanged: number;
  notTestable: number;
  notCompared: number;
  added: number;
  removed: number;
}

export interface ReportComparison {
  threshold: number;
  alpha: number;
  baseline: ReportSide;
  current: ReportSide;
  parameterDifferences: FieldDifference[];
  runtimeVersionDifferences: RuntimeVersionDifference[];
  environmentDifferences: FieldDifference[];
  /** Cells in both reports, in the current report's order. */
  cells: CellComparison[];
  /** Only in the current report. */
  added: CellKey[];
  /** Only in the baseline report. */
  removed: CellKey[];
  counts: ComparisonCounts;
  /** True when any cell regressed significantly beyond the threshold: the CLI's exit code 1. */
  hasRegression: boolean;
  /** added: what two sessions may differ by beyond their intervals, from what the reports measured of their hosts. */
  session?: SessionAllowance;
  /** added: cells whose requests/s agree (compare/reproduced.ts: within the combined 95 % interval or 3 %). */
  reproducibility?: Reproducibility;
  /** added: the headline paired ratios (async/sync, worker/sync, hono/raw) that agree by the same rule. */
  ratioReproducibility?: Reproducibility;
  /** added: cells whose drift-cancelled figure (req/unit) agrees by the same rule, when both reports carry it. */
  driftCancelledReproducibility?: Reproducibility;
}

/** Which way is worse: fewer requests/s, or a longer p99. */
type Worse = 'lower' | 'higher';

export interface JudgeRules {
  threshold: number;
  alpha: number;
  worse: Worse;
  /** Smallest absolute change of the medians that counts (the instrument's resolution). */
  minAbsolute: number;
}

function judge(metric: Omit<MetricChange, 'verdict'>, rules: JudgeRules): Verdict {
  const { test, change } = metric;
  if (test === null) return 'not-testable';
  if (change === null || test.p >= rules.alpha) return 'unchanged';
  if (Math.abs(change) <= rules.threshold) return 'unchanged';
  if (Math.abs(metric.current - metric.baseline) <= rules.minAbsolute) return 'unchanged';
  // The medians and the means must move the same way, or the "change" is one odd run.
  if (Math.sign(change) !== Math.sign(test.t)) return 'unchanged';
  const wentUp = change > 0;
  return wentUp === (rules.worse === 'higher') ? 'regressed' : 'improved';
}

export function compareMetric(
  baseline: readonly number[],
  current: readonly number[],
  fallback: [number, number],
  rules: JudgeRules,
): MetricChange {
  // A cell without per-run figures still has its summary median to show.
  const b = baseline.length > 0 ? median(baseline) : fallback[0];
  const c = current.length > 0 ? median(current) : fallback[1];
  const ratio = b === 0 ? null : c / b;
  const metric = { baseline: b, current: c, ratio, change: ratio === null ? null : ratio - 1, test: welchTTest(baseline, current) };
  return { ...metric, verdict: judge(metric, rules) };
}

function cellVerdict(verdicts: readonly Verdict[]): Verdict {
  const order: Verdict[] = ['regressed', 'improved', 'not-testable'];
  return order.find((v) => verdicts.includes(v)) ?? 'unchanged';
}

function p99Runs(cell: CellResult): number[] {
  return cell.runDetails.map((run) => run.latencyMs.p99);
}

function keyOf(cell: CellKey): CellKey {
  return {
    runtime: cell.runtime,
    ...(cell.runtimeLabel === undefined ? {} : { runtimeLabel: cell.runtimeLabel }),
    scenario: cell.scenario,
    mode: cell.mode,
    ...(cell.query === undefined ? {} : { query: cell.query }),
  };
}

function sideStatus(cell: CellResult): SideStatus {
  return cell.reason === undefined ? { status: cell.status } : { status: cell.status, reason: cell.reason };
}

export function compareCell(baseline: CellResult, current: CellResult, threshold: number, alpha: number): CellComparison {
  if (baseline.status !== 'ok' || current.status !== 'ok') {
    return { kind: 'not-compared', ...keyOf(current), baseline: sideStatus(baseline), current: sideStatus(current) };
  }
  const throughput = compareMetric(
    baseline.requestsPerSec.runs,
    current.requestsPerSec.runs,
    [baseline.requestsPerSec.median, current.requestsPerSec.median],
    { threshold, alpha, worse: 'lower', minAbsolute: 0 },
  );
  const p99 = compareMetric(p99Runs(baseline), p99Runs(current), [baseline.latencyMs.p99, current.latencyMs.p99], {
    threshold,
    alpha,
    worse: 'higher',
    minAbsolute: LATENCY_RESOLUTION_MS,
  });
  return {
    kind: 'compared',
    ...keyOf(current),
    runs: { baseline: baseline.requestsPerSec.runs.length, current: current.requestsPerSec.runs.length },
    throughput,
    p99,
    verdict: cellVerdict([throughput.verdict, p99.verdict]),
    flags: { baseline: [...baseline.flags], current: [...current.flags] },
  };
}

function medianOf(xs: readonly number[], fallback: number): number {
  return xs.length > 0 ? median(xs) : fallback;
}

/** A p99 estimate from the runs' own p99s: their median with the 95 % interval of their mean. */
function p99Estimate(cell: CellResult): { median: number; ci95: [number, number] } | undefined {
  // A p99 under the instrument's resolution (0 ms) counts as the resolution: nothing finer was measured.
  const runs = p99Runs(cell).map((x) => Math.max(x, LATENCY_RESOLUTION_MS));
  if (runs.length < 2) return undefined;
  return { median: medianOf(runs, cell.latencyMs.p99), ci95: ci95(runs) };
}

/**
 * The gate's view of one cell (compare/gate.ts): throughput on raw and drift-cancelled figures
 * with intervals across processes, p99 on its runs' interval, each against its practical margin;
 * a change must also be significant by Welch's test at `alpha` and beyond the instrument's resolution.
 */
export function gateCell(baseline: CellResult, current: CellResult, margin: number, alpha: number, sessionSd?: number): CellComparison {
  const welch = compareCell(baseline, current, margin, alpha);
  if (welch.kind === 'not-compared') return welch;
  const rule = throughputMargin(current.scenario, margin);
  const raw = judgeChange(rawEstimate(baseline), rawEstimate(current), rule, 'lower', sessionSd);
  const b = driftCancelledEstimate(baseline);
  const c = driftCancelledEstimate(current);
  const cancelled = b === undefined || c === undefined ? undefined : judgeChange(b, c, rule, 'lower', sessionSd);
  const significant = (m: MetricChange, verdict: Verdict): Verdict =>
    verdict === 'regressed' || verdict === 'improved' ? (m.test !== null && m.test.p < alpha ? verdict : 'unchanged') : verdict;
  const throughput = withJudgement(welch.throughput, significant(welch.throughput, bothAgree(raw, cancelled)), raw);
  const p99Judged = judgeChange(p99Estimate(baseline), p99Estimate(current), margin * P99_MARGIN_FACTOR, 'higher', sessionSd);
  // Within the instrument's resolution (0 ms against 1 ms included) a p99 is unchanged, testable or not.
  const atResolution = (x: number) => Math.max(x, LATENCY_RESOLUTION_MS);
  const withinResolution =
    Math.abs(atResolution(welch.p99.current) - atResolution(welch.p99.baseline)) <= LATENCY_RESOLUTION_MS && welch.p99.test !== null;
  const p99 = withJudgement(welch.p99, withinResolution ? 'unchanged' : significant(welch.p99, p99Judged.verdict), p99Judged);
  const driftCancelled =
    cancelled === undefined || b === undefined || c === undefined
      ? undefined
      : withJudgement(
          { baseline: b.median, current: c.median, ratio: c.median / b.median, change: c.median / b.median - 1, test: null },
          cancelled.verdict,
          cancelled,
        );
  // A run beside other processes' work moved by what they took, which no interval of either
  // report holds and the host check does not see.
  const shared = sharedHost(baseline) || sharedHost(current);
  const unjudged = <M extends { verdict: Verdict }>(m: M): M =>
    shared && (m.verdict === 'regressed' || m.verdict === 'improved') ? { ...m, verdict: 'not-testable' } : m;
  const judged = { throughput: unjudged(throughput), p99: unjudged(p99) };
  return {
    ...welch,
    throughput: judged.throughput,
    ...(driftCancelled === undefined ? {} : { driftCancelled }),
    p99: judged.p99,
    verdict: cellVerdict([judged.throughput.verdict, judged.p99.verdict]),
  };
}

function withDefined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** Refuses reports whose shapes may differ: field names are only fixed within a schema version. */
export function checkSchemaVersions(baseline: unknown, current: unknown): void {
  const b = (baseline as { schemaVersion?: unknown } | null)?.schemaVersion;
  const c = (current as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (b !== c) {
    throw new CompareError(`schema versions differ (baseline ${String(b)}, current ${String(c)}): refusing to compare`);
  }
  if (b !== SUPPORTED_SCHEMA_VERSION) {
    throw new CompareError(`schema version ${String(b)} is not supported (this harness reads ${SUPPORTED_SCHEMA_VERSION})`);
  }
}

function checkOptions(threshold: number, alpha: number): void {
  if (!Number.isFinite(threshold) || threshold < 0) throw new CompareError(`threshold must be a fraction >= 0, got ${threshold}`);
  if (!(alpha > 0 && alpha < 1)) throw new CompareError(`alpha must be between 0 and 1, got ${alpha}`);
}

function cellKey(cell: CellKey): string {
  // A sized cell is never matched with the unsized one of its mode; without a query the key is as it always was.
  return `${cell.runtimeLabel ?? cell.runtime}\u0000${cell.scenario}\u0000${cell.mode}${cell.query === undefined ? '' : `\u0000q${cell.query}`}`;
}

function byKey(report: Report): Map<string, CellResult> {
  return new Map(report.results.map((cell) => [cellKey(cell), cell]));
}

function countCells(cells: readonly CellComparison[], added: number, removed: number): ComparisonCounts {
  const verdicts = cells.flatMap((c) => (c.kind === 'compared' ? [c.verdict] : []));
  const count = (v: Verdict): number => verdicts.filter((x) => x === v).length;
  return {
    regressed: count('regressed'),
    improved: count('improved'),
    unchanged: count('unchanged'),
    notTestable: count('not-testable'),
    notCompared: cells.length - verdicts.length,
    added,
    removed,
  };
}

function side(report: Report): ReportSide {
  const { commit, dirty, hostCheck } = report.environment;
  return { createdAt: report.createdAt, status: report.status, commit, dirty, ...(hostCheck === undefined ? {} : { hostCheck }) };
}

export function compareReports(baseline: Report, current: Report, options: CompareOptions): ReportComparison {
  checkSchemaVersions(baseline, current);
  const { threshold } = options;
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  checkOptions(threshold, alpha);
  const session = sessionFrom(baseline, current);
  const baseCells = byKey(baseline);
  const currentCells = byKey(current);
  const cells: CellComparison[] = [];
  const added: CellKey[] = [];
  const pairs: [CellResult, CellResult][] = [];
  for (const [key, cell] of currentCells) {
    const before = baseCells.get(key);
    if (before === undefined) added.push(keyOf(cell));
    else {
      cells.push(gateCell(before, cell, threshold, alpha, session.sd));
      pairs.push([before, cell]);
    }
  }
  const removed = [...baseCells].filter(([key]) => !currentCells.has(key)).map(([, cell]) => keyOf(cell));
  const counts = countCells(cells, added.length, removed.length);
  return {
    threshold,
    alpha,
    baseline: side(baseline),
    current: side(current),
    parameterDifferences: parameterDifferences(baseline, current),
    runtimeVersionDifferences: runtimeVersionDifferences(baseline, current),
    environmentDifferences: environmentDifferences(baseline, current),
    cells,
    added,
    removed,
    counts,
    hasRegression: counts.regressed > 0,
    session,
    reproducibility: reproducibility(pairs),
    ratioReproducibility: ratioReproducibility(ratioPairs(baseline.comparisons, current.comparisons)),
    ...withDefined('driftCancelledReproducibility', driftCancelledReproducibility(pairs)),
  };
}
