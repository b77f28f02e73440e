/**
 * Headline figures with how sure they are. A ratio whose 95 % interval holds 1 is "no
 * measurable difference" (shared/DESIGN.md section 3), whatever its median says.
 */
import { formatRatio } from './render/format.ts';
import { ci95 } from './stats.ts';

export type Interval = readonly [number, number];

/** The interval holds 1: the data cannot tell the two sides apart. */
export const holdsOne = (ci: Interval): boolean => ci[0] <= 1 && ci[1] >= 1;

/** "95 % CI 1.90x-2.31x", or "no measurable difference (95 % CI 0.97x-1.04x)" when it holds 1. */
export function ratioConfidence(ci: Interval): string {
  const text = `95 % CI ${formatRatio(ci[0])}-${formatRatio(ci[1])}`;
  return holdsOne(ci) ? `no measurable difference (${text})` : text;
}

/**
 * 95 % interval of the ratio over / base from per-run figures, run i with run i: the t interval
 * of the log-ratios, mapped back, since a ratio is skewed. Undefined with fewer than 3 pairs (the
 * report's own rule: fewer runs give no usable interval). Where a report carries its own
 * interval for a ratio, quote that instead.
 */
export function pairedRatioInterval(over: readonly number[], base: readonly number[]): Interval | undefined {
  const logs = over.flatMap((o, i) => {
    const b = base[i];
    return b !== undefined && b > 0 && o > 0 ? [Math.log(o / b)] : [];
  });
  if (logs.length < 3) return undefined;
  const [lo, hi] = ci95(logs);
  return [Math.exp(lo), Math.exp(hi)];
}
