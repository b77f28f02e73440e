import { BOUNDS } from '../config.ts';
import { intParam } from '../params.ts';
import { sleepAsync, sleepSync } from '../workloads/sleep.ts';
import type { RouteGroup } from './context.ts';

export const sleepRoutes: RouteGroup = (app, { config }) => {
  app.get('/sleep/sync', (c) => {
    const ms = intParam(c.req.queries('ms'), 'ms', config.sleepMs, BOUNDS.sleepMs);
    sleepSync(ms);
    return c.json({ ms, mode: 'sync' });
  });
  app.get('/sleep/async', async (c) => {
    const ms = intParam(c.req.queries('ms'), 'ms', config.sleepMs, BOUNDS.sleepMs);
    await sleepAsync(ms);
    return c.json({ ms, mode: 'async' });
  });
};
