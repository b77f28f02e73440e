/**
 * Paired ratios: the runs of two compared cells alternate (report round by round,
 * bench/schedule.ts), so each round gives one ratio of neighbours in time, and a drift of the
 * machine's speed cancels inside the pair instead of landing on one cell. The interval is a
 * Student's t interval on the log ratios, back-transformed: a geometric mean ratio with its
 * 95 % interval, symmetric in over/base (1/x of the pairs gives 1/x of the interval). Pure.
 */
import { mean, sampleStdDev, tCritical95 } from './stats.ts';
import type { RunResult, Summary } from '../model/cell.ts';

export interface PairedRatio {
  /** Geometric mean of the per-round ratios. */
  ratio: number;
  ci95: [number, number];
  /** Rounds in which both cells had a run. */
  pairs: number;
}

/** Fewest pairs for an interval: with two, t is 12.7 and the interval says nothing. */
export const MIN_PAIRS = 3;

/**
 * `format(x, n)` from n = `from` up, until it no longer reads 1 for an x that is not 1: a bound
 * kept or shown as 1.000 would hold 1 where the interval did not, and a verdict read again from
 * it would differ from the one judged.
 */
function offOne(x: number, from: number, format: (x: number, n: number) => string): string {
  let n = from;
  let text = format(x, n);
  while (Number(text) === 1 && x !== 1 && n < 12) text = format(x, ++n);
  return text;
}

/** 4 significant figures, or as many more as keep a ratio that is not 1 off 1 (offOne). */
export const sig4 = (x: number): number => Number(offOne(x, 4, (v, n) => v.toPrecision(n)));

/** A ratio to `decimals` places, or as many more as keep one that is not 1 from reading 1.000 (offOne). */
export const ratioText = (x: number, decimals = 3): string => offOne(x, decimals, (v, n) => v.toFixed(n));

/** The t interval of the mean log ratio, rounded to 4 significant figures for a report; undefined as exactRatioInterval. */
export function pairedRatioInterval(ratios: readonly number[]): PairedRatio | undefined {
  const exact = exactRatioInterval(ratios);
  return exact === undefined ? undefined : roundedInterval(exact);
}

/**
 * The t interval of the mean log ratio at full precision, for a rule that judges on it (a bound
 * rounded to 1.000 holds 1 where the interval did not); undefined with fewer than MIN_PAIRS
 * ratios or any not positive.
 */
export function exactRatioInterval(ratios: readonly number[]): PairedRatio | undefined {
  if (ratios.length < MIN_PAIRS || ratios.some((r) => !(r > 0) || !Number.isFinite(r))) return undefined;
  const logs = ratios.map(Math.log);
  const m = mean(logs);
  const half = (tCritical95(logs.length - 1) * sampleStdDev(logs)) / Math.sqrt(logs.length);
  return { ratio: Math.exp(m), ci95: [Math.exp(m - half), Math.exp(m + half)], pairs: ratios.length };
}

/** A ratio and its interval as a report shows them: 4 significant figures. */
export function roundedInterval<T extends { ratio: number; ci95: readonly [number, number] }>(x: T): T & { ci95: [number, number] } {
  return { ...x, ratio: sig4(x.ratio), ci95: [sig4(x.ci95[0]), sig4(x.ci95[1])] };
}

/**
 * The per-round ratios of `over` to `base` requests/s: runs matched by their round; runs with
 * no round (older reports) or no partner are left out.
 */
export function roundRatios(over: readonly RunResult[], base: readonly RunResult[]): number[] {
  const byRound = new Map<number, number>();
  for (const run of base) if (run.round !== undefined && run.requestsPerSec > 0) byRound.set(run.round, run.requestsPerSec);
  const out: number[] = [];
  for (const run of over) {
    const partner = run.round === undefined ? undefined : byRound.get(run.round);
    if (partner !== undefined && run.requestsPerSec > 0) out.push(run.requestsPerSec / partner);
  }
  return out;
}

/** Whether an interval holds 1: the two cells cannot be told apart ("no measurable difference"). */
export function holdsOne(ci: readonly [number, number]): boolean {
  return ci[0] <= 1 && ci[1] >= 1;
}

/**
 * A summary's 95 % interval half-width as a share of its median (0.05 = ±5 %): the precision
 * the report states per cell. 0 for a median of 0; Infinity when there is no interval (too few runs).
 */
export function halfWidthShare(summary: Pick<Summary, 'median' | 'ci95' | 'intervalNote'>): number {
  if (summary.intervalNote !== undefined) return Infinity;
  if (summary.median === 0) return 0;
  return (summary.ci95[1] - summary.ci95[0]) / 2 / summary.median;
}
