// Seed 002: recursive Fibonacci on the loop, as async functions, and in the worker pool.
import { BOUNDS } from '../config.ts';
import { choiceParam, intParam } from '../params.ts';
import type { ScenarioMode, ScenarioSettings } from '../scenario-contract.ts';
import { asyncCalls, FIB_VARIANTS, fibAsync, fibSync, spinIterations, type FibJob, type FibVariant } from '../workloads/fib.ts';

export const name = 'fib';
export const description = 'recursive Fibonacci: on the loop, as async functions, and in a worker pool';
export const order = 3;

export function input(query: URLSearchParams, settings: ScenarioSettings): FibJob {
  const variant = choiceParam(query.getAll('variant'), 'variant', settings.fibVariant as FibVariant, FIB_VARIANTS);
  const bounds = variant === 'memo' ? BOUNDS.fibMemoN : BOUNDS.fibN;
  // Per request, so one server can replay seed 002's shapes (async all the way down, heavier busywork).
  const busyExponent = intParam(query.getAll('exp'), 'exp', settings.busyExponent, BOUNDS.busyExponent);
  const asyncDepth = intParam(query.getAll('depth'), 'depth', settings.asyncDepth, BOUNDS.asyncDepth);
  // A default n never breaks a joint bound: it is lowered to the largest n the others allow.
  const largest = largestN({ variant, busyExponent, asyncDepth }, bounds.max);
  const n = intParam(query.getAll('n'), 'n', Math.min(settings.fibN, largest), bounds);
  const job = { n, variant, busyExponent, asyncDepth };
  const broken = jointBoundBroken(job);
  if (broken !== undefined) throw new RangeError(`${broken}: with these, n may be at most ${largest}`);
  return job;
}

/**
 * The joint bounds (config.ts), checked for every mode alike: the same query is valid or not
 * whichever mode serves it, so every mode can be asked the same input.
 */
function jointBoundBroken(job: FibJob): string | undefined {
  const calls = asyncCalls(job);
  if (calls > BOUNDS.fibAsyncCalls.max) {
    const shape = job.variant === 'memo-late' ? 'variant=memo-late' : `depth=${job.asyncDepth}`;
    return `n=${job.n} with ${shape} makes ${calls} async calls, over the bound of ${BOUNDS.fibAsyncCalls.max} async calls`;
  }
  const spins = spinIterations(job);
  if (spins > BOUNDS.busyIterations.max) {
    return `variant=busy with n=${job.n} and exp=${job.busyExponent} spins ${spins} times (n ** exp), over the bound of ${BOUNDS.busyIterations.max}`;
  }
  return undefined;
}

function largestN(shape: Omit<FibJob, 'n'>, max: number): number {
  let n = max;
  while (n > 0 && jointBoundBroken({ ...shape, n }) !== undefined) n--;
  return n;
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
