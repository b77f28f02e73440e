/**
 * Headline figures with how sure they are. A ratio whose 95 % interval holds 1 is "no
 * measurable difference" (docs/design.md, "Measurement principles"), whatever its median says.
 */
import { formatRatio } from './text/formats.ts';
import { holdsOne, pairedRatioInterval as byRound } from '../stats/paired.ts';

export type Interval = readonly [number, number];

export { holdsOne };

/** "95 % CI 1.90x-2.31x", or "no measurable difference (95 % CI 0.97x-1.04x)" when it holds 1. */
export function ratioConfidence(ci: Interval): string {
  const text = `95 % CI ${formatRatio(ci[0])}-${formatRatio(ci[1])}`;
  return holdsOne(ci) ? `no measurable difference (${text})` : text;
}

/**
 * 95 % interval of the ratio over / base from per-run figures taken in order, run i with run i
 * (stats/paired.ts's log-ratio interval). For reports older than paired rounds; where a report
 * carries its own paired interval (comparisons[].*.throughputCi95), quote that instead.
 */
export function pairedRatioInterval(over: readonly number[], base: readonly number[]): Interval | undefined {
  const ratios = over.flatMap((o, i) => {
    const b = base[i];
    return b !== undefined && b > 0 && o > 0 ? [o / b] : [];
  });
  return byRound(ratios)?.ci95;
}
