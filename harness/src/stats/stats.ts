/**
 * Statistics over the figures of repeated runs. Pure functions, no I/O.
 *
 * Rounding: computation keeps full precision; only what goes into the report is rounded,
 * to 3 decimal places (`roundFigure`). That is microsecond resolution for latencies in ms,
 * a thousandth of a request/s for throughput, and 0.1 % for a CV - far below the run-to-run
 * noise of any of them, while keeping report.json free of 17-digit floats.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { coefficientOfVariation, mean as ssMean, median as ssMedian, sampleStandardDeviation } from 'simple-statistics';
import type { Summary } from '../model/cell.ts';

export const FIGURE_DECIMALS = 3;

/**
 * Two-sided 95 % critical values of Student's t for df = 1..30 (index 0 is df 1), to 3 decimals
 * as in the printed tables: every interval in the published reports used these, so they stay a
 * table rather than the exact quantile (stats.test checks them against @stdlib's quantile).
 * Beyond 30, @stdlib's quantile to the same 3 decimals: bench:ab judges a cell over up to 50 pairs
 * of processes, where 1.96 would make its interval 2.5-4 % too narrow.
 */
const T_CRITICAL_95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
] as const;

/** Rounds a figure for the report (see the file comment for why 3 decimals). */
export function roundFigure(x: number, decimals: number = FIGURE_DECIMALS): number {
  const factor = 10 ** decimals;
  // Adding EPSILON relative to x avoids 1.0005 * 1000 landing just below .5.
  const rounded = Math.round((x + Math.sign(x) * Number.EPSILON * Math.abs(x)) * factor) / factor;
  // Normalise -0 so JSON and string output never show "-0".
  return rounded === 0 ? 0 : rounded;
}

/** Median; 0 for no values, so an empty cell summarises to zeros rather than NaN (which JSON cannot hold). */
export function median(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : ssMedian(xs);
}

/** Arithmetic mean; 0 for no values (same reason as `median`). */
export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : ssMean(xs);
}

/** Sample standard deviation (n - 1 denominator); 0 for fewer than 2 values. */
export function sampleStdDev(xs: readonly number[]): number {
  return xs.length < 2 ? 0 : sampleStandardDeviation(xs);
}

/** Coefficient of variation: sample std dev / mean; 0 when it is undefined (n < 2 or mean 0). */
export function cv(xs: readonly number[]): number {
  if (xs.length < 2 || mean(xs) === 0) return 0;
  return coefficientOfVariation(xs);
}

/**
 * @stdlib's quantiles beyond the table, by df, as computed: each is an iterative inversion of the
 * incomplete beta, and bench:ab's rule asks for the same few dozen again and again (budget.ts's
 * runsToGoal walks every df up to its cap on each call).
 */
const tBeyondTable = new Map<number, number>();

/** Two-sided 95 % critical value of Student's t for `df` degrees of freedom (df >= 1). */
export function tCritical95(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  const tabled = T_CRITICAL_95[df - 1];
  if (tabled !== undefined) return tabled;
  let t = tBeyondTable.get(df);
  if (t === undefined) {
    t = Math.round(tQuantile(0.975, df) * 1000) / 1000;
    tBeyondTable.set(df, t);
  }
  return t;
}

/**
 * 95 % confidence interval of the mean: mean ± t(n-1) * s / sqrt(n).
 * With fewer than 2 values there is no spread to speak of, so the interval is the value itself.
 */
export function ci95(xs: readonly number[]): [number, number] {
  if (xs.length === 0) return [0, 0];
  const m = mean(xs);
  if (xs.length < 2) return [m, m];
  const halfWidth = (tCritical95(xs.length - 1) * sampleStdDev(xs)) / Math.sqrt(xs.length);
  return [m - halfWidth, m + halfWidth];
}

/**
 * The report's summary of one figure across runs: median (robust to one odd run) with the
 * 95 % CI of the mean and the CV as the measure of spread. Outputs rounded, inputs untouched.
 */
export function summarize(xs: readonly number[]): Summary {
  const m = roundFigure(median(xs));
  const base = { median: m, cv: roundFigure(cv(xs)), runs: xs.map((x) => roundFigure(x)) };
  if (xs.length < MIN_RUNS_FOR_INTERVAL) {
    const note =
      xs.length === 0
        ? 'no runs'
        : `${xs.length} run${xs.length === 1 ? '' : 's'}: too few for an interval (${MIN_RUNS_FOR_INTERVAL} or more)`;
    return { median: m, ci95: [m, m], cv: base.cv, runs: base.runs, intervalNote: note };
  }
  const [low, high] = ci95(xs);
  // The figures summarised (requests/s) cannot be negative; a t-interval that dips below zero
  // only says the runs disagree wildly, which the CV already says.
  const ci: [number, number] = [roundFigure(Math.max(0, low)), roundFigure(high)];
  // Precision stated per cell: half the interval as a share of the median.
  const share = m === 0 ? 0 : roundFigure((ci[1] - ci[0]) / 2 / m, 4);
  return { median: m, ci95: ci, cv: base.cv, runs: base.runs, halfWidthShare: share };
}

/**
 * Fewest runs for a 95 % interval: with 2, Student's t is 12.7 and the interval is ±13 standard
 * deviations wide (e.g. "-76,581 to 100,281 req/s"), which says nothing a reader can use.
 */
export const MIN_RUNS_FOR_INTERVAL = 3;
