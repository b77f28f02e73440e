/**
 * The pure side of a load curve: when a step keeps up, meets its target or is past saturation, and what
 * a finished curve says (the knee; M/D/1 predictions for the tests). Tested on fixed inputs.
 */
import { eachArrival } from '../load/arrivals.ts';

/** A step delivered less than this share of what was offered: the server did not keep up. */
export const KEEPS_UP_RATIO = 0.95;
/** Clearly past saturation (early stop): achieved below this share of offered... */
export const PAST_RATIO = 0.8;
/** ...or p99 above this many times the latency target. */
export const PAST_SLO_FACTOR = 10;
/** Steps clearly past saturation after which a cell's ladder stops. */
export const STOP_AFTER_PAST = 2;
/** The knee: the last step whose p99 is at most this many times the lowest step's p99. */
export const KNEE_FACTOR = 2;

export interface StepFigures {
  offeredPerSec: number;
  achievedPerSec: number;
  p99Ms: number;
  generatorBound: boolean;
}

/** The server kept up: it answered at least KEEPS_UP_RATIO of the offered rate. */
export function keptUp(step: Pick<StepFigures, 'offeredPerSec' | 'achievedPerSec'>): boolean {
  return step.achievedPerSec >= KEEPS_UP_RATIO * step.offeredPerSec;
}

/** Clearly past saturation: well short of the offered rate, or a p99 far above the target. */
export function clearlyPast(step: Pick<StepFigures, 'offeredPerSec' | 'achievedPerSec' | 'p99Ms'>, sloMs: number): boolean {
  return step.achievedPerSec < PAST_RATIO * step.offeredPerSec || step.p99Ms > PAST_SLO_FACTOR * sloMs;
}

/** Whether the ladder should stop: STOP_AFTER_PAST steps clearly past saturation so far. */
export function shouldStop(steps: readonly Pick<StepFigures, 'offeredPerSec' | 'achievedPerSec' | 'p99Ms'>[], sloMs: number): boolean {
  return steps.filter((s) => clearlyPast(s, sloMs)).length >= STOP_AFTER_PAST;
}

/**
 * A step that meets the target: p99 within it and kept up. A generator-bound step counts when it
 * meets it: latency runs from the scheduled time, so the generator's lateness only added to what
 * was measured (and its late sends arrive bunched, which is harder on the server, not easier).
 * It is a miss that a generator-bound step cannot vouch for, and misses decide nothing here.
 */
export function meetsTarget(step: StepFigures, sloMs: number): boolean {
  return step.p99Ms <= sloMs && keptUp(step);
}

export interface CurveSummary {
  /** Highest offered rate that met the target; null when none did. */
  capacityPerSec: number | null;
  /** True when the highest step measured met the target: the capacity is at least this. */
  capacityAtLeast: boolean;
  /** Last step (in rate order) whose p99 stayed within KNEE_FACTOR x the lowest step's p99. */
  kneePerSec: number | null;
}

/** Capacity at the target and the knee, from the steps in rate order. */
export function summarizeCurve(steps: readonly StepFigures[], sloMs: number): CurveSummary {
  const usable = [...steps].sort((a, b) => a.offeredPerSec - b.offeredPerSec);
  const meeting = usable.filter((s) => meetsTarget(s, sloMs));
  const capacity = meeting.at(-1);
  const highest = usable.at(-1);
  const base = usable[0]?.p99Ms;
  let knee: number | null = null;
  if (base !== undefined) {
    for (const s of usable) {
      if (s.p99Ms > KNEE_FACTOR * Math.max(base, 1) || !keptUp(s)) break;
      knee = s.offeredPerSec;
    }
  }
  return {
    capacityPerSec: capacity?.offeredPerSec ?? null,
    capacityAtLeast: capacity !== undefined && capacity === highest,
    kneePerSec: knee,
  };
}

/**
 * Mean response time of an M/D/1 queue (Poisson arrivals at `ratePerSec`, one server, fixed
 * service time `serviceMs`): service plus the Pollaczek-Khinchine wait rho / (2 mu (1 - rho)).
 */
export function md1MeanMs(ratePerSec: number, serviceMs: number): number {
  const mu = 1000 / serviceMs;
  const rho = ratePerSec / mu;
  if (rho >= 1) return Number.POSITIVE_INFINITY;
  return serviceMs + (rho / (2 * mu * (1 - rho))) * 1000;
}

/**
 * The mean response time of one single-server FIFO queue with a fixed service time, for exactly
 * these arrivals (Lindley's recursion): what an exact generator should see on that schedule.
 */
export function lindleyMeanMs(offsetsMs: readonly number[], serviceMs: number): number {
  let freeAt = 0;
  let total = 0;
  for (const t of offsetsMs) {
    const start = Math.max(t, freeAt);
    freeAt = start + serviceMs;
    total += freeAt - t;
  }
  return offsetsMs.length === 0 ? 0 : total / offsetsMs.length;
}

/** Each request's response time in a single-server FIFO queue with a fixed service time (Lindley's recursion). */
export function lindleyLatenciesMs(offsetsMs: readonly number[], serviceMs: number): number[] {
  let freeAt = 0;
  return offsetsMs.map((t) => {
    freeAt = Math.max(t, freeAt) + serviceMs;
    return freeAt - t;
  });
}

/**
 * The M/D/1 capacity at "p`percentile` ≤ targetMs": the highest Poisson rate at which at most
 * 1 − percentile/100 of requests take longer than the target, found by bisection on the share
 * over the target of `simulatedSec` of seeded arrivals run through Lindley's recursion. Long
 * enough (4,000 s: about 100,000 arrivals near 27 req/s) that the seed moves it by well under 1 %.
 */
export function md1CapacityPerSec(serviceMs: number, targetMs: number, percentile = 99, simulatedSec = 4000, seed = 1): number {
  const allowed = 1 - percentile / 100;
  // lindleyLatenciesMs over arrivalOffsets, counted as the arrivals come: the bisection probes a
  // dozen rates, each 100,000 arrivals, and two arrays of them a probe were most of its time.
  const shareOver = (rate: number) => {
    let [freeAt, count, over] = [0, 0, 0];
    eachArrival(rate, simulatedSec, 'poisson', seed, (t) => {
      freeAt = Math.max(t, freeAt) + serviceMs;
      count++;
      if (freeAt - t > targetMs) over++;
    });
    return over / Math.max(1, count);
  };
  if (serviceMs > targetMs) return 0;
  let lo = 0;
  let hi = 1000 / serviceMs;
  while (hi / Math.max(lo, 1e-9) > 1.001) {
    const mid = lo === 0 ? hi / 2 : Math.sqrt(lo * hi);
    if (shareOver(mid) <= allowed) lo = mid;
    else hi = mid;
  }
  return lo;
}
