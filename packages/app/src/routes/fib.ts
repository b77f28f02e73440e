import { BOUNDS } from '../config.ts';
import { choiceParam, intParam } from '../params.ts';
import { FIB_VARIANTS, fibAsync, fibSync, type FibJob } from '../workloads/fib.ts';
import type { Context } from 'hono';
import type { AppContext, RouteGroup } from './context.ts';

function readJob(c: Context, { config }: AppContext): FibJob {
  const variant = choiceParam(c.req.queries('variant'), 'variant', config.fibVariant, FIB_VARIANTS);
  const bounds = variant === 'memo' ? BOUNDS.fibMemoN : BOUNDS.fibN;
  const n = intParam(c.req.queries('n'), 'n', Math.min(config.fibN, bounds.max), bounds);
  // Per request, so one server can replay seed 002's shapes (async all the way down, heavier busywork).
  const busyExponent = intParam(c.req.queries('exp'), 'exp', config.busyExponent, BOUNDS.busyExponent);
  const asyncDepth = intParam(c.req.queries('depth'), 'depth', config.asyncDepth, BOUNDS.asyncDepth);
  return { n, variant, busyExponent, asyncDepth };
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
