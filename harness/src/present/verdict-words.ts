/**
 * The one vocabulary every renderer (console, report.md, report.html, the site, the README and
 * docs blocks) uses for a ratio's verdict, with its legend. The statistics stay in
 * ratio-verdict.ts; this file only says what each reading is called:
 *   faster: 1.82x, 1.65–2.01x                         the interval lies on one side of 1, narrow enough to size
 *   faster, by 15 to 90 % (too uncertain to size)     on one side of 1, but over 1.5x end to end
 *   no gain: 0.99x, 0.96–1.03x                        holds 1 and rules out a change beyond the margin
 *   could not tell: 0.73–1.10x                        holds 1 and reaches past the margin
 *   could not tell: the host was shared during async  the cells cannot carry a figure
 * and, for the figures that have no interval, what a bystander waits and what a request costs.
 * Pure.
 */
import { NO_DIFFERENCE_WITHIN, type RatioReading, type RatioVerdict, ratioVerdict, WIDEST_READABLE } from './ratio-verdict.ts';
import { formatRatio } from './formats.ts';

export type Interval = readonly [number, number];

/** The verdict's kind as the legend lists it: each kind one line of the legend. */
export type VerdictKind = 'sized' | 'unsized' | 'no-gain' | 'unclear' | 'no-data' | 'no-interval';

export function verdictKind(verdict: RatioVerdict): VerdictKind {
  const kinds: Record<RatioReading, VerdictKind> = {
    more: 'sized',
    less: 'sized',
    wide: 'unsized',
    same: 'no-gain',
    'no-interval': 'no-interval',
    inconclusive: verdict.doubt === true ? 'no-data' : 'unclear',
  };
  return kinds[verdict.reading];
}

/** "1.80–2.00x": an interval at the ratio's own precision. */
export function intervalText(ci: Interval): string {
  return `${formatRatio(ci[0]).slice(0, -1)}–${formatRatio(ci[1])}`;
}

/** A share as a whole per cent, or one decimal under 1 % so a change never reads "by 0". */
const percentOf = (share: number): string => (share < 0.01 ? (share * 100).toFixed(1) : String(Math.round(share * 100)));

/**
 * How far a wide interval on one side of 1 reaches: "by 15 to 90 %" (faster), "by 20 to 70 %"
 * (slower), or "3.2 to 5.4 times as fast" where a percentage would pass 200.
 */
export function spanText(ci: Interval, direction: 'more' | 'less'): string {
  if (direction === 'less') return `by ${percentOf(1 - ci[1])} to ${percentOf(1 - ci[0])} %`;
  if (ci[1] < 3) return `by ${percentOf(ci[0] - 1)} to ${percentOf(ci[1] - 1)} %`;
  return `${formatRatio(ci[0]).slice(0, -1)} to ${formatRatio(ci[1]).slice(0, -1)} times as fast`;
}

const DIRECTION_WORDS = { more: 'faster', less: 'slower' } as const;

export interface VerdictWords {
  verdict: RatioVerdict;
  kind: VerdictKind;
  /** The whole verdict: "faster: 1.82x, 1.65–2.01x", "could not tell: 0.73–1.10x". */
  text: string;
  /** The word alone: "faster", "slower", "no gain", "could not tell", or the figure where there is no interval. */
  word: string;
  /** What follows the word: "1.82x, 1.65–2.01x", "by 15 to 90 % (too uncertain to size)", "the host was shared during async". */
  detail: string;
}

/**
 * A requests/s ratio (over / base) in the vocabulary. `doubt`: why the cells cannot carry a figure
 * (ratio-verdict.ts cellsDoubt); such a ratio is not quoted at all.
 */
