/**
 * The regression gate's rule: a cell regresses only when its figure moved beyond a stated
 * practical margin with 95 % confidence, that is when the whole 95 % interval of the change
 * (the combined interval of both reports' figures, stats/agreement.ts) lies beyond the margin.
 * Pure.
 *
 * Why the whole interval: two runs of one commit differ by their intervals and by what no
 * interval of one run holds (the next server process, which the intervals across processes
 * hold, and the minute each scenario ran in, which the session allowance measured from the
 * reports' reference loops or host checks stands for). A gate that fires on a significant change
 * just past the margin fires on A/A pairs: a regression gate decides only beyond what an A/A
 * pair differs by (docs/design.md, "Measurement principles"). The price is stated: the smallest
 * change a pair can flag is its margin plus its combined interval (`detectable`), well above the
 * margin for two separate sessions, which is why bench:ab compares within one session.
 *
 * Throughput is judged on two figures when both reports carry them: the raw requests/s and the
 * drift-cancelled one (requests per reference unit, bench/reference.ts). A cell regresses only
 * when both fell: a drift of the host moves the raw figure of a CPU-bound cell and not its
 * drift-cancelled one, and the other way round for a cell whose rate is set by a timer (sleep),
 * while a real regression on a host that held its speed moves both.
 */
import type { MetricChange, Verdict } from '../model/change.ts';
import type { CellResult, Summary } from '../model/cell.ts';
import type { ScenarioName } from '../model/names.ts';
import type { Report } from '../model/report.ts';
import { combinedLogHalfWidth, type Estimate } from '../stats/agreement.ts';
import { sessionSpread } from '../system/host-speed.ts';

/** Practical margin of a heavy cell's throughput: smaller changes are not worth a failed check. */
export const DEFAULT_MARGIN = 0.05;
/** hello's margin is this multiple of the heavy one: a lighter, noisier cell (its precision target is twice as wide too). */
export const HELLO_MARGIN_FACTOR = 2;
/** p99's margin is this multiple of the heavy throughput margin: a tail moves more than a mean between processes. */
export const P99_MARGIN_FACTOR = 4;
/**
 * What two sessions may differ by beyond their own intervals, for two reports that measured
 * nothing of their host (older reports, servers on another host): the one assumption left. Between
 * two default runs of one commit back to back (2026-11-25, host check within ±5.4 %) every fib cell
 * moved +3 to +16 % while each cell's interval across processes was ±2 to ±8 %: 4 % a session, a
 * standard deviation on logs (docs/methodology.md). Reports that carry a reference loop or a host
 * check get their allowance from those instead (sessionFrom).
 */
export const SESSION_SD = 0.04;

/** What two sessions may differ by, and where that came from. */
export interface SessionAllowance {
  /** A session's standard deviation on logs. */
  sd: number;
  /** What two sessions may then differ by beyond their intervals, as a fraction (1.96 x sd x √2). */
  allowance: number;
  /** Where it came from: "from the reports' reference loops", "... host checks", or "assumed: ...". */
  source: string;
}

/**
 * The session allowance from what the two reports measured of their host: how far the host's
 * speed may differ between their sessions is the host's verdict (system/host-speed.ts
 * sessionSpread); where neither measured it, SESSION_SD is assumed.
 */
export function sessionFrom(baseline: Pick<Report, 'environment'>, current: Pick<Report, 'environment'>): SessionAllowance {
  const of = (sd: number, source: string): SessionAllowance => ({ sd: round4(sd), allowance: round4(sessionAllowance(sd)), source });
  const spread = sessionSpread(baseline.environment, current.environment);
  return spread === undefined ? of(SESSION_SD, 'assumed: neither report measured its host') : of(spread.sd, spread.source);
}

export type Worse = 'lower' | 'higher';

export interface GateJudgement {
  verdict: Verdict;
  /** The margin held to, as a fraction. */
  margin: number;
  /** The smallest change this pair could flag: the margin widened by the combined 95 % interval (sessions included). */
  detectable: number;
  /** The 95 % interval of current / baseline - 1. */
  changeCi95: [number, number];
}

