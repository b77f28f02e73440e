/**
 * The capacity search of one cell, pure: given the decided steps so far, the next rate to offer,
 * or why the search is over. First a coarse bracket (rung by rung, up after a pass and on past the
 * ladder's top until a rate fails, down after a fail), then bisection at the geometric mean of the
 * highest rate below the capacity and the lowest above it, until their ratio is within
 * 1 + resolution. The capacity it reports (capacityBracket) is [highest rate shown to pass, lowest
 * shown to fail], each end the step that decided it.
 *
 * Undecided steps (the time cap came before the counts decided) are never a pass nor a bracket
 * end. They steer the search by their point estimate (share over the target within the allowed
 * share: the capacity is probably above; else below), so it still homes in on the capacity, and
 * each costs the full cap: after `maxUndecided` of them the search stops, as the counts can no
 * longer tell rates that close apart in that time. A step the generator may have made miss
 * (SearchStep.generatorBound) ends the search unless it passed: the generator's own ceiling, not
 * the server, stopped it there.
 */
import type { StepOutcome } from '../stats/step-decision.ts';

export interface SearchStep {
  offeredPerSec: number;
  /** pass only with the percentile decision passed and the server keeping up (achieved ≥ 95 %). */
  outcome: StepOutcome;
  /** Observed share over the target within the allowed share (how an undecided step leans). */
  leansWithin: boolean;
  /**
   * The generator, not the server, may have made this step miss: it was busy 90 % of a core, or
   * its lateness p99 was at least half the target (latency runs from the schedule, so a late
   * send adds its lateness; a few ms of lateness cannot turn a request into one over 100 ms).
   */
  generatorBound: boolean;
}

export interface SearchOptions {
  /** First rate of the coarse bracket. */
  startPerSec: number;
  /** Ratio between rungs of the coarse bracket (the ladder's). */
  factor: number;
  /** Stop bisecting once hi / lo ≤ 1 + resolution. */
  resolution: number;
  maxUndecided: number;
  maxSteps: number;
  /** No rate below this is offered (a cell that fails even here has capacity "< lowest"). */
  floorPerSec: number;
}

export type SearchEnd = 'resolved' | 'generator-bound' | 'undecided-limit' | 'step-limit' | 'below-floor';
export type SearchNext = { rate: number } | { done: SearchEnd };

/** Rates offered by the search: 3 significant digits, at least 0.1 req/s. */
export function searchRate(rate: number): number {
  return Math.max(0.1, Number(rate.toPrecision(3)));
}

/** Where the search stands: the proven ends and the (narrower) ends it is searching between. */
export function searchBounds(steps: readonly SearchStep[]): { pass?: number; fail?: number; lo?: number; hi?: number } {
  const fails = steps.filter((s) => s.outcome === 'fail' && !s.generatorBound).map((s) => s.offeredPerSec);
  const fail = fails.length === 0 ? undefined : Math.min(...fails);
  const passes = steps.filter((s) => s.outcome === 'pass' && (fail === undefined || s.offeredPerSec < fail)).map((s) => s.offeredPerSec);
  const pass = passes.length === 0 ? undefined : Math.max(...passes);
  const leanLow = steps
    .filter((s) => s.outcome === 'undecided' && s.leansWithin && (fail === undefined || s.offeredPerSec < fail))
    .map((s) => s.offeredPerSec);
  const lo = [pass, ...leanLow].reduce<number | undefined>(
    (m, r) => (r === undefined ? m : m === undefined ? r : Math.max(m, r)),
    undefined,
  );
  const leanHigh = steps
    .filter((s) => s.outcome === 'undecided' && !s.leansWithin && (lo === undefined || s.offeredPerSec > lo))
    .map((s) => s.offeredPerSec);
  const hi = [fail, ...leanHigh].reduce<number | undefined>(
    (m, r) => (r === undefined ? m : m === undefined ? r : Math.min(m, r)),
    undefined,
  );
  return {
    ...(pass === undefined ? {} : { pass }),
    ...(fail === undefined ? {} : { fail }),
    ...(lo === undefined ? {} : { lo }),
    ...(hi === undefined ? {} : { hi }),
  };
}

export function nextRate(steps: readonly SearchStep[], options: SearchOptions): SearchNext {
  if (steps.length === 0) return { rate: searchRate(options.startPerSec) };
  const { lo, hi } = searchBounds(steps);
  // The generator fell behind at a rate that did not pass: it cannot vouch for anything above.
  if (steps.some((s) => s.generatorBound && s.outcome !== 'pass' && (lo === undefined || s.offeredPerSec > lo)))
    return { done: 'generator-bound' };
  if (steps.length >= options.maxSteps) return { done: 'step-limit' };
  if (steps.filter((s) => s.outcome === 'undecided').length >= options.maxUndecided) return { done: 'undecided-limit' };
  let rate: number;
  if (hi === undefined) rate = (lo ?? options.startPerSec) * options.factor;
  else if (lo === undefined) {
    rate = hi / options.factor;
    if (rate < options.floorPerSec) return { done: 'below-floor' };
  } else {
    if (hi / lo <= 1 + options.resolution) return { done: 'resolved' };
    rate = Math.sqrt(lo * hi);
  }
  const next = searchRate(rate);
  // Rounding can land on a rate already tried when the ends are close: nothing more to learn.
  if (steps.some((s) => s.offeredPerSec === next)) return { done: 'resolved' };
  return { rate: next };
}