export function verdictWords(row: { ratio: number; ci?: Interval | undefined; doubt?: string | undefined }): VerdictWords {
  const verdict = ratioVerdict(row.ratio, row.ci, row.doubt);
  const kind = verdictKind(verdict);
  const figures = row.ci === undefined ? formatRatio(row.ratio) : `${formatRatio(row.ratio)}, ${intervalText(row.ci)}`;
  const say = (word: string, detail: string, joiner = ': '): VerdictWords => ({
    verdict,
    kind,
    word,
    detail,
    text: `${word}${joiner}${detail}`,
  });
  switch (verdict.reading) {
    case 'more':
    case 'less':
      return say(DIRECTION_WORDS[verdict.reading], figures);
    case 'wide': {
      const direction = verdict.direction ?? (row.ratio > 1 ? 'more' : 'less');
      return say(DIRECTION_WORDS[direction], `${spanText(row.ci ?? [row.ratio, row.ratio], direction)} (too uncertain to size)`, ', ');
    }
    case 'same':
      return say('no gain', figures);
    case 'no-interval':
      return say(formatRatio(row.ratio), '(too few runs for an interval)', ' ');
    case 'inconclusive':
      return say(
        'could not tell',
        verdict.doubt === true ? (verdict.why ?? 'the cells cannot carry a figure') : row.ci === undefined ? figures : intervalText(row.ci),
      );
  }
}

/** The legend's line for each kind, in the order a reader meets them. */
const LEGEND: readonly [VerdictKind, string][] = [
  ['sized', '**faster / slower: 1.82x, 1.65–2.01x**: the ratio (paired runs) and its 95 % interval, which lies on one side of 1'],
  [
    'unsized',
    `**faster, by 15 to 90 % (too uncertain to size)**: the interval lies on one side of 1 but is over ${WIDEST_READABLE}x end to end: the direction is known, the size is not`,
  ],
  ['no-gain', `**no gain: 0.99x, 0.96–1.03x**: the interval holds 1 and rules out a change beyond ±${NO_DIFFERENCE_WITHIN * 100} %`],
  [
    'unclear',
    `**could not tell: 0.73–1.10x**: the interval holds 1 but reaches beyond ±${NO_DIFFERENCE_WITHIN * 100} %: neither a change nor its absence is shown`,
  ],
  [
    'no-data',
    '**could not tell: the host was shared / a server failed**: the cells behind the ratio cannot carry a figure, so none is quoted',
  ],
  ['no-interval', '**1.48x (too few runs for an interval)**: the ratio alone, with no verdict'],
];

/** The legend, listing only the kinds given (every kind when none are). */
export function verdictLegend(kinds?: Iterable<VerdictKind>): string[] {
  const used = kinds === undefined ? undefined : new Set(kinds);
  return LEGEND.filter(([kind]) => used === undefined || used.has(kind)).map(([, line]) => line);
}

/** The same legend without Markdown emphasis, for the console and HTML. */
export const plainLegend = (kinds?: Iterable<VerdictKind>): string[] => verdictLegend(kinds).map((l) => l.replace(/\*\*/g, ''));

/** "170x", "2.7x": a factor at two significant figures, whole from 10 up. */
export const timesText = (x: number): string => `${x >= 10 ? Math.round(x) : Number(x.toPrecision(2))}x`;

/**
 * A change no figure without an interval is sized finer than: within ±5 % a bystander waits
 * "about as long" and a request costs "the same CPU".
 */
export const ABOUT_SAME = 0.05;

/** What one more caller waits, over / base of its p99: "waits 170x less", "waits 1.3x longer", "waits about as long". */
export function bystanderWords(ratio: number): string {
  if (Math.abs(ratio - 1) <= ABOUT_SAME) return 'waits about as long';
  return ratio < 1 ? `waits ${timesText(1 / ratio)} less` : `waits ${timesText(ratio)} longer`;
}

/** What a request costs in CPU, over / base: "the same CPU", "13 % more CPU", "28 % less CPU". */
export function cpuWords(ratio: number): string {
  if (Math.abs(ratio - 1) <= ABOUT_SAME) return 'the same CPU';
  return ratio > 1 ? `${percentOf(ratio - 1)} % more CPU` : `${percentOf(1 - ratio)} % less CPU`;
}

/**
 * An A/B cell's verdict (report.json keeps the keys regressed, improved, unchanged, inconclusive
 * as data) in the same words: "regressed" and "improved" are what a CI reader looks for, and B's
 * change is given beside them.
 */
export const CHANGE_WORDS = {
  regressed: 'regressed',
  improved: 'improved',
  unchanged: 'no change',
  inconclusive: 'could not tell',
} as const;