/** The throughput margin of a scenario: hello's is wider. */
export function throughputMargin(scenario: ScenarioName, margin: number = DEFAULT_MARGIN): number {
  return scenario === 'hello' ? margin * HELLO_MARGIN_FACTOR : margin;
}

const round4 = (x: number): number => Number(x.toFixed(4));
const Z95 = 1.96;

/** What two sessions may differ by beyond their intervals, as a fraction (about 0.117 for SESSION_SD 4 %). */
export function sessionAllowance(sessionSd: number = SESSION_SD): number {
  return Math.expm1(Z95 * sessionSd * Math.SQRT2);
}

/**
 * The verdict on one figure: regressed (or improved) when the whole 95 % interval of the change
 * lies beyond the margin in the bad (or good) direction; not testable without an interval on a side.
 */
export function judgeChange(
  baseline: Estimate | undefined,
  current: Estimate | undefined,
  margin: number,
  worse: Worse,
  sessionSd: number = SESSION_SD,
): GateJudgement {
  if (baseline === undefined || current === undefined || !(baseline.median > 0) || !(current.median > 0)) {
    return { verdict: 'not-testable', margin, detectable: Infinity, changeCi95: [0, 0] };
  }
  const d = Math.log(current.median / baseline.median);
  // Both reports' intervals, and a session's effect on each side (the difference of two: √2).
  const h = Math.hypot(combinedLogHalfWidth(baseline, current), Z95 * sessionSd * Math.SQRT2);
  const m = Math.log1p(margin);
  const changeCi95: [number, number] = [round4(Math.expm1(d - h)), round4(Math.expm1(d + h))];
  const detectable = round4(Math.expm1(m + h));
  const wentDown = d + h < -m;
  const wentUp = d - h > m;
  const verdict: Verdict = !wentDown && !wentUp ? 'unchanged' : wentUp === (worse === 'higher') ? 'regressed' : 'improved';
  return { verdict, margin, detectable, changeCi95 };
}

/** A summary as an estimate for the gate; undefined when it has no interval (too few runs). */
export function summaryEstimate(s: Summary | undefined): Estimate | undefined {
  if (s === undefined || s.intervalNote !== undefined || s.runs.length < 2) return undefined;
  return { median: s.median, ci95: s.ci95 };
}

/** A cell's raw requests/s with the widest interval it carries: across server processes when measured so. */
export function rawEstimate(cell: CellResult): Estimate | undefined {
  const across = cell.acrossProcesses;
  if (across !== undefined) return { median: cell.requestsPerSec.median, ci95: across.ci95 };
  return summaryEstimate(cell.requestsPerSec);
}

/** A cell's drift-cancelled throughput (requests per reference unit), when measured. */
export function driftCancelledEstimate(cell: CellResult): Estimate | undefined {
  return summaryEstimate(cell.driftCancelled?.requestsPerUnit);
}

/** Both figures must fall (or rise) for the cell to; one not testable leaves the other to decide. */
export function bothAgree(raw: GateJudgement, cancelled: GateJudgement | undefined): Verdict {
  if (cancelled === undefined || cancelled.verdict === 'not-testable') return raw.verdict;
  if (raw.verdict === 'not-testable') return cancelled.verdict;
  return raw.verdict === cancelled.verdict ? raw.verdict : 'unchanged';
}

/** Folds a gate judgement into the metric change the report already carries (verdict, margin, interval). */
export function withJudgement(metric: Omit<MetricChange, 'verdict'>, verdict: Verdict, judged: GateJudgement): MetricChange & GateFields {
  return { ...metric, verdict, margin: judged.margin, detectable: judged.detectable, changeCi95: judged.changeCi95 };
}

export interface GateFields {
  margin: number;
  detectable: number;
  changeCi95: [number, number];
}
