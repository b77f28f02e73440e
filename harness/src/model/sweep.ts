/** added, with --sweep: where offloading starts to pay (report/sweep-summary.ts derives it from the cells). */
import type { HopCost } from './cell.ts';
import type { ScenarioName } from './names.ts';

/** A worker/sync ratio from the runs paired by round, with its 95 % interval. */
export interface SweepRatio {
  ratio: number;
  ci95: [number, number];
  pairs: number;
}

/**
 * How the worker did against sync at one input: "wins" when the interval lies entirely on the
 * worker's side of 1 (above for requests/s, below for the probe's p99), "loses" entirely on the
 * other, "no-difference" when it holds 1, "unknown" when there is no interval (see the note).
 */
export type SweepVerdict = 'wins' | 'loses' | 'no-difference' | 'unknown';

export interface SweepMeasure {
  verdict: SweepVerdict;
  ratio?: SweepRatio;
  /** Why there is no interval (a side missing or failed, too few pairs, a probe p99 on too few samples). */
  note?: string;
}

export interface SweepPoint {
  /** The parameter's value ("64"). */
  value: string;
  /** Worker over sync requests/s. */
  throughput: SweepMeasure;
  /** Worker over sync p99 of the probe (the bystander's latency). */
  probeP99: SweepMeasure;
  /** The hop's own cost at this input (absent when it could not be measured). */
  hopMs?: HopCost;
}

/**
 * The crossover: "every" (the worker wins at every value measured), "from" (at `value` and every
 * larger one, not below), "never" (at no value), "no-crossover" (at some values but not at every
 * larger one). `unknown` lists the values without an interval, which a crossover cannot rest on.
 */
export interface Crossover {
  kind: 'every' | 'from' | 'never' | 'no-crossover';
  value?: string;
  unknown: string[];
}

export interface SweepRuntime {
  /** The lane: the runtime, or the installation's label when the plan named versions. */
  runtime: string;
  /** The process count, when the plan named them (--processes). */
  processes?: number;
  points: SweepPoint[];
  throughput: Crossover;
  probeP99: Crossover;
}

export interface SweepSummary {
  scenario: ScenarioName;
  parameter: string;
  values: string[];
  /** Probe answers a run needs before its p99 counts (a p99 with a distribution-free 95 % bound). */
  minProbeSamples: number;
  runtimes: SweepRuntime[];
}
