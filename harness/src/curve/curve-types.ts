/**
 * The shape of a curve report (report.json written by `pnpm bench:curve`): the environment and
 * runtimes as in the bench's report.json, and a `curves` section, one curve per cell.
 */
import type { RuntimeName } from '@bench/app';
import type { RunSpeed } from '../model/cell.ts';
import type { Environment } from '../model/environment.ts';
import type { Mode, ScenarioName } from '../model/names.ts';
import type { RuntimeEntry } from '../model/report.ts';
import type { Arrivals } from '../load/arrivals.ts';
import type { SearchEnd } from './capacity-search.ts';
import type { StepMeasurement } from '../load/generator-types.ts';
import type { StepVerdict } from '../stats/step-decision.ts';

export type StepFlag = 'generator-bound' | 'saturated' | 'past-saturation' | 'errors';

/**
 * One offered rate on one cell: the generator's counts, latency (from the scheduled send time,
 * ms) and lateness as it measured them (StepMeasurement), with the step's own figures.
 */
export interface CurveStep
  extends Pick<
    StepMeasurement,
    'achievedPerSec' | 'scheduled' | 'sent' | 'dropped' | 'completed' | 'errors' | 'timeouts' | 'latencyMs' | 'latenessMs'
  > {
  offeredPerSec: number;
  durationSec: number;
  generator: { cpuPercent: number; busyPercent: number };
  /** The server's CPU (100 = one core) from /proc; loop lag from /stats after /reset (absent for raw servers). */
  server: { cpuPercent: number };
  eventLoopLagMs?: { p99: number; max: number };
  /**
   * generator-bound: the generator fell behind its schedule (lateness p99 above 1 ms and above a
   * tenth of the step's p50 latency) or was busy 90 % of a core; saturated: achieved < 0.95 x offered; past-saturation: achieved < 0.8 x offered
   * or p99 > 10 x the target (counts toward the early stop); errors: errors or timeouts.
   */
  flags: StepFlag[];
  /**
   * The step passed: its percentile decision passed (decision.outcome) and it kept up (achieved
   * ≥ 95 % of the rate its schedule actually offered). A generator-bound step's lateness only adds
   * to its latency, so a pass still counts.
   */
  meetsTarget: boolean;
  /**
   * The step's statistical decision (absent in older reports): requests whose fate was
   * known, how many were over the target (slower, failed, timed out, dropped), the exact one-sided
   * Clopper-Pearson bounds on that share at `confidence`, the outcome (pass | fail | undecided:
   * the step's time cap came first; never counted as a pass) and the confidence the counts reached
   * (`reached`). `stoppedAtSec`: when the step stopped sending (its cap when undecided).
   */
  decision?: StepVerdict & { stoppedAtSec: number; capSec: number };
  /** Why the step was run: the coarse bracket, the bisection, or a --rates list (absent in older reports). */
  phase?: 'bracket' | 'bisect' | 'rates';
  /**
   * added: how fast the machine was during the step (the speed sampler's cores' worth,
   * median and range over its ticks; 2 vCPUs at full speed = 2.0). Absent with servers on another
   * host (the sampler runs where the load runs, beside the server) or for a step shorter than a tick.
   */
  machine?: RunSpeed;
}

/**
 * The capacity at the target as a bracket: the highest rate shown to pass and the lowest shown to
 * fail (each decided by the step at that index in `steps`), at `confidence`. `end` says why the
 * search stopped: resolved (hi/lo within 1 + resolution), generator-bound (the generator's own
 * ceiling stopped it: the capacity is at least passPerSec, no fail was shown), undecided-limit
 * (steps near the capacity ran out of time without deciding), step-limit, below-floor (not even
 * the lowest rate passed), rates (a --rates list, no search). `searchedBetween`: where the search
 * ended, undecided steps included by their point estimate (narrower than the proven bracket).
 */
