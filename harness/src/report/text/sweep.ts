/**
 * The words of a --sweep (report/sweep-summary.ts) for every renderer: the crossover sentences,
 * each point's ratio with its interval and verdict, the hop's cost. Pure: formats what the
 * summary holds.
 */
import type { HopCost } from '../../model/cell.ts';
import type { Crossover, SweepMeasure, SweepRuntime, SweepSummary } from '../../model/sweep.ts';
import { formatMs, formatRatio } from '../../present/formats.ts';
import { NO_DIFFERENCE_WITHIN } from '../../present/ratio-verdict.ts';
import { intervalText, timesText, verdictWords } from '../../present/verdict-words.ts';

/**
 * The bystander's p99, worker over sync, in the words of verdict-words.ts: the verdict a speed
 * (its inverse) gets, said as waiting: "waits less: 0.52x, 0.40–0.66x", "waits 175x to 385x less (too
 * uncertain to size)", "could not tell: 0.80–1.30x".
 */
function waitWords(ratio: number, ci: readonly [number, number]): string {
  const speed = verdictWords({ ratio: 1 / ratio, ci: [1 / ci[1], 1 / ci[0]] });
  const word = speed.verdict.reading === 'less' || speed.verdict.direction === 'less' ? 'waits longer' : 'waits less';
  const figures = `${formatRatio(ratio)}, ${intervalText(ci)}`;
  switch (speed.kind) {
    case 'sized':
      return `${word}: ${figures}`;
    case 'unsized': {
      // A wide interval far from 1 reads best as how many times: "waits 175x to 385x less".
      const span =
        ratio < 1 ? `${timesText(1 / ci[1])} to ${timesText(1 / ci[0])} less` : `${timesText(ci[0])} to ${timesText(ci[1])} longer`;
      return `waits ${span} (too uncertain to size)`;
    }
    case 'no-gain':
      return `${speed.word}: ${figures}`;
    default:
      return `${speed.word}: ${intervalText(ci)}`;
  }
}

/** "faster: 1.23x, 1.10–1.40x (4 pairs)", "waits less: 0.52x, 0.40–0.66x (4 pairs)", or why there is no figure. */
export function measureText(m: SweepMeasure, what: 'throughput' | 'probeP99' = 'throughput'): string {
  if (m.verdict === 'unknown' || m.ratio === undefined) return m.note ?? 'no interval';
  const { ratio, ci95, pairs } = m.ratio;
  const words = what === 'throughput' ? verdictWords({ ratio, ci: ci95 }).text : waitWords(ratio, ci95);
  return `${words} (${pairs} pairs)`;
}

/** "0.21 ms (0.18 to 0.25, 200 pairs)", or "not measured". */
export function hopText(hop: HopCost | undefined): string {
  if (hop === undefined) return 'not measured';
  const interval = hop.ci95 === undefined ? 'no interval' : `${formatMs(hop.ci95[0])} to ${formatMs(hop.ci95[1])}`;
  return `${formatMs(hop.median)} ms (${interval}, ${hop.pairs} pairs)`;
}

/** "kb=64, kb=256": values as the parameter reads them. */
const named = (parameter: string, values: readonly string[]): string => values.map((v) => `${parameter}=${v}`).join(', ');

/** What winning means on each measure, for the sentences. */
const WHAT = {
  throughput: 'the worker serves more requests/s than sync',
  probeP99: "the worker keeps the bystander's p99 below sync's",
} as const;

/** One crossover as a sentence, e.g. "node: the worker serves more requests/s than sync from kb=256 on". */
export function crossoverSentence(
  lane: string,
  parameter: string,
  c: Crossover,
  what: keyof typeof WHAT,
  points: SweepRuntime['points'],
): string {
  const claim = WHAT[what];
  const gaps = c.unknown.length === 0 ? '' : ` (no interval at ${named(parameter, c.unknown)})`;
  if (c.kind === 'every') return `${lane}: ${claim} at every ${parameter} measured${gaps}`;
  if (c.kind === 'from')
    return `${lane}: ${claim} from ${parameter}=${c.value ?? ''} on (interval clear of 1 there and at every larger ${parameter})${gaps}`;
  if (c.kind === 'never')
    return `${lane}: the worker did not win at any ${parameter} measured on ${what === 'throughput' ? 'requests/s' : "the bystander's p99"}${gaps}`;
  const won = points.filter((p) => p[what].verdict === 'wins').map((p) => p.value);
  return `${lane}: the worker won at ${named(parameter, won)} but not at every larger ${parameter}: no crossover${gaps}`;
}

/** The lane as a sentence names it: "node", "node x2". */
export function laneText(r: Pick<SweepRuntime, 'runtime' | 'processes'>): string {
  return r.processes === undefined ? r.runtime : `${r.runtime} x${r.processes}`;
}

/** Both crossovers of a runtime, requests/s first. */
export function crossoverSentences(s: Pick<SweepSummary, 'parameter'>, r: SweepRuntime): string[] {
  return [
    crossoverSentence(laneText(r), s.parameter, r.throughput, 'throughput', r.points),
    crossoverSentence(laneText(r), s.parameter, r.probeP99, 'probeP99', r.points),
  ];
}

/** "node: hop 0.21 ms (...) at kb=16, 0.35 ms (...) at kb=64". */
export function hopSentence(s: Pick<SweepSummary, 'parameter'>, r: SweepRuntime): string {
  return `${laneText(r)}: the hop (input and answer between threads, apart from the work) ${r.points.map((p) => `${hopText(p.hopMs)} at ${s.parameter}=${p.value}`).join('; ')}`;
}

export const SWEEP_HEAD = ['runtime', 'value', 'worker/sync req/s', "worker/sync bystander's p99", 'hop ms'];

/** The table's rows, one per runtime and value. */
export function sweepRows(s: SweepSummary): string[][] {
  return s.runtimes.flatMap((r) =>
    r.points.map((p) => [
      laneText(r),
      `${s.parameter}=${p.value}`,
      measureText(p.throughput),
      measureText(p.probeP99, 'probeP99'),
      hopText(p.hopMs),
    ]),
  );
}

/** How to read the section: what the ratios, the verdicts and the hop are. */
export function sweepLegend(s: SweepSummary): string[] {
  return [
    `Worker over sync for ${s.scenario} at each ${s.parameter}, from the runs paired by round, with the 95 % interval, in the verdicts of every report: the worker is faster (or the bystander waits less) when the interval lies on the worker's side of 1; "no gain" when it holds 1 within ±${NO_DIFFERENCE_WITHIN * 100} %; "could not tell" when it holds 1 and reaches past that.`,
    `The bystander is the probe (steady requests to /hello during each run); a run's p99 counts from ${s.minProbeSamples} probe answers, below that it is "not enough samples".`,
    "The crossover is the smallest value from which the interval lies on the worker's side at that value and every larger one.",
    'The hop: requests one at a time on one connection, sync and worker alternating, on the warm server after the runs; the median of the worker-minus-sync latency with its distribution-free 95 % interval.',
  ];
}
