import { cpuUsage, memoryUsage } from 'node:process';
import { askPeers, ClusterIncomplete, mergeStats, type ProcessStats } from '../cluster.ts';
import type { RouteGroup } from './context.ts';

/**
 * /stats and /reset. With --processes, the process a request lands on answers for the whole
 * group (cluster.ts); `?scope=process` asks one process for its own figures only.
 */
export const statsRoutes: RouteGroup = (app, { config, stats, lag }) => {
  const own = (): ProcessStats => {
    const cpu = cpuUsage();
    return {
      runtime: config.runtime,
      pid: config.pid,
      since: stats.since.toISOString(),
      routes: stats.snapshot(),
      inFlight: stats.inFlight,
      eventLoopLagMs: lag.summary(),
      cpuMs: { user: cpu.user / 1000, system: cpu.system / 1000 },
      rssBytes: memoryUsage().rss,
    };
  };
  const resetOwn = () => {
    stats.reset();
    lag.reset();
    return { ok: true, since: stats.since.toISOString() };
  };
  const cluster = config.cluster;

  app.get('/stats', async (c) => {
    const mine = own();
    if (cluster === undefined || c.req.query('scope') === 'process') return c.json(mine);
    try {
      const others = await askPeers<ProcessStats>(cluster, config.pid, '/stats', 'GET');
      return c.json(mergeStats(cluster.leaderPid, [mine, ...others]));
    } catch (error) {
      if (error instanceof ClusterIncomplete) return c.json({ error: error.message }, error.status);
      throw error;
    }
  });
  app.post('/reset', async (c) => {
    const mine = resetOwn();
    if (cluster === undefined || c.req.query('scope') === 'process') return c.json(mine);
    try {
      const others = await askPeers<{ since: string }>(cluster, config.pid, '/reset', 'POST');
      return c.json({ ok: true, since: mine.since, processes: 1 + others.length });
    } catch (error) {
      if (error instanceof ClusterIncomplete) return c.json({ error: error.message }, error.status);
      throw error;
    }
  });
};
