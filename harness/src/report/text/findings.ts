/**
 * The sentences people quote from a bench report: one per runtime and question ("bun: worker
 * serves 1.90x (1.80–2.00x) the requests/s of sync"), and the findings across scenarios (which
 * off-loop mode stayed on the loop, where a worker pays). A ratio whose narrow 95 % interval holds
 * 1 reads "no difference", whatever its median says; one from doubtful cells or too wide an
 * interval reads "inconclusive" (ratio-verdict.ts). Pure text from plain figures: the report's
 * questions are gathered in report/answers.ts.
 */
import { percent } from '../flags.ts';
import { inconclusiveText, type RatioReading, type RatioVerdict, ratioVerdict } from '../ratio-verdict.ts';
import type { LoopVerdict } from '../../model/cell.ts';
import { formatMs, formatRatio } from './formats.ts';
import { HELD_LAG_SHARE, MIN_SYNC_LAG_MS } from '../loop-verdict.ts';

export type Interval = readonly [number, number];

/** What a ratio compares, in words: "worker" over "sync", of "requests/s" or a bystander's p99. */
export interface RatioWords {
  over: string;
  base: string;
  measure: 'throughput' | 'bystander';
}

/** "1.80–2.00x": an interval at the ratio's own precision. */
export function intervalText(ci: Interval): string {
  return `${formatRatio(ci[0]).slice(0, -1)}–${formatRatio(ci[1])}`;
}

/** How sure, beside a ratio: "1.90x (1.80–2.00x)", "1.02x (0.95–1.09x)", or "1.90x (no interval)". */
export function ratioWithInterval(ratio: number, ci: Interval | undefined): string {
  return `${formatRatio(ratio)} (${ci === undefined ? 'no interval' : intervalText(ci)})`;
}

/** A ratio's reading with its figures, worded once for every text that quotes a ratio. */
export interface VerdictFigures {
  verdict: RatioVerdict;
  /** "1.90x, 1.80–2.00x", or "1.90x, no interval". */
  figures: string;
  /** The reading in words where the figure alone does not carry it: "no difference", "inconclusive: why"; absent for more, less and no interval. */
  words?: string;
}

/** How a ratio reads (ratio-verdict.ts) and the words and figures that say it. */
export function verdictFigures(row: { ratio: number; ci?: Interval | undefined; doubt?: string | undefined }): VerdictFigures {
  const verdict = ratioVerdict(row.ratio, row.ci, row.doubt);
  const figures = `${formatRatio(row.ratio)}, ${row.ci === undefined ? 'no interval' : intervalText(row.ci)}`;
  const words = verdict.reading === 'inconclusive' ? inconclusiveText(verdict) : verdict.reading === 'same' ? 'no difference' : undefined;
  return { verdict, figures, ...(words === undefined ? {} : { words }) };
}

/**
 * One runtime's answer to one question, e.g. "bun: worker serves 1.90x (1.80–2.00x) the
 * requests/s of sync", "node: async: no difference in requests/s from sync (1.02x, 0.95–1.09x)",
 * "node: async vs sync, requests/s: inconclusive: async shared the host (1.48x, 0.91–2.43x)",
 * "deno: with async, a bystander request's p99 is 0.05x sync's (no interval)". `doubt` is why the
 * cells cannot carry an answer (ratio-verdict.ts cellsDoubt).
 */
export function ratioSentence(lane: string, words: RatioWords, ratio: number, ci: Interval | undefined, doubt?: string): string {
  const { verdict, figures, words: reading } = verdictFigures({ ratio, ci, doubt });
  const what = words.measure === 'bystander' ? "a bystander request's p99" : 'requests/s';
  if (verdict.reading === 'inconclusive') return `${lane}: ${words.over} vs ${words.base}, ${what}: ${reading} (${figures})`;
  if (words.measure === 'bystander') {
    if (verdict.reading === 'same')
      return `${lane}: with ${words.over}, ${reading} in a bystander request's p99 from ${words.base} (${figures})`;
    return `${lane}: with ${words.over}, a bystander request's p99 is ${formatRatio(ratio)} ${words.base}'s (${ci === undefined ? 'no interval' : intervalText(ci)})`;
  }
  if (verdict.reading === 'same') return `${lane}: ${words.over}: ${reading} in requests/s from ${words.base} (${figures})`;
  if (ci === undefined) return `${lane}: ${words.over} serves ${formatRatio(ratio)} the requests/s of ${words.base} (no interval)`;
  return `${lane}: ${words.over} serves ${ratioWithInterval(ratio, ci)} the requests/s of ${words.base}`;
}

/** A scenario's worker ratio, for the per-runtime finding. */
export interface ScenarioRatio {
  scenario: string;
  ratio: number;
  ci?: Interval;
  /** Why its cells cannot carry an answer (shared host, invalid, failed). */
  doubt?: string;
  /** What the ratio's reader needs beside it: its ceiling and the CPU a request costs ("at most ~2x with 2 CPUs; ..."). */
  costs?: string;
}

const list = (items: readonly ScenarioRatio[], figure: (r: ScenarioRatio) => string) =>
  items.map((r) => `${r.scenario} (${figure(r)})`).join(', ');

/**
 * Where a worker pays on one runtime, e.g. "node: a worker pays in fib (2.10x, 1.95–2.26x) and
 * regex (…); no difference in json (1.02x, 0.95–1.09x); it costs in sqlite (0.41x, 0.39–0.43x);
 * inconclusive in hash (1.48x, 0.91–2.43x: its interval … is wider than 1.5x end to end)".
 */
