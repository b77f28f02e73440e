import { cpuUsage, memoryUsage } from 'node:process';
import { askPeers, ClusterIncomplete, mergeStats, type ClusterInfo, type ProcessStats } from '../cluster.ts';
import { intParam } from '../params.ts';
import type { RouteGroup } from './context.ts';

/** The lateness `POST /reset?late-ms=N` may ask to be recorded past, ms. */
const LATE_MS = { min: 1, max: 1000 };

/**
 * /stats and /reset. With --processes, the process a request lands on answers for the whole
 * group (cluster.ts); `?scope=process` asks one process for its own figures only.
 * `/stats/late` is the intervals the answering process's loop was late, recorded only after a
 * `POST /reset?late-ms=N` (the profiler's harness asks for them; a profiled server is one process).
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
  const resetOwn = (lateMs: number | undefined) => {
    stats.reset();
    lag.reset();
    lag.recordLate(lateMs);
    return { ok: true, since: stats.since.toISOString() };
  };
  const cluster = config.cluster;

  /**
   * One process's answer, or the group's: the others asked over their control ports and
   * combined with this one's; a group with a silent member answers its error, never a part.
   */
  const forGroup = async <T extends object>(
    scope: string | undefined,
    mine: T,
    path: string,
    method: 'GET' | 'POST',
    combine: (others: T[], group: ClusterInfo) => object,
  ) => {
    if (cluster === undefined || scope === 'process') return { body: mine, status: 200 as const };
    try {
      return { body: combine(await askPeers<T>(cluster, config.pid, path, method), cluster), status: 200 as const };
    } catch (error) {
      if (error instanceof ClusterIncomplete) return { body: { error: error.message }, status: error.status };
      throw error;
    }
  };

  app.get('/stats', async (c) => {
    const mine = own();
    const answer = await forGroup(c.req.query('scope'), mine, '/stats', 'GET', (others, group) =>
      mergeStats(group.leaderPid, [mine, ...others]),
    );
    return c.json(answer.body, answer.status);
  });
  app.get('/stats/late', (c) => c.json(lag.lateIntervals()));
  app.post('/reset', async (c) => {
    const late = c.req.queries('late-ms');
    const lateMs = late === undefined ? undefined : intParam(late, 'late-ms', 0, LATE_MS);
    const mine = resetOwn(lateMs);
    const path = lateMs === undefined ? '/reset' : `/reset?late-ms=${lateMs}`;
    const answer = await forGroup(c.req.query('scope'), mine, path, 'POST', (others) => ({
      ok: true,
      since: mine.since,
      processes: 1 + others.length,
    }));
    return c.json(answer.body, answer.status);
  });
};
