/**
 * Latency that counts every request sent. Pure functions, no I/O.
 *
 * A closed loop keeps one request in flight per connection, so by Little's law (L = X W) the mean
 * time a request spends in the system is W = connections / requests-per-s. The latency autocannon
 * reports is that of the answered requests only: when the server queues more than a run can drain
 * (1,000 connections on a 20 ms blocking handler: W = 20 s in a 2 s run), the requests still
 * queued at the run's end vanish and the answered ones are the lucky first of the queue. Two
 * checks catch that: the answered mean against W, and the requests unanswered at the end counted
 * at their age (a censored value: their latency is at least that), as the open-loop curves count
 * timeouts.
 */
import type { CellResult, RunResult } from '../model/cell.ts';
import type { CensoredLatency, LittlesLaw, Unanswered } from '../model/run-checks.ts';
import { median, roundFigure } from './stats.ts';

/**
 * Below this ratio of the answered mean to Little's W the latency figures cannot be told. From a
 * cold start a FIFO closed loop that holds exactly one cycle (each connection answered once)
 * reads 0.5 by construction: the first cycle's latencies run from one service time to W, mean
 * W / 2. --quick's blocking cells hold about one cycle by design (min-requests 10 = connections)
 * and read 0.40 to 0.50 here (one starved connection lowers it further); the 1,000-connection
 * sleep/sync case, a twentieth of one cycle, reads 0.03. Half a cycle (0.25) lies between, with a
 * margin of 1.6x above and 10x below (figures in docs/bench.md).
 */
export const LITTLE_RATIO_MIN = 0.25;

/**
 * A p99 with the unanswered in that is more than this many times the answered p99 (in most runs)
 * is set by the unanswered requests, not by the answered: the cell is flagged. Measured on
 * --quick's 10-connection cells: at most 1.27x (a connection starved for the whole 0.4 s run).
 */
export const CENSORED_DOMINATES = 1.5;

/**
 * Tables show the p99 with the unanswered in, as "≥ ", when it is a lower bound more than this
 * much above the answered p99: a shift the unanswered make, not one the two computations differ
 * by (the answered p99 comes from a histogram of three significant digits, this one is exact).
 */
export const CENSORED_SHIFT = 1.1;

const PERCENTILES = { p50: 0.5, p90: 0.9, p99: 0.99, p999: 0.999 } as const;
export type PercentileName = keyof typeof PERCENTILES | 'max';

/** Nearest-rank percentile of sorted values (the smallest value with at least q of the count at or below it). */
export function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? 0;
}

/** W = L / X, in ms: the mean time in the system a closed loop of `connections` implies. */
export function littlesLaw(connections: number, requestsPerSec: number, measuredMeanMs: number): LittlesLaw | undefined {
  if (!(requestsPerSec > 0) || !(connections > 0)) return undefined;
  const expectedMeanMs = (connections / requestsPerSec) * 1000;
  return {
    expectedMeanMs: roundFigure(expectedMeanMs),
    measuredMeanMs: roundFigure(measuredMeanMs),
    ratio: roundFigure(measuredMeanMs / expectedMeanMs),
  };
}

/**
 * Percentiles over answered latencies and unanswered ages together. Each is a lower bound
 * (named in `lowerBound`) when some unanswered request is already at least that old: its
 * latency, once known, is larger, so the percentile may be too.
 */
export function censoredLatency(answeredMs: readonly number[], agesMs: readonly number[]): CensoredLatency {
  const all = [...answeredMs, ...agesMs].sort((a, b) => a - b);
  const oldest = agesMs.reduce((m, a) => Math.max(m, a), -Infinity);
  const out = { lowerBound: [] as PercentileName[] } as CensoredLatency;
  for (const [name, q] of Object.entries(PERCENTILES) as [keyof typeof PERCENTILES, number][]) {
    const value = nearestRank(all, q);
    out[name] = roundFigure(value);
    if (agesMs.length > 0 && oldest >= value) out.lowerBound.push(name);
  }
  out.max = roundFigure(all.at(-1) ?? 0);
  if (agesMs.length > 0 && oldest >= out.max) out.lowerBound.push('max');
  return out;
}

/** The unanswered requests of one run: how many, and their ages when known. */
export function unansweredOf(count: number, agesMs: readonly number[] | undefined): Unanswered {
  if (agesMs === undefined || agesMs.length === 0) return { count, agesKnown: agesMs !== undefined };
  const sorted = [...agesMs].sort((a, b) => a - b);
  return { count, agesKnown: true, medianAgeMs: roundFigure(nearestRank(sorted, 0.5)), oldestMs: roundFigure(sorted.at(-1) ?? 0) };
}

/** What one run's load left to judge its latency by (load/autocannon.ts's LoadResult fits this). */
export interface RunLatencyInput {
  requestsPerSec: number;
  meanLatencyMs?: number;
  answeredMs?: readonly number[];
  unanswered: { count: number; agesMs?: readonly number[] };
}

/** The run's Little's-law check, its unanswered requests, and its percentiles with them in. */
export function runLatencyCheck(
  load: RunLatencyInput,
  connections: number,
): Pick<RunResult, 'littlesLaw' | 'unanswered' | 'latencyWithUnansweredMs'> {
  const little = load.meanLatencyMs === undefined ? undefined : littlesLaw(connections, load.requestsPerSec, load.meanLatencyMs);
  const ages = load.unanswered.agesMs;
  return {
    ...(little === undefined ? {} : { littlesLaw: little }),
    unanswered: unansweredOf(load.unanswered.count, ages),
    ...(load.answeredMs === undefined || ages === undefined ? {} : { latencyWithUnansweredMs: censoredLatency(load.answeredMs, ages) }),
  };
}

