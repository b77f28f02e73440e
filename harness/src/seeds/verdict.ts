// The verdict rule (docs/seeds.md), as pure functions over paired runs.
import { ci95, median } from '../stats/stats.ts';

export type Verdict = 'holds' | 'partly' | 'does not hold' | 'inconclusive' | 'not measured';

export interface RatioSummary {
  /** async over sync (or the claim's own pair), one per run, each run measuring both back to back. */
  runs: number[];
  median: number;
  /** 95 % interval of the ratio: the t interval of the runs' log-ratios, mapped back (a ratio is skewed). */
  ci95: [number, number];
}

/** Ratios of paired runs; a run with a zero denominator cannot carry a ratio and is left out. */
export function pairedRatios(numerators: readonly number[], denominators: readonly number[]): number[] {
  return numerators.flatMap((n, i) => {
    const d = denominators[i];
    return d !== undefined && d > 0 && n > 0 ? [n / d] : [];
  });
}

export function summarizeRatio(ratios: readonly number[]): RatioSummary | undefined {
  if (ratios.length === 0) return undefined;
  const [lo, hi] = ci95(ratios.map(Math.log));
  return { runs: [...ratios], median: median(ratios), ci95: [Math.exp(lo), Math.exp(hi)] };
}

/**
 * A "no difference" claim (claimed ratio 1) counts as partly true when the measured interval
 * lies inside 1 ± this: a real but small difference.
 */
export const NEAR_EQUAL = 0.1;

/**
 * An interval spanning more than this factor (high over low) says little: a claim inside it is
 * neither confirmed nor refuted, where a claim outside it still is.
 */
export const WIDE_INTERVAL = 4;

/**
 * - claimed ratio inside the measured 95 % interval: holds, unless the interval spans more than
 *   WIDE_INTERVAL: inconclusive (two runs that disagree hold almost any claim);
 * - a claimed effect (ratio != 1): interval wholly on the claim's side of 1 but not covering the
 *   claimed figure: partly; interval covering 1 (no effect shown) or on the other side: does not hold;
 * - a claimed non-effect (ratio 1): interval inside 1 ± NEAR_EQUAL: partly; else does not hold.
 * Fewer than 2 runs give no interval, so no verdict.
 */
export function verdict(claimed: number, measured: RatioSummary | undefined): Verdict {
  if (measured === undefined || measured.runs.length < 2) return 'not measured';
  const [lo, hi] = measured.ci95;
  if (lo <= claimed && claimed <= hi) return hi / lo > WIDE_INTERVAL ? 'inconclusive' : 'holds';
  if (claimed === 1) return lo >= 1 - NEAR_EQUAL && hi <= 1 + NEAR_EQUAL ? 'partly' : 'does not hold';
  const sameSide = claimed > 1 ? lo > 1 : hi < 1;
  return sameSide ? 'partly' : 'does not hold';
}
