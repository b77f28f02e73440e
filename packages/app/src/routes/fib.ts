import { BOUNDS } from '../config.ts';
import { choiceParam, intParam } from '../params.ts';
import { FIB_VARIANTS, fibAsync, fibSync, type FibJob } from '../workloads/fib.ts';
import type { Context } from 'hono';
import type { AppContext, RouteGroup } from './context.ts';

function readJob(c: Context, { config }: AppContext): FibJob {
  const variant = choiceParam(c.req.queries('variant'), 'variant', config.fibVariant, FIB_VARIANTS);
  const bounds = variant === 'memo' ? BOUNDS.fibMemoN : BOUNDS.fibN;
  const n = intParam(c.req.queries('n'), 'n', Math.min(config.fibN, bounds.max), bounds);
  return { n, variant, busyExponent: config.busyExponent, asyncDepth: config.asyncDepth };
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
