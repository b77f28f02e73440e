/**
 * Headline figures with how sure they are. A ratio whose narrow 95 % interval holds 1 is
 * "no measurable difference", whatever its median says; a wide one is inconclusive.
 */
import { formatRatio } from './text/formats.ts';
import { holdsOne, pairedRatioInterval as byRound } from '../stats/paired.ts';
import { inconclusiveText, ratioVerdict } from './ratio-verdict.ts';

export type Interval = readonly [number, number];

export { holdsOne };

/**
 * "95 % CI 1.90x-2.31x"; "no measurable difference (95 % CI 0.97x-1.04x)" when a narrow interval
 * holds 1; "inconclusive: ... (95 % CI ...)" when the interval is too wide or `doubt` says the
 * cells cannot carry it (ratio-verdict.ts).
 */
export function ratioConfidence(ci: Interval, doubt?: string): string {
  const text = `95 % CI ${formatRatio(ci[0])}-${formatRatio(ci[1])}`;
  const verdict = ratioVerdict(Math.sqrt(ci[0] * ci[1]), ci, doubt);
  if (verdict.reading === 'inconclusive') return `${inconclusiveText(verdict)} (${text})`;
  return verdict.reading === 'same' ? `no measurable difference (${text})` : text;
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
