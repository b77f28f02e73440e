// Seed 002: recursive Fibonacci on the loop, as async functions, and in the worker pool.
import { BOUNDS } from '../config.ts';
import { choiceParam, intParam } from '../params.ts';
import type { ScenarioMode, ScenarioSettings } from '../scenario-contract.ts';
import { FIB_VARIANTS, fibAsync, fibSync, type FibJob, type FibVariant } from '../workloads/fib.ts';

export const name = 'fib';
export const description = 'recursive Fibonacci: on the loop, as async functions, and in a worker pool';
export const order = 3;

export function input(query: URLSearchParams, settings: ScenarioSettings): FibJob {
  const variant = choiceParam(query.getAll('variant'), 'variant', settings.fibVariant as FibVariant, FIB_VARIANTS);
  const bounds = variant === 'memo' ? BOUNDS.fibMemoN : BOUNDS.fibN;
  const n = intParam(query.getAll('n'), 'n', Math.min(settings.fibN, bounds.max), bounds);
  // Per request, so one server can replay seed 002's shapes (async all the way down, heavier busywork).
  const busyExponent = intParam(query.getAll('exp'), 'exp', settings.busyExponent, BOUNDS.busyExponent);
  const asyncDepth = intParam(query.getAll('depth'), 'depth', settings.asyncDepth, BOUNDS.asyncDepth);
  return { n, variant, busyExponent, asyncDepth };
}

export function sync(job: FibJob): number {
  return fibSync(job);
}

export function async(job: FibJob): Promise<number> {
  return fibAsync(job);
}

/** The answer as the routes have always sent it: the job, the mode and the value. */
export function respond(value: number, job: FibJob, mode: ScenarioMode) {
  return { ...job, mode, value };
}