export interface CapacityBracket {
  passPerSec: number | null;
  failPerSec: number | null;
  passStep: number | null;
  failStep: number | null;
  percentile: number;
  confidence: number;
  end: SearchEnd | 'rates';
  searchedBetween: [number | null, number | null];
}

export interface Curve {
  runtime: RuntimeName;
  scenario: ScenarioName;
  mode: Mode;
  path: string;
  status: 'ok' | 'invalid' | 'failed';
  reason?: string;
  /** The cell's closed-loop throughput (autocannon, 10 connections) the search started from. */
  closedLoopPerSec: number;
  /** Every step in the order run (the latency-vs-load curve: sort by offeredPerSec to draw it). */
  steps: CurveStep[];
  /** Highest offered rate shown to pass (capacity.passPerSec); null when none did. */
  capacityPerSec: number | null;
  /** No rate was shown to fail (capacity.failPerSec null): the capacity is at least capacityPerSec. */
  capacityAtLeast: boolean;
  /** The capacity bracket with its confidence (absent in older reports). */
  capacity?: CapacityBracket;
  /** Last step whose p99 stayed within 2 x the lowest step's p99 while keeping up. */
  kneePerSec: number | null;
  /** With --rates: the list stopped after two steps clearly past saturation. */
  stoppedEarly: boolean;
  /**
   * The discarded step that warmed the generator before this cell's steps (its rate and the
   * requests it sent): the first cell of each server only; absent on the others and in older
   * reports, from when every cell had one.
   */
  warmupStep?: { offeredPerSec: number; sent: number };
}

export interface CurveParameters {
  sloMs: number;
  /** The percentile held to the target (99 = p99 ≤ sloMs); absent in older reports: 99. */
  percentile?: number;
  /** One-sided confidence of each step's decision (0.95); absent in older reports. */
  confidence?: number;
  /** The bisection stops at hi/lo ≤ 1 + resolution (0.05); absent in older reports. */
  resolution?: number;
  /** Undecided steps after which a cell's search stops. */
  maxUndecided?: number;
  /** First rate of the coarse bracket, as a share of the closed-loop throughput. */
  startShare?: number;
  /** Poisson (the default) or constant (the default in older reports); every table and title names it. */
  arrivals: Arrivals;
  seed: number;
  /** 'per-rate': each step's schedule drawn from seed and rate (stepSeed); absent in older reports, where every step used `seed` itself. */
  stepSeeds?: 'per-rate';
  /** --design-effect: each step's requests counted by their design effect (clustered misses); false or absent: taken as independent. */
  designEffect?: boolean;
  /** Given with --rates; otherwise the ladder is sized from each cell's closed-loop throughput. */
  rates?: number[];
  /** The coarse bracket's factor between rungs: (ladderShares[1] / ladderShares[0]) ^ (1 / (ladderSteps − 1)). */
  ladderSteps: number;
  ladderShares: [number, number];
  /** A step passes no sooner than this (seconds); in older reports the fixed step length. */
  stepSec: number;
  minSamples: number;
  /** A step's time cap: it runs min(maxStepSec, max(stepSec, 2 x the requests a pass needs / rate)). */
  maxStepSec: number;
  closedLoopSec: number;
  /** The closed-loop warm-up before it (seconds; 0: none); absent in older reports: closedLoopSec / 2. */
  closedLoopWarmupSec?: number;
  /** The closed-loop run is doubled (twice at most) until it holds this many answers; absent in older reports: 10. */
  closedLoopMinAnswers?: number;
  maxInFlight: number;
  timeoutMs: number;
  hashCost: number;
  fibN: number;
  sleepMs: number;
  quick: boolean;
}

export interface CurveReport {
  kind: 'curve';
  schemaVersion: 1;
  createdAt: string;
  status: 'complete' | 'interrupted';
  /** Wall time of the whole run. */
  elapsedSec?: number;
  environment: Environment;
  parameters: CurveParameters;
  runtimes: RuntimeEntry[];
  curves: Curve[];
}
