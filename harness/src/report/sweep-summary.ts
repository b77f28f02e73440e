/**
 * Where offloading starts to pay (--sweep): per runtime, worker over sync at each input value,
 * on requests/s and on the probe's p99, each a paired ratio with its 95 % interval, the hop's own
 * cost, and the crossover. Pure: derived from the cells, so an old report re-renders the same.
 */
import type { CellResult, RunResult } from '../model/cell.ts';
import { laneOf } from '../model/cell-lookups.ts';
import type { Report } from '../model/report.ts';
import type { Crossover, SweepMeasure, SweepPoint, SweepRuntime, SweepSummary, SweepVerdict } from '../model/sweep.ts';
import { holdsOne, MIN_PAIRS, pairedRatioInterval, roundRatios } from '../stats/paired.ts';

/**
 * A run's probe p99 counts from 299 answers on: below that the slowest answer is not above the
 * 99th percentile with 95 % confidence (1 - 0.99^299 = 0.95), so a "p99" from fewer is at best
 * the maximum of a small sample, not a finding (docs/design.md, "Measurement principles").
 */
export const MIN_P99_SAMPLES = 299;

/** Which side of 1 the interval lies on; `better` is the worker's side. */
export function verdictOf(ci: readonly [number, number], better: 'above' | 'below'): SweepVerdict {
  if (holdsOne(ci)) return 'no-difference';
  const above = ci[0] > 1;
  return above === (better === 'above') ? 'wins' : 'loses';
}

/**
 * The smallest value from which the worker wins at that value and every larger one; the values
 * are in ascending order. A value without an interval breaks a run of wins like a loss does: a
 * crossover rests only on intervals.
 */
export function crossover(points: readonly { value: string; verdict: SweepVerdict }[]): Crossover {
  const unknown = points.filter((p) => p.verdict === 'unknown').map((p) => p.value);
  let from = points.length;
  while (from > 0 && points[from - 1]?.verdict === 'wins') from--;
  if (points.length > 0 && from === 0) return { kind: 'every', unknown };
  if (from < points.length) return { kind: 'from', value: points[from]?.value ?? '', unknown };
  return { kind: points.some((p) => p.verdict === 'wins') ? 'no-crossover' : 'never', unknown };
}

/** Per-round ratios of the probe's p99, over runs whose probe answered at least `min` times on both sides. */
export function probeP99Ratios(over: readonly RunResult[], base: readonly RunResult[], min: number): number[] {
  const enough = (r: RunResult) => r.probeLatencyMs.count >= min && r.probeLatencyMs.p99 > 0;
  const byRound = new Map<number, number>();
  for (const run of base) if (run.round !== undefined && enough(run)) byRound.set(run.round, run.probeLatencyMs.p99);
  return over.flatMap((run) => {
    const partner = run.round === undefined || !enough(run) ? undefined : byRound.get(run.round);
    return partner === undefined ? [] : [run.probeLatencyMs.p99 / partner];
  });
}

function measure(ratios: readonly number[], better: 'above' | 'below', short: string): SweepMeasure {
  const paired = pairedRatioInterval(ratios);
  if (paired === undefined) return { verdict: 'unknown', note: short };
  return { verdict: verdictOf(paired.ci95, better), ratio: { ratio: paired.ratio, ci95: paired.ci95, pairs: paired.pairs } };
}

const fewest = (runs: readonly RunResult[]): number => Math.min(...runs.map((r) => r.probeLatencyMs.count));

/** Worker against sync at one value; either side missing or not ok leaves both measures unknown. */
export function sweepPoint(value: string, sync: CellResult | undefined, worker: CellResult | undefined): SweepPoint {
  const hop = worker?.hopMs === undefined ? {} : { hopMs: worker.hopMs };
  if (sync?.status !== 'ok' || worker?.status !== 'ok') {
    const side = sync?.status !== 'ok' ? 'sync' : 'worker';
    const note = `${side} cell ${sync === undefined || worker === undefined ? 'missing' : 'not ok'}`;
    return { value, throughput: { verdict: 'unknown', note }, probeP99: { verdict: 'unknown', note }, ...hop };
  }
  const throughput = measure(roundRatios(worker.runDetails, sync.runDetails), 'above', `fewer than ${MIN_PAIRS} paired runs`);
  const probe = probeP99Ratios(worker.runDetails, sync.runDetails, MIN_P99_SAMPLES);
  const least = fewest([...worker.runDetails, ...sync.runDetails]);
  const probeNote =
    least < MIN_P99_SAMPLES
      ? `not enough samples: a p99 needs ${MIN_P99_SAMPLES} probe answers a run, the runs had from ${least}`
      : `fewer than ${MIN_PAIRS} paired runs`;
  return { value, throughput, probeP99: measure(probe, 'below', probeNote), ...hop };
}

/** The sweep's summary, or undefined when the run was not a sweep. */
export function sweepSummary(report: Pick<Report, 'parameters' | 'results'>): SweepSummary | undefined {
  const sweep = report.parameters.sweep;
  if (sweep === undefined) return undefined;
  const cells = report.results.filter((c) => c.scenario === sweep.scenario && c.query !== undefined);
  const lanes = [...new Map(cells.map((c) => [`${laneOf(c)}\u0000${c.processes ?? ''}`, c])).values()];
  const runtimes = lanes.map((first): SweepRuntime => {
    const mine = cells.filter((c) => laneOf(c) === laneOf(first) && c.processes === first.processes);
    const at = (value: string, mode: string) =>
      mine.find((c) => c.mode === mode && new URLSearchParams(c.query).get(sweep.parameter) === value);
    const points = sweep.values.map((value) => sweepPoint(value, at(value, 'sync'), at(value, 'worker')));
    return {
      runtime: laneOf(first),
      ...(first.processes === undefined ? {} : { processes: first.processes }),
      points,
      throughput: crossover(points.map((p) => ({ value: p.value, verdict: p.throughput.verdict }))),
      probeP99: crossover(points.map((p) => ({ value: p.value, verdict: p.probeP99.verdict }))),
    };
  });
  return { ...sweep, minProbeSamples: MIN_P99_SAMPLES, runtimes };
}