export function workerFinding(lane: string, ratios: readonly ScenarioRatio[]): string {
  const reading = (r: ScenarioRatio) => ratioVerdict(r.ratio, r.ci, r.doubt);
  const by = (wanted: RatioReading) => ratios.filter((r) => reading(r).reading === wanted);
  const withCi = (r: ScenarioRatio) =>
    `${r.ci === undefined ? formatRatio(r.ratio) : `${formatRatio(r.ratio)}, ${intervalText(r.ci)}`}${r.costs === undefined ? '' : `; ${r.costs}`}`;
  const withWhy = (r: ScenarioRatio) => `${reading(r).why ?? ''}: ${withCi(r)}`;
  // Without any interval (too few runs) there is nothing to say where it pays: the figures alone.
  if (by('no-interval').length === ratios.length) return `${lane}: worker over sync, no interval (too few runs): ${list(ratios, withCi)}`;
  const parts = [
    // "Pays in no scenario" only where some scenario said otherwise: not when none could tell.
    ...(by('more').length > 0
      ? [`a worker pays in ${list(by('more'), withCi)}`]
      : by('same').length + by('less').length > 0
        ? ['a worker pays in no scenario']
        : []),
    ...(by('same').length === 0 ? [] : [`no difference in ${list(by('same'), withCi)}`]),
    ...(by('less').length === 0 ? [] : [`it costs in ${list(by('less'), withCi)}`]),
    ...(by('inconclusive').length === 0 ? [] : [`inconclusive in ${list(by('inconclusive'), withWhy)}`]),
    ...(by('no-interval').length === 0 ? [] : [`no interval in ${list(by('no-interval'), withCi)}`]),
  ];
  return `${lane}: ${parts.join('; ')}`;
}

/** One off-loop cell's verdict and the figure it rests on. */
export interface LoopReading {
  scenario: string;
  verdict: LoopVerdict;
  /** Share of an idle loop's timer ticks that ran while the calls were in hand (the loop check). */
  ticksShare?: number;
  /** Loop lag p99 under load, this cell's and its sync cell's (ms), when the verdict rests on them. */
  lagP99Ms?: number;
  syncLagP99Ms?: number;
}

/**
 * "ticks 2 %", "lag p99 40 ms vs sync's 42 ms": the figures the verdict rests on. A call that
 * left the loop by its ticks needs no more; where the lag made it stayed or partly, or there
 * was no loop check, the lag is given too, and where the two disagree (reconciledLag) the
 * sentence says how they fit.
 */
function evidence(r: LoopReading): string {
  const parts: string[] = [];
  if (r.ticksShare !== undefined) parts.push(`ticks ${percent(Math.min(1, r.ticksShare))}`);
  const lagDecided = r.ticksShare === undefined || r.verdict !== 'left';
  if (lagDecided && r.lagP99Ms !== undefined && r.syncLagP99Ms !== undefined)
    parts.push(`lag p99 ${formatMs(r.lagP99Ms)} ms vs sync's ${formatMs(r.syncLagP99Ms)} ms`);
  const reconciled = reconciledLag(r);
  if (reconciled !== undefined) parts.push(reconciled);
  return parts.join(', ');
}

/**
 * Where the loop check says the calls stayed on the loop (no tick ran while one was in hand) but
 * the lag under load was well below sync's: both hold, the calls ran on the loop in shorter holds
 * than sync's one long one (a stream that compresses chunk by chunk yields between chunks).
 * Undefined where the figures agree.
 */
export function reconciledLag(r: LoopReading): string | undefined {
  if (r.verdict !== 'stayed' || r.ticksShare === undefined || r.lagP99Ms === undefined || r.syncLagP99Ms === undefined) return undefined;
  if (r.syncLagP99Ms < MIN_SYNC_LAG_MS || r.lagP99Ms >= HELD_LAG_SHARE * r.syncLagP99Ms) return undefined;
  return "the work still ran on the loop, in shorter holds than sync's";
}

const VERDICT_ORDER: readonly [LoopVerdict, string][] = [
  ['stayed', 'stayed on the loop in'],
  ['partly', 'partly left it in'],
  ['left', 'left it in'],
];

/**
 * Which of one mode's calls stayed on the loop on one runtime, e.g. "node: async stayed on the
 * loop in json (ticks 0 %), regex (ticks 1 %); left it in kdf (ticks 96 %)". "Ticks": the share of
 * an idle loop's timer ticks that ran during the calls (findingsLegend).
 */
export function loopFinding(lane: string, mode: string, readings: readonly LoopReading[]): string {
  const parts = VERDICT_ORDER.flatMap(([verdict, words]) => {
    const mine = readings.filter((r) => r.verdict === verdict);
    return mine.length === 0 ? [] : [`${words} ${mine.map((r) => `${r.scenario} (${evidence(r)})`).join(', ')}`];
  });
  const first = parts[0] ?? '';
  // "stayed on the loop" leads when there is one; otherwise the first clause names the loop itself.
  const lead = first.startsWith('stayed') ? first : first.replace(/ it in /, ' the loop in ');
  return `${lane}: ${mode} ${[lead, ...parts.slice(1)].join('; ')}`;
}

/** What the findings' figures are, said once above them. */
export const FINDINGS_LEGEND = {
  loop: "Ticks: the share of an idle loop's timer ticks that ran while the mode's calls were in hand (0 %: the calls held the loop; the loop check before the runs; it decides the verdict); lag p99: the server's event-loop lateness under load, against the sync cell's; where ticks say stayed and the lag is well below sync's, the calls held the loop in shorter pieces.",
  worker:
    'Worker over sync, requests/s: the ratio with its 95 % interval; "no difference" when the interval holds 1 and stays within ±10 %; "inconclusive" when it holds 1 but reaches further, is over 1.5x end to end, or a cell behind it shared the host, was invalid or failed.',
} as const;
