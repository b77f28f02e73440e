/**
 * The sentences people quote from a bench report: one per runtime and question ("bun: worker
 * vs sync: faster: 1.90x, 1.80–2.00x"), and the findings across scenarios (which off-loop mode
 * stayed on the loop, where a worker pays). Every verdict is worded by present/verdict-words.ts,
 * the one vocabulary of the reports. Pure text from plain figures: the report's questions are
 * gathered in report/answers.ts.
 */
import { percent } from '../flags.ts';
import type { RatioReading } from '../../present/ratio-verdict.ts';
import type { LoopVerdict } from '../../model/cell.ts';
import { formatMs } from '../../present/formats.ts';
import { HELD_LAG_SHARE, MIN_SYNC_LAG_MS } from '../loop-verdict.ts';
import { bystanderWords, type Interval, verdictWords } from '../../present/verdict-words.ts';

export type { Interval };

/** What a ratio compares, in words: "worker" over "sync", of "requests/s" or a bystander's p99. */
export interface RatioWords {
  over: string;
  base: string;
  measure: 'throughput' | 'bystander';
}

/**
 * One runtime's answer to one question, e.g. "bun: worker vs sync, requests/s: faster: 1.90x,
 * 1.80–2.00x", "node: async vs sync, requests/s: could not tell: the host was shared during
 * async", "deno: with async, a bystander waits 20x less (p99)". `doubt` is why the cells cannot
 * carry an answer (present/ratio-verdict.ts cellsDoubt).
 */
export function ratioSentence(lane: string, words: RatioWords, ratio: number, ci: Interval | undefined, doubt?: string): string {
  if (words.measure === 'bystander') {
    const waits = bystanderWords(ratio);
    // "waits about as long as with", "waits 20x less than with".
    return `${lane}: with ${words.over}, a bystander ${waits} ${waits.endsWith('as long') ? 'as' : 'than'} with ${words.base} (p99)`;
  }
  return `${lane}: ${words.over} vs ${words.base}, requests/s: ${verdictWords({ ratio, ci, doubt }).text}`;
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
 * Where a worker pays on one runtime, e.g. "node: faster with a worker in fib (2.10x, 1.95–2.26x)
 * and regex (…); no gain in json (1.02x, 0.95–1.09x); slower in sqlite (0.41x, 0.39–0.43x);
 * could not tell in hash (0.91–1.48x)".
 */
export function workerFinding(lane: string, ratios: readonly ScenarioRatio[]): string {
  const words = (r: ScenarioRatio) => verdictWords(r);
  const by = (...wanted: RatioReading[]) =>
    ratios.filter((r) => {
      const v = words(r).verdict;
      return wanted.includes(v.reading === 'wide' ? (v.direction === 'less' ? 'less' : 'more') : v.reading);
    });
  const figure = (r: ScenarioRatio) => (words(r).kind === 'no-interval' ? words(r).word : words(r).detail);
  const withCosts = (r: ScenarioRatio) => `${figure(r)}${r.costs === undefined ? '' : `; ${r.costs}`}`;
  // Without any interval (too few runs) there is nothing to say where it pays: the figures alone.
  if (by('no-interval').length === ratios.length)
    return `${lane}: worker vs sync, too few runs for an interval: ${list(ratios, withCosts)}`;
  const parts = [
    // "Faster in no scenario" only where some scenario said otherwise: not when none could tell.
    ...(by('more').length > 0
      ? [`faster with a worker in ${list(by('more'), withCosts)}`]
      : by('same', 'less').length > 0
        ? ['faster with a worker in no scenario']
        : []),
    ...(by('same').length === 0 ? [] : [`no gain in ${list(by('same'), withCosts)}`]),
    ...(by('less').length === 0 ? [] : [`slower in ${list(by('less'), withCosts)}`]),
    ...(by('inconclusive').length === 0 ? [] : [`could not tell in ${list(by('inconclusive'), withCosts)}`]),
    ...(by('no-interval').length === 0 ? [] : [`too few runs for an interval in ${list(by('no-interval'), withCosts)}`]),
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
  worker: 'Worker over sync, requests/s, read as:',
} as const;
