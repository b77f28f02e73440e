/**
 * The sentences people quote from a bench report: one per runtime and question ("bun: worker
 * serves 1.90x (1.80–2.00x) the requests/s of sync"), and the findings across scenarios (which
 * off-loop mode stayed on the loop, where a worker pays). A ratio whose 95 % interval holds 1
 * reads "no difference", whatever its median says. Pure text from plain figures: the report's
 * questions are gathered in report/answers.ts.
 */
import { percent } from '../flags.ts';
import { holdsOne } from '../../stats/paired.ts';
import type { LoopVerdict } from '../../model/cell.ts';
import { formatMs, formatRatio } from './formats.ts';

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

/** Whether a ratio is told apart from 1: 'more' or 'less' when its interval excludes 1, else 'same' (or 'unsure' without one). */
export function ratioReading(ratio: number, ci: Interval | undefined): 'more' | 'less' | 'same' | 'unsure' {
  if (ci === undefined) return 'unsure';
  if (holdsOne(ci)) return 'same';
  return ratio > 1 ? 'more' : 'less';
}

/**
 * One runtime's answer to one question, e.g. "bun: worker serves 1.90x (1.80–2.00x) the
 * requests/s of sync", "node: async: no difference in requests/s from sync (1.02x, 0.95–1.09x)",
 * "deno: with async, a bystander request's p99 is 0.05x sync's (no interval)".
 */
export function ratioSentence(lane: string, words: RatioWords, ratio: number, ci: Interval | undefined): string {
  if (words.measure === 'bystander') {
    if (ci !== undefined && holdsOne(ci))
      return `${lane}: with ${words.over}, no difference in a bystander request's p99 from ${words.base} (${formatRatio(ratio)}, ${intervalText(ci)})`;
    return `${lane}: with ${words.over}, a bystander request's p99 is ${formatRatio(ratio)} ${words.base}'s (${ci === undefined ? 'no interval' : intervalText(ci)})`;
  }
  if (ci !== undefined && holdsOne(ci))
    return `${lane}: ${words.over}: no difference in requests/s from ${words.base} (${formatRatio(ratio)}, ${intervalText(ci)})`;
  if (ci === undefined) return `${lane}: ${words.over} serves ${formatRatio(ratio)} the requests/s of ${words.base} (no interval)`;
  return `${lane}: ${words.over} serves ${ratioWithInterval(ratio, ci)} the requests/s of ${words.base}`;
}

/** A scenario's worker ratio, for the per-runtime finding. */
export interface ScenarioRatio {
  scenario: string;
  ratio: number;
  ci?: Interval;
}

const list = (items: readonly ScenarioRatio[], figure: (r: ScenarioRatio) => string) =>
  items.map((r) => `${r.scenario} (${figure(r)})`).join(', ');

/**
 * Where a worker pays on one runtime, e.g. "node: a worker pays in fib (2.10x, 1.95–2.26x) and
 * regex (…); no difference in json (1.02x, 0.95–1.09x); it costs in sqlite (0.41x, 0.39–0.43x)".
 */
export function workerFinding(lane: string, ratios: readonly ScenarioRatio[]): string {
  const by = (reading: ReturnType<typeof ratioReading>) => ratios.filter((r) => ratioReading(r.ratio, r.ci) === reading);
  const withCi = (r: ScenarioRatio) => (r.ci === undefined ? formatRatio(r.ratio) : `${formatRatio(r.ratio)}, ${intervalText(r.ci)}`);
  // Without any interval (too few runs) there is nothing to say where it pays: the figures alone.
  if (by('unsure').length === ratios.length) return `${lane}: worker over sync, no interval (too few runs): ${list(ratios, withCi)}`;
  const parts = [
    by('more').length === 0 ? 'a worker pays in no scenario' : `a worker pays in ${list(by('more'), withCi)}`,
    ...(by('same').length === 0 ? [] : [`no difference in ${list(by('same'), withCi)}`]),
    ...(by('less').length === 0 ? [] : [`it costs in ${list(by('less'), withCi)}`]),
    ...(by('unsure').length === 0 ? [] : [`no interval in ${list(by('unsure'), withCi)}`]),
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
 * was no loop check, the lag is given too.
 */
function evidence(r: LoopReading): string {
  const parts: string[] = [];
  if (r.ticksShare !== undefined) parts.push(`ticks ${percent(Math.min(1, r.ticksShare))}`);
  const lagDecided = r.ticksShare === undefined || r.verdict !== 'left';
  if (lagDecided && r.lagP99Ms !== undefined && r.syncLagP99Ms !== undefined)
    parts.push(`lag p99 ${formatMs(r.lagP99Ms)} ms vs sync's ${formatMs(r.syncLagP99Ms)} ms`);
  return parts.join(', ');
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
  loop: "Ticks: the share of an idle loop's timer ticks that ran while the mode's calls were in hand (0 %: the calls held the loop; the loop check before the runs); lag p99: the server's event-loop lateness under load, against the sync cell's.",
  worker:
    'Worker over sync, requests/s: the ratio with its 95 % interval; "no difference" when the interval holds 1 (the two cannot be told apart).',
} as const;