/** The cell's Little's-law figures: medians of the runs' (undefined when no run has one). */
export function cellLittlesLaw(runs: readonly RunResult[]): LittlesLaw | undefined {
  const all = runs.flatMap((r) => (r.littlesLaw === undefined ? [] : [r.littlesLaw]));
  if (all.length === 0) return undefined;
  return {
    expectedMeanMs: roundFigure(median(all.map((l) => l.expectedMeanMs))),
    measuredMeanMs: roundFigure(median(all.map((l) => l.measuredMeanMs))),
    ratio: roundFigure(median(all.map((l) => l.ratio))),
  };
}

/** The cell's unanswered requests: summed over runs, with the oldest age any run saw. */
export function cellUnanswered(runs: readonly RunResult[]): CellResult['unanswered'] {
  const all = runs.flatMap((r) => (r.unanswered === undefined ? [] : [r.unanswered]));
  if (all.length === 0) return undefined;
  const oldest = all.flatMap((u) => (u.oldestMs === undefined ? [] : [u.oldestMs]));
  return {
    count: all.reduce((s, u) => s + u.count, 0),
    sent: runs.reduce((s, r) => s + (r.sent ?? 0), 0),
    agesKnown: all.every((u) => u.agesKnown),
    ...(oldest.length === 0 ? {} : { oldestMs: Math.max(...oldest) }),
  };
}

/**
 * Medians over runs of the percentiles with unanswered requests in; a percentile is a lower bound
 * when it is one in any run (a bound in one run is enough to doubt the median).
 */
export function cellCensoredLatency(runs: readonly RunResult[]): CensoredLatency | undefined {
  const all = runs.flatMap((r) => (r.latencyWithUnansweredMs === undefined ? [] : [r.latencyWithUnansweredMs]));
  if (all.length === 0) return undefined;
  const mid = (k: PercentileName) => roundFigure(median(all.map((c) => c[k])));
  const names: PercentileName[] = ['p50', 'p90', 'p99', 'p999', 'max'];
  return {
    p50: mid('p50'),
    p90: mid('p90'),
    p99: mid('p99'),
    p999: mid('p999'),
    max: mid('max'),
    lowerBound: names.filter((n) => all.some((c) => c.lowerBound.includes(n))),
  };
}

/**
 * Why the cell's latency cannot be told, or undefined when it can: the answered mean is under
 * LITTLE_RATIO_MIN of Little's W, more requests were left unanswered than answered, or the p99
 * with the unanswered in is a lower bound well above the answered p99 (in most runs).
 */
export function latencyCensoredReason(runs: readonly RunResult[]): string | undefined {
  const little = cellLittlesLaw(runs);
  const unanswered = cellUnanswered(runs);
  const answered = runs.reduce((s, r) => s + r.requests, 0);
  const shifted = runs.filter((r) => {
    const c = r.latencyWithUnansweredMs;
    return (
      c !== undefined &&
      canSetP99(r.unanswered?.count ?? 0, r.sent ?? 0) &&
      c.lowerBound.includes('p99') &&
      c.p99 > r.latencyMs.p99 * CENSORED_DOMINATES
    );
  });
  const reasons: string[] = [];
  if (little !== undefined && little.ratio < LITTLE_RATIO_MIN) {
    reasons.push(
      `answered mean ${ms(little.measuredMeanMs)} vs ${ms(little.expectedMeanMs)} by Little's law (${little.ratio.toFixed(2)}x)`,
    );
  }
  if (unanswered !== undefined && (unanswered.count > answered || shifted.length * 2 > runs.length)) {
    const oldest = unanswered.oldestMs === undefined ? '' : `, oldest ${ms(unanswered.oldestMs)}`;
    const why = unanswered.count > answered ? 'more than answered' : 'they set the p99';
    reasons.push(
      `${unanswered.count.toLocaleString('en-US')} of ${unanswered.sent.toLocaleString('en-US')} requests unanswered at the runs' end (${why}${oldest})`,
    );
  }
  return reasons.length === 0 ? undefined : reasons.join('; ');
}

/**
 * Whether the unanswered requests could move the p99 at all: fewer than 1 % of the requests sent
 * cannot fill the top 1 %, so the true p99 is at most the answered requests' value at the same
 * rank (order statistics: adding values never raises the k-th smallest), close to their p99.
 */
export function canSetP99(unanswered: number, sent: number): boolean {
  return sent > 0 && unanswered >= 0.01 * sent;
}

/** "1.2 s", "24 s", "350 ms", "0.42 ms": a duration in a flag's sentence. */
function ms(value: number): string {
  if (value >= 10_000) return `${(value / 1000).toFixed(0)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(1)} s`;
  return value >= 10 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;
}

/**
 * The p99 a table shows: the answered requests' own, or the p99 with the unanswered in, as
 * "≥ 404", when that is a lower bound above it by more than CENSORED_SHIFT, or the cell is
 * flagged latency-censored.
 */
export function shownP99(
  cell: Pick<CellResult, 'latencyMs' | 'flags' | 'latencyWithUnansweredMs' | 'unanswered'>,
  format: (ms: number) => string,
): string {
  const censored = cell.latencyWithUnansweredMs;
  const unanswered = cell.unanswered;
  if (censored === undefined || unanswered === undefined || !censored.lowerBound.includes('p99')) return format(cell.latencyMs.p99);
  if (!canSetP99(unanswered.count, unanswered.sent)) return format(cell.latencyMs.p99);
  const flagged = cell.flags.includes('latency-censored');
  if (!flagged && censored.p99 <= cell.latencyMs.p99 * CENSORED_SHIFT) return format(cell.latencyMs.p99);
  return `≥ ${format(Math.max(censored.p99, cell.latencyMs.p99))}`;
}
