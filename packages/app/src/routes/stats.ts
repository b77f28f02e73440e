import { cpuUsage, memoryUsage } from 'node:process';
import type { RouteGroup } from './context.ts';

export const statsRoutes: RouteGroup = (app, { config, stats, lag }) => {
  app.get('/stats', (c) => {
    const cpu = cpuUsage();
    return c.json({
      runtime: config.runtime,
      pid: config.pid,
      since: stats.since.toISOString(),
      routes: stats.snapshot(),
      inFlight: stats.inFlight,
      eventLoopLagMs: lag.summary(),
      cpuMs: { user: cpu.user / 1000, system: cpu.system / 1000 },
      rssBytes: memoryUsage().rss,
    });
  });
  app.post('/reset', (c) => {
    stats.reset();
    lag.reset();
    return c.json({ ok: true, since: stats.since.toISOString() });
  });
};
