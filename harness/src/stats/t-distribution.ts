/**
 * Student's t distribution: two-sided p-values and Welch's t-test, for the report comparison
 * (compare.ts says why Welch). The CDF is @stdlib's, from the same family as the beta
 * distributions the step decision uses; it takes fractional degrees of freedom (Welch's df
 * rarely is an integer) and computes the smaller tail directly, so p keeps its relative
 * precision far into the tail.
 *
 * simple-statistics (7.12) has `tTestTwoSample`, but it pools the variances (Student's test, not
 * Welch's) and returns only the statistic. Pure functions, no I/O.
 */
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { mean, sampleStdDev } from './stats.ts';
import type { WelchTest } from '../model/change.ts';

function checkDf(df: number): void {
  if (!(df > 0) || Number.isNaN(df)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
}

/**
 * Two-sided p-value of a t statistic: P(|T| >= |t|) with `df` degrees of freedom (df need not be
 * an integer). Twice the lower tail at -|t|, which the library computes without cancellation.
 */
export function studentTTwoSidedP(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) throw new RangeError('t statistic is NaN');
  return 2 * tCdf(-Math.abs(t), df);
}

/** Cumulative distribution function of Student's t: P(T <= t). */
export function studentTCdf(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) throw new RangeError('t statistic is NaN');
  return tCdf(t, df);
}

export type { WelchTest };

/**
 * Welch's unequal-variances t-test of current against baseline; null with fewer than 2 runs on
 * a side (no variance to estimate). t > 0 means the current mean is higher.
 */
export function welchTTest(baseline: readonly number[], current: readonly number[]): WelchTest | null {
  const n1 = baseline.length;
  const n2 = current.length;
  if (n1 < 2 || n2 < 2) return null;
  const v1 = sampleStdDev(baseline) ** 2 / n1;
  const v2 = sampleStdDev(current) ** 2 / n2;
  const diff = mean(current) - mean(baseline);
  if (v1 + v2 === 0) {
    // No spread at all (identical runs): the difference is exact, so p is 0 or 1 - the limit of
    // the test as the spread shrinks. df is left at its pooled value, for display only.
    const t = diff === 0 ? 0 : Math.sign(diff) * Number.POSITIVE_INFINITY;
    return { t, df: n1 + n2 - 2, p: diff === 0 ? 1 : 0 };
  }
  const t = diff / Math.sqrt(v1 + v2);
  const df = (v1 + v2) ** 2 / (v1 ** 2 / (n1 - 1) + v2 ** 2 / (n2 - 1));
  return { t, df, p: studentTTwoSidedP(t, df) };
}
