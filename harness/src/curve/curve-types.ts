/**
 * The shape of a curve report (report.json written by `pnpm bench:curve`): the environment and
 * runtimes as in the bench's report.json, and a `curves` section, one curve per cell.
 */
import type { RuntimeName } from '@bench/app';
import type { Environment, Mode, RuntimeEntry, ScenarioName } from '../report/report-types.ts';
import type { Arrivals } from './arrivals.ts';
import type { StepMeasurement } from './generator-types.ts';

export type StepFlag = 'generator-bound' | 'saturated' | 'past-saturation' | 'errors';

/**
 * One offered rate on one cell: the generator's counts, latency (from the scheduled send time,
 * ms) and lateness as it measured them (StepMeasurement), with the step's own figures.
 */
export interface CurveStep
  extends Pick<StepMeasurement, 'achievedPerSec' | 'scheduled' | 'sent' | 'dropped' | 'completed' | 'errors' | 'timeouts' | 'latencyMs' | 'latenessMs'> {
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
  /** p99 within the target and kept up (a generator-bound step's lateness only adds to its latency). */
  meetsTarget: boolean;
}

export interface Curve {
  runtime: RuntimeName;
  scenario: ScenarioName;
  mode: Mode;
  path: string;
  status: 'ok' | 'invalid' | 'failed';
  reason?: string;
  /** The cell's closed-loop throughput (autocannon, 10 connections) the ladder was sized from. */
  closedLoopPerSec: number;
  steps: CurveStep[];
  /** Highest offered rate meeting the target; null when no step did. */
  capacityPerSec: number | null;
  /** The top step of the ladder met the target: the capacity is at least capacityPerSec. */
  capacityAtLeast: boolean;
  /** Last step whose p99 stayed within 2 x the lowest step's p99 while keeping up. */
  kneePerSec: number | null;
  /** The ladder stopped after two steps clearly past saturation. */
  stoppedEarly: boolean;
}

export interface CurveParameters {
  sloMs: number;
  arrivals: Arrivals;
  seed: number;
  /** Given with --rates; otherwise the ladder is sized from each cell's closed-loop throughput. */
  rates?: number[];
  ladderSteps: number;
  ladderShares: [number, number];
  stepSec: number;
  minSamples: number;
  maxStepSec: number;
  closedLoopSec: number;
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
