/**
 * The harness's control channel to a server it is measuring: /stats and /reset while the
 * process is watched (liveness.ts). Getting the server quiet between loads is quiet.ts; the
 * bench, the curve and the seeds decide when, these files how.
 */
import { formatExit, type RunningServer } from './server.ts';
import { Interrupted } from '../cli/interrupt.ts';
import { ServerBusy, ServerLost, tailOf, whileAlive } from './liveness.ts';

/** The deadlines a quiet-wait honours: the drain's cap and the request timeout, in seconds. */
export interface QuietDeadlines {
  drainCapSec: number;
  timeoutSec: number;
}

/** What these calls need of a cell's context: the server, the run's deadlines and its abort. */
export interface ControlContext {
  server: RunningServer;
  plan: QuietDeadlines;
  /** Aborting it ends a quiet-wait or a control request at once (Interrupted). */
  signal?: AbortSignal;
}

export interface ServerStats {
  routes: Record<string, { count: number; perConnection?: Record<string, number> }>;
  inFlight: number;
  eventLoopLagMs: { p99: number; max: number };
  cpuMs: { user: number; system: number };
  rssBytes: number;
}

/** Seconds of no progress at all, with the process alive, before a server counts as hung. */
export function hungAfterMs(plan: Pick<QuietDeadlines, 'timeoutSec'>): number {
  return Math.max(2, plan.timeoutSec) * 1000;
}

export function totalCpu(stats: ServerStats): number {
  return stats.cpuMs.user + stats.cpuMs.system;
}

/** A server's latest /stats answer: what it had in hand, the requests it had counted, and when it answered. */
export interface StatsReading {
  inFlight: number;
  /** Requests counted over every route since the last /reset. */
  total: number;
  /** performance.now() when the answer arrived: the server read its figures before that. */
  atMs: number;
}

const readings = new WeakMap<RunningServer, StatsReading>();

/**
 * The server's latest /stats answer since the last control POST (a /reset starts its counts over,
 * so a reading from before one cannot be compared with one after): the quiet-wait's first reading
 * when a run on another server came between (servers/quiet.ts waitQuiet).
 */
export function lastReading(server: RunningServer): StatsReading | undefined {
  return readings.get(server);
}

export function routeTotal(stats: Pick<ServerStats, 'routes'>): number {
  return Object.values(stats.routes).reduce((sum, r) => sum + r.count, 0);
}

export async function getStats(ctx: ControlContext, deadlineMs: number): Promise<ServerStats> {
  const res = await control(ctx, '/stats', 'GET', deadlineMs);
  const stats = (await res.json()) as ServerStats;
  readings.set(ctx.server, { inFlight: stats.inFlight, total: routeTotal(stats), atMs: performance.now() });
  return stats;
}

export async function post(ctx: ControlContext, path: string): Promise<void> {
  readings.delete(ctx.server);
  await (await control(ctx, path, 'POST', ctx.plan.drainCapSec * 1000)).arrayBuffer();
}

/**
 * A control request (/stats, /reset). It may wait behind every request queued on the server,
 * so its own silence proves nothing: while it waits, the process is watched (liveness.ts) and
 * only death or a hang fails the cell; a deadline passed while working is ServerBusy.
 */
export async function control(ctx: ControlContext, path: string, method: string, deadlineMs: number): Promise<Response> {
  const { server } = ctx;
  const abort = new AbortController();
  const interrupt = () => abort.abort();
  ctx.signal?.addEventListener('abort', interrupt, { once: true });
  let res: Response;
  try {
    const answer = fetch(server.url + path, { method, signal: abort.signal });
    res = await whileAlive(server, answer, { hungAfterMs: hungAfterMs(ctx.plan), deadlineMs, what: `${method} ${path}` });
  } catch (error) {
    abort.abort();
    if (ctx.signal?.aborted === true) throw new Interrupted('interrupted');
    if (error instanceof ServerLost || error instanceof ServerBusy) throw error;
    await lostIfDead(server);
    throw new ServerLost(`${method} ${path} failed: ${(error as Error).message}${tailOf(server)}`);
  } finally {
    ctx.signal?.removeEventListener('abort', interrupt);
  }
  if (!res.ok) throw new ServerLost(`${method} ${path} answered ${res.status}`);
  return res;
}

/** Gives a dying process a moment to be reaped, then reports it as lost if it is gone. */
export async function lostIfDead(server: RunningServer): Promise<void> {
  const exit = await Promise.race([server.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
  if (exit !== undefined) throw new ServerLost(`server died (${formatExit(exit)})${tailOf(server)}`);
}
