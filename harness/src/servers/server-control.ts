/**
 * The harness's control channel to a server it is measuring: /stats and /reset while the
 * process is watched (liveness.ts), the wait until a server is quiet after a load (what it had
 * in hand finished, nothing new finishing), and the backlog each load left, which sets how long
 * that wait may take. measure.ts drives runs with these; it decides when, this file how.
 */
import { formatExit, type RunningServer } from './server.ts';
import { Interrupted } from '../cli/interrupt.ts';
import { assertWorking, drainDeadlineMs, ServerBusy, ServerLost, tailOf, whileAlive } from './liveness.ts';

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

/**
 * What the last load left on each server: requests sent and not answered (still queued there,
 * or abandoned by the client after --timeout but not by the server), and the rate it served
 * them at. The drain deadline is derived from it.
 */
const leftovers = new WeakMap<RunningServer, { backlog: number; servedPerSec: number }>();

/** Seconds of no progress at all, with the process alive, before a server counts as hung. */
export function hungAfterMs(plan: Pick<QuietDeadlines, 'timeoutSec'>): number {
  return Math.max(2, plan.timeoutSec) * 1000;
}

/**
 * The hang deadline for the curve's and the seeds' quiet-waits, whose request timeouts (up to a
 * minute) are too long to wait on a stopped process. A serving loop wakes at least every few ms
 * (the lag sampler), so 5 s of a main thread that neither ran nor woke is no slow server.
 */
export const HUNG_AFTER_SEC_BETWEEN_LOADS = 5;

/**
 * The server's own figures for the run just ended. An overloaded server answers /stats only
 * after the requests queued in front of it, so it is given the drain deadline its backlog
 * calls for; when that would pass the cap, the figures are recorded as missing (the next run
 * starts on a restarted server) rather than waited for.
 */
export async function statsAfterLoad(ctx: ControlContext): Promise<{ value?: ServerStats; missing?: string }> {
  const left = leftovers.get(ctx.server) ?? { backlog: 0, servedPerSec: 0 };
  const capMs = ctx.plan.drainCapSec * 1000;
  const deadline = drainDeadlineMs(left.backlog, left.servedPerSec, capMs);
  if (deadline > capMs) {
    await assertWorking(ctx.server, hungAfterMs(ctx.plan), 'its backlog');
    return { missing: backlogReason(left, capMs) };
  }
  try {
    return { value: await getStats(ctx, deadline) };
  } catch (error) {
    if (error instanceof ServerBusy) return { missing: error.message };
    throw error;
  }
}

export function backlogReason(left: { backlog: number; servedPerSec: number }, capMs: number): string {
  const rate = left.servedPerSec > 0 ? ` at the ${left.servedPerSec.toFixed(1)} req/s it served` : ', none served';
  return `about ${left.backlog} requests in hand${rate}: more than the ${capMs / 1000} s drain cap`;
}

/**
 * The bench's wait before a run: quiet (waitQuiet below) within the deadline the last load's
 * backlog calls for. When autocannon stops, requests it had sent are still on the server: in its
 * handlers, and unread in the sockets of closed connections, which the server still answers.
 * Measured without this wait, a 0.5 s bcrypt run after a warm-up finished no request of its own
 * (the server spent it on 17 left-over hashes). ServerBusy when the deadline passes (or would)
 * with the server still working.
 */
export async function drain(ctx: ControlContext): Promise<void> {
  const capMs = ctx.plan.drainCapSec * 1000;
  const left = leftovers.get(ctx.server) ?? { backlog: 0, servedPerSec: 0 };
  const deadlineMs = drainDeadlineMs(left.backlog, left.servedPerSec, capMs);
  if (deadlineMs > capMs) {
    await assertWorking(ctx.server, hungAfterMs(ctx.plan), 'its backlog');
    throw new ServerBusy(backlogReason(left, capMs));
  }
  // With little or nothing left over, the server still gets up to --timeout to finish it.
  const untilMs = Math.max(deadlineMs, Math.min(capMs, ctx.plan.timeoutSec * 1000));
  await waitQuiet(
    ctx,
    untilMs,
    `server still busy ${(deadlineMs / 1000).toFixed(1)} s after the load stopped (drain deadline from ${left.backlog} requests in hand)`,
  );
  leftovers.delete(ctx.server);
}

/**
 * Waits until the server is quiet: nothing in hand and nothing new finished between two /stats
 * answers 50 ms apart. The one quiet-wait of the harness: the bench (drain above), the curve's
 * steps and the seeds' replays all wait with it, so all of them watch the process while waiting
 * (a dead or hung server is ServerLost at once, not a deadline later) and give up with ServerBusy,
 * saying `busyReason`, when `deadlineMs` passes with the server still working.
 */
export async function waitQuiet(ctx: ControlContext, deadlineMs: number, busyReason: string): Promise<void> {
  const until = performance.now() + deadlineMs;
  let lastTotal = -1;
  for (;;) {
    if (ctx.signal?.aborted === true) throw new Interrupted('interrupted');
    const remaining = until - performance.now();
    if (remaining <= 0) throw new ServerBusy(busyReason);
    const stats = await getStats(ctx, remaining);
    const total = Object.values(stats.routes).reduce((sum, r) => sum + r.count, 0);
    if (stats.inFlight === 0 && total === lastTotal) return;
    lastTotal = stats.inFlight === 0 ? total : -1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function totalCpu(stats: ServerStats): number {
  return stats.cpuMs.user + stats.cpuMs.system;
}

export async function getStats(ctx: ControlContext, deadlineMs: number): Promise<ServerStats> {
  const res = await control(ctx, '/stats', 'GET', deadlineMs);
  return (await res.json()) as ServerStats;
}

export async function post(ctx: ControlContext, path: string): Promise<void> {
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

/** Remembers what a load left on the server, for the next drain's deadline. */
export function rememberLeftovers(server: RunningServer, left: { backlog: number; servedPerSec: number }): void {
  leftovers.set(server, left);
}
