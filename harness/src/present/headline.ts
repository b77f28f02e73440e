/**
 * Headline figures with how sure they are, in the words of verdict-words.ts: a ratio whose
 * narrow 95 % interval holds 1 is "no gain", whatever its median says.
 */
import { formatRatio } from './formats.ts';
import { pairedRatioInterval as byRound } from '../stats/paired.ts';
import { verdictWords } from './verdict-words.ts';

export type Interval = readonly [number, number];

/**
 * "95 % CI 1.90x-2.31x", with the verdict's word where the interval alone does not carry it:
 * "no gain (95 % CI 0.97x-1.04x)", "could not tell (95 % CI 0.73x-1.10x)", "could not tell: the
 * host was shared during async", "faster, too uncertain to size (95 % CI 1.15x-1.90x)".
 */
export function ratioConfidence(ci: Interval, doubt?: string): string {
  const text = `95 % CI ${formatRatio(ci[0])}-${formatRatio(ci[1])}`;
  const words = verdictWords({ ratio: Math.sqrt(ci[0] * ci[1]), ci, doubt });
  if (words.kind === 'no-data') return words.text;
  if (words.kind === 'unsized') return `${words.word}, too uncertain to size (${text})`;
  return words.kind === 'no-gain' || words.kind === 'unclear' ? `${words.word} (${text})` : text;
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
