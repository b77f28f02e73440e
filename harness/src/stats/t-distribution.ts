/**
 * Student's t distribution: the CDF, two-sided p-values, and Welch's t-test built on them, for
 * the report comparison (compare.ts says why Welch).
 *
 * simple-statistics (7.12) has `tTestTwoSample`, but it pools the variances (Student's test, not
 * Welch's) and returns only the statistic; it has no t CDF and no incomplete beta function. So the
 * CDF is computed here through the regularized incomplete beta function, whose continued fraction
 * converges fast for the small degrees of freedom a handful of runs gives (Numerical Recipes,
 * 2nd ed., section 6.4, `betai` / `betacf`). Pure functions, no I/O.
 */
import { gammaln } from 'simple-statistics';
import { mean, sampleStdDev } from './stats.ts';
import type { WelchTest } from '../model/change.ts';

/** Relative accuracy the continued fraction stops at: near double precision. */
const EPSILON = 1e-15;
/** Keeps the modified Lentz recurrence away from dividing by zero. */
const TINY = 1e-300;
/** Far more than the ~sqrt(max(a, b)) terms convergence needs for any df a benchmark produces. */
const MAX_ITERATIONS = 10_000;

/**
 * The continued fraction of the incomplete beta function, evaluated with the modified Lentz
 * method. Converges quickly for x < (a + 1) / (a + b + 2); the caller uses the symmetry
 * I_x(a, b) = 1 - I_(1-x)(b, a) to stay in that region.
 */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const guard = (v: number): number => (Math.abs(v) < TINY ? TINY : v);
  let c = 1;
  let d = 1 / guard(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    // Even step of the fraction.
    const even = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 / guard(1 + even * d);
    c = guard(1 + even / c);
    h *= d * c;
    // Odd step.
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 / guard(1 + odd * d);
    c = guard(1 + odd / c);
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) return h;
  }
  throw new RangeError(`incomplete beta did not converge for a=${a}, b=${b}, x=${x}`);
}

/** The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0)) throw new RangeError(`incomplete beta needs a, b > 0, got a=${a}, b=${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`incomplete beta needs 0 <= x <= 1, got ${x}`);
  if (x === 0 || x === 1) return x;
  // x^a (1-x)^b / B(a, b), in logs so large a or b do not overflow.
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

function checkDf(df: number): void {
  if (!(df > 0) || Number.isNaN(df)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
}

/**
 * Two-sided p-value of a t statistic: P(|T| >= |t|) with `df` degrees of freedom (df need not be
 * an integer: Welch's df rarely is). Equals I_(df / (df + t^2))(df / 2, 1 / 2).
 */
export function studentTTwoSidedP(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) throw new RangeError('t statistic is NaN');
  if (!Number.isFinite(t)) return 0;
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Cumulative distribution function of Student's t: P(T <= t). */
export function studentTCdf(t: number, df: number): number {
  const tail = studentTTwoSidedP(t, df) / 2;
  return t >= 0 ? 1 - tail : tail;
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
