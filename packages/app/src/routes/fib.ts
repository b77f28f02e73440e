import { BOUNDS } from '../config.ts';
import { BadRequest } from '../errors.ts';
import { choiceParam, intParam } from '../params.ts';
import { asyncCalls, FIB_VARIANTS, fibAsync, fibSync, spinIterations, type FibJob } from '../workloads/fib.ts';
import type { Context } from 'hono';
import type { AppContext, RouteGroup } from './context.ts';

function readJob(c: Context, { config }: AppContext): FibJob {
  const variant = choiceParam(c.req.queries('variant'), 'variant', config.fibVariant, FIB_VARIANTS);
  const bounds = variant === 'memo' ? BOUNDS.fibMemoN : BOUNDS.fibN;
  // Per request, so one server can replay seed 002's shapes (async all the way down, heavier busywork).
  const busyExponent = intParam(c.req.queries('exp'), 'exp', config.busyExponent, BOUNDS.busyExponent);
  const asyncDepth = intParam(c.req.queries('depth'), 'depth', config.asyncDepth, BOUNDS.asyncDepth);
  // A default n never breaks a joint bound: it is lowered to the largest n the others allow.
  const largest = largestN({ variant, busyExponent, asyncDepth }, bounds.max);
  const n = intParam(c.req.queries('n'), 'n', Math.min(config.fibN, largest), bounds);
  const job = { n, variant, busyExponent, asyncDepth };
  const broken = jointBoundBroken(job);
  if (broken !== undefined) throw new BadRequest(`${broken}: with these, n may be at most ${largest}`);
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

export const fibRoutes: RouteGroup = (app, ctx) => {
  app.get('/fib/sync', (c) => {
    const job = readJob(c, ctx);
    return c.json({ ...job, mode: 'sync', value: fibSync(job) });
  });
  app.get('/fib/async', async (c) => {
    const job = readJob(c, ctx);
    return c.json({ ...job, mode: 'async', value: await fibAsync(job) });
  });
  app.get('/fib/worker', async (c) => {
    const job = readJob(c, ctx);
    return c.json({ ...job, mode: 'worker', value: await ctx.pool.run(job) });
  });
};
