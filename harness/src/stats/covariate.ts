/**
 * A mean corrected for a covariate measured beside it whose expected value is known to be 0
 * (regression adjustment; in A/B testing, CUPED: Deng, Xu, Kohavi and Walker, "Improving the
 * sensitivity of online controlled experiments by utilizing pre-experiment data", 2013).
 *
 * bench:ab's use: y is a pair of server processes' mean log ratio B/A, x the mean log of the
 * machine's speed during B's runs over during A's (system/speed-sampler.ts, which times CPU work
 * beside the server, not the server). The lanes alternate, A B | B A, so by design neither side
 * runs on the faster machine: x's expected value is 0, and the slope of y on x is the share of a
 * round's B/A that the machine's speed, not the code, moved. The intercept (y where x is 0: the
 * machine equally fast for both) is the estimate, with its ordinary least squares interval, on
 * n - 2 degrees of freedom. Where y does not move with x it is about as wide as the plain mean's
 * (a little wider: one degree of freedom spent on the slope); where it does, narrower by
 * √(1 - correlation²). Pure.
 */
import { mean, tCritical95 } from './stats.ts';

export interface AdjustedMean {
  /** The intercept: y's mean where the covariate is 0. */
  mean: number;
  /** Half-width of its 95 % interval, in y's units. */
  half: number;
  /** n - 2. */
  df: number;
  /** How much y moves per unit of x. */
  slope: number;
  /** Pearson's r of y and x. */
  correlation: number;
}

/** Fewest points for the adjustment: n - 2 = 2 degrees of freedom (t 4.3), as the plain interval's fewest are 2. */
export const MIN_ADJUSTED_POINTS = 4;

/** The intercept at x = 0 with its interval; undefined with fewer than MIN_ADJUSTED_POINTS points or an x that never moved. */
export function adjustedMean(y: readonly number[], x: readonly number[]): AdjustedMean | undefined {
  const n = y.length;
  if (n !== x.length || n < MIN_ADJUSTED_POINTS) return undefined;
  const [mx, my] = [mean(x), mean(y)];
  let [sxx, syy, sxy] = [0, 0, 0];
  x.forEach((xi, i) => {
    const [dx, dy] = [xi - mx, (y[i] ?? 0) - my];
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  });
  // An x that never moved can leave a rounding error's spread (a mean one ulp off): no slope to fit.
  if (!(sxx > n * (1e-9 * Math.max(Math.abs(mx), 1)) ** 2)) return undefined;
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const residual = y.reduce((sum, v, i) => sum + (v - intercept - slope * (x[i] ?? 0)) ** 2, 0);
  const df = n - 2;
  const se = Math.sqrt((residual / df) * (1 / n + (mx * mx) / sxx));
  return { mean: intercept, half: tCritical95(df) * se, df, slope, correlation: syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0 };
}
