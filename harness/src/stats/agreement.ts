/**
 * When two measurements of one figure agree: the reproducibility rule. Two medians agree when
 * they are within their combined 95 % interval or AGREEMENT_FLOOR of each other, whichever is
 * larger. Pure.
 *
 * Why combined, not "each median inside the other's interval": two estimates of one quantity,
 * each with a 95 % interval, differ by more than either interval about a third of the time; the
 * difference of two independent estimates has the half-width sqrt(a² + b²). Why a floor: a ratio
 * measured to ±0.6 % in two runs minutes apart (bun sleep async/sync 9.98 and 10.05) is the same
 * finding; below a few per cent nobody reading the report acts on a difference, and a host that
 * drifts moves even paired figures by that much.
 *
 * The arithmetic is on logarithms: figures here are rates and ratios, whose errors are relative
 * (a 10 % interval on 500 req/s and on 5,000 req/s is the same precision), and a ratio's interval
 * is symmetric only on a log scale (1/x of the pairs gives 1/x of the interval).
 */

/** Smallest relative difference that counts as disagreement, whatever the intervals say. */
export const AGREEMENT_FLOOR = 0.03;

export interface Estimate {
  median: number;
  ci95: readonly [number, number];
}

export interface Agreement {
  agree: boolean;
  /** current / baseline - 1: the signed relative difference of the medians. */
  difference: number;
  /** The allowance it was held to, as a relative difference (the larger of the combined interval and the floor). */
  allowed: number;
}

/** Half the width of an interval on a log scale (0 when it has no width or is not positive). */
export function logHalfWidth(ci: readonly [number, number]): number {
  const [lo, hi] = ci;
  if (!(lo > 0) || !(hi > 0) || hi <= lo) return 0;
  return Math.log(hi / lo) / 2;
}

/** The combined half-width of two estimates' difference, on a log scale. */
export function combinedLogHalfWidth(a: Estimate, b: Estimate): number {
  return Math.hypot(logHalfWidth(a.ci95), logHalfWidth(b.ci95));
}

/**
 * Whether `current` reproduces `baseline` by the rule above; undefined when either median is not
 * positive (nothing to compare on a log scale).
 */
export function agreement(baseline: Estimate, current: Estimate, floor: number = AGREEMENT_FLOOR): Agreement | undefined {
  if (!(baseline.median > 0) || !(current.median > 0)) return undefined;
  const logDiff = Math.log(current.median / baseline.median);
  const allowedLog = Math.max(combinedLogHalfWidth(baseline, current), Math.log1p(floor));
  return { agree: Math.abs(logDiff) <= allowedLog, difference: Math.exp(logDiff) - 1, allowed: Math.exp(allowedLog) - 1 };
}
