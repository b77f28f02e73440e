import type { Arrivals } from './arrivals.ts';
import type { DecisionRule, StepVerdict } from '../stats/step-decision.ts';

/**
 * A step that stops once its counts decide (step-decision.ts): durationSec is then its time cap.
 * The generator counts the requests over `targetMs` as their fate becomes known and looks every
 * `checkEveryMs`; it stops sending at a fail at once, at a pass only after `minSec`.
 */
export interface StepDecisionOptions extends DecisionRule {
  targetMs: number;
  minSec: number;
  checkEveryMs: number;
  /**
   * Count requests by their design effect (step-decision.ts designEffect): in a queue misses
   * cluster, so n requests know the share over the target as well as fewer independent ones
   * would. Absent: requests taken as independent, as the exact bound itself assumes
   * (`bench:curve --design-effect` sets it; docs/load-curves.md weighs the two).
   */
  designEffect?: boolean;
}

/** One open-loop step, as the generator process is asked to run it. */
export interface StepOptions {
  /** Full URL of the request, e.g. http://127.0.0.1:1234/sleep/sync?ms=20. */
  url: string;
  ratePerSec: number;
  durationSec: number;
  arrivals: Arrivals;
  seed: number;
  /** Requests in flight at most; one due while this many are out is dropped (and counted). */
  maxInFlight: number;
  /** A request unanswered this long is abandoned and recorded at this latency (a lower bound). */
  timeoutMs: number;
  /** Stop as soon as the step is decided (absent: run durationSec, as before). */
  decide?: StepDecisionOptions;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

/** What the generator saw in one step. Latencies count from the scheduled send time. */
export interface StepMeasurement {
  /** Requests the schedule held. */
  scheduled: number;
  sent: number;
  /** Due while maxInFlight requests were out: not sent, and counted here. */
  dropped: number;
  /** Answered with 2xx. */
  completed: number;
  /** Failed other than by timing out (connection errors, non-2xx answers). */
  errors: number;
  timeouts: number;
  /** Rate of 2xx answers, first to last: the rate the server actually served. */
  achievedPerSec: number;
  /** From the first due time to the last answer or timeout. */
  elapsedSec: number;
  /** From the scheduled time to the end of the answer; timeouts in at the timeout. */
  latencyMs: Percentiles;
  /** How late each request left against its schedule: the generator's own delay. */
  latenessMs: { p50: number; p99: number; max: number };
  /**
   * The generator process's CPU over the send window, 100 = one core; busyPercent leaves out
   * the estimated cost of waiting by spinning just before each due time.
   */
  cpuPercent: number;
  busyPercent: number;
  /**
   * With StepOptions.decide: the verdict on every request of the step (all known once it ended),
   * and when sending stopped (seconds from the first due time; the cap when nothing decided).
   */
  verdict?: StepVerdict;
  stoppedAtSec?: number;
}

export type GeneratorCommand = { type: 'step'; options: StepOptions };
export type GeneratorMessage = { type: 'ready' } | { type: 'result'; result: StepMeasurement } | { type: 'error'; message: string };
