/**
 * A distribution-free 95 % interval for a median: the order statistics x(k) and x(n-k+1) with k
 * the largest for which P(Binomial(n, 1/2) < k) <= 2.5 %. It assumes nothing of the shape, which
 * suits latency differences (skewed, with outliers). Pure.
 */
import { median, roundFigure } from './stats.ts';

/** Fewest values with a 95 % interval: at 6, x(1)..x(6) covers 1 - 2/64 = 96.9 %. */
export const MIN_MEDIAN_VALUES = 6;

/** log of n choose i, summed in logs so n in the thousands does not overflow. */
function logChoose(n: number, i: number): number {
  let sum = 0;
  for (let j = 1; j <= i; j++) sum += Math.log(n - i + j) - Math.log(j);
  return sum;
}

/** The 1-based rank k of the interval's lower end, or 0 when n is too small for any. */
export function lowerRank(n: number): number {
  let cumulative = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    cumulative += Math.exp(logChoose(n, i) - n * Math.LN2);
    if (cumulative > 0.025) break;
    k = i + 1;
  }
  return k;
}

/** The median with its interval (undefined below MIN_MEDIAN_VALUES values), rounded as the report rounds figures. */
export function medianWithInterval(xs: readonly number[]): { median: number; ci95?: [number, number] } {
  const sorted = [...xs].sort((a, b) => a - b);
  const k = lowerRank(sorted.length);
  const mid = roundFigure(median(sorted));
  if (k === 0) return { median: mid };
  return { median: mid, ci95: [roundFigure(sorted[k - 1] ?? 0), roundFigure(sorted[sorted.length - k] ?? 0)] };
}
