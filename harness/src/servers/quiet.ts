import type { ServerKind } from '@bench/app';
/**
 * Getting a server quiet between loads, the one concern the bench, the curve and the seeds share:
 * what each load left on the server (requests in hand, the rate it served them at), the wait
 * until it has finished them and nothing new finishes (waitQuiet), the bench's drain with a
 * deadline that backlog calls for, the server's figures after a load, and, where a restart is
 * allowed, replacing a server that stays busy. The process is watched all the while (liveness.ts),
 * so a dead or hung server is ServerLost at once, not a deadline later.
 */
import { Interrupted } from '../cli/interrupt.ts';
import { assertWorking, drainDeadlineMs, ServerBusy, ServerLost } from './liveness.ts';
import type { RunningServer } from './server.ts';
import { type ControlContext, getStats, hungAfterMs, lastReading, routeTotal, type ServerStats } from './server-control.ts';

/**
 * What the last load left on each server: requests sent and not answered (still queued there,
 * or abandoned by the client after --timeout but not by the server), and the rate it served
 * them at. The drain deadline is derived from it.
 */
const leftovers = new WeakMap<RunningServer, { backlog: number; servedPerSec: number }>();

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
  const { left, capMs, deadlineMs, pastCap } = leftBehind(ctx.server, ctx.plan.drainCapSec);
  if (pastCap) {
    await assertWorking(ctx.server, hungAfterMs(ctx.plan), 'its backlog');
    return { missing: backlogReason(left, capMs) };
  }
  try {
    return { value: await getStats(ctx, deadlineMs) };
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
  const { left, capMs, deadlineMs, pastCap } = leftBehind(ctx.server, ctx.plan.drainCapSec);
  if (pastCap) {
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
 * The gap between the two /stats answers that call a server quiet. A server with nothing in hand
 * is idle, so a request still unread in a socket is read and counted within a millisecond or
 * two; the gap is paid by every wait, about 180 of them in a default run (before each run, check
 * and cross-check), so it is no longer than that needs.
 */
const QUIET_GAP_MS = 20;

/**
 * Waits until the server is quiet: nothing in hand and nothing new finished between two /stats
 * answers QUIET_GAP_MS apart or more. The one quiet-wait of the harness: the bench (drain above), the curve's
 * steps and the seeds' replays all wait with it, so all of them watch the process while waiting
 * (a dead or hung server is ServerLost at once, not a deadline later) and give up with ServerBusy,
 * saying `busyReason`, when `deadlineMs` passes with the server still working.
 *
 * The first of the two may be the server's latest answer from before the wait (the figures read
 * after its last load, server-control.ts lastReading), when it had nothing in hand: the second is
 * then asked for once that answer is QUIET_GAP_MS old. bench:ab runs the other lane's cell between
 * two runs on one server, so that answer is a second or more old by then and one more answer
 * settles the wait, instead of two and the gap between them before every run.
 */
export async function waitQuiet(ctx: ControlContext, deadlineMs: number, busyReason: string): Promise<void> {
  const until = performance.now() + deadlineMs;
  const before = lastReading(ctx.server);
  let lastTotal = -1;
  if (before !== undefined && before.inFlight === 0) {
    lastTotal = before.total;
    const gapLeft = before.atMs + QUIET_GAP_MS - performance.now();
    if (gapLeft > 0) await new Promise((resolve) => setTimeout(resolve, gapLeft));
  }
  for (;;) {
    if (ctx.signal?.aborted === true) throw new Interrupted('interrupted');
    const remaining = until - performance.now();
    if (remaining <= 0) throw new ServerBusy(busyReason);
    const stats = await getStats(ctx, remaining);
    const total = routeTotal(stats);
    if (stats.inFlight === 0 && total === lastTotal) return;
    lastTotal = stats.inFlight === 0 ? total : -1;
    await new Promise((resolve) => setTimeout(resolve, QUIET_GAP_MS));
  }
}

/**
 * Whether the last load left the server more work than the drain cap allows for (what statsAfterLoad
 * records as missing): stopping it need not give SIGTERM a grace, which would only run behind that work.
 */
export function pastDrainCap(server: RunningServer, drainCapSec: number): boolean {
  return leftBehind(server, drainCapSec).pastCap;
}

/**
 * What the last load left on the server (nothing, when none is remembered) and the drain deadline
 * it calls for; past the cap, no wait is worth it.
 */
function leftBehind(server: RunningServer, drainCapSec: number) {
  const left = leftovers.get(server) ?? { backlog: 0, servedPerSec: 0 };
  const capMs = drainCapSec * 1000;
  const deadlineMs = drainDeadlineMs(left.backlog, left.servedPerSec, capMs);
  return { left, capMs, deadlineMs, pastCap: deadlineMs > capMs };
}

/** Remembers what a load left on the server, for the next drain's deadline. */
export function rememberLeftovers(server: RunningServer, left: { backlog: number; servedPerSec: number }): void {
  leftovers.set(server, left);
}

/** What quietOrRestart needs beyond a control context: how to replace the server, and what to redo on a fresh one. */
export interface Restartable extends ControlContext {
  /** Replaces a server that is alive but will not be quiet in time; absent where nothing may be restarted. */
  restart?: (reason: string) => Promise<RunningServer>;
  onPhase(phase: string): void;
}

/** What to do after a restart: check and warm the fresh process, and the phase to charge time to again. */
interface AfterRestart {
  /** A fresh process has a cold JIT: the caller checks and warms it again. */
  prepare?: () => Promise<void>;
  /** The phase the caller was in: the restart and the new server's warm-up are charged to their own phases, what follows to this one. */
  resume?: string;
}

/**
 * Gets the server quiet before a run, or replaces it: a drain with the deadline its backlog
 * calls for (capped), and when the server is still working after that, a restart (recorded),
 * the caller's preparation of the new server, and a second drain. Returns the restarts'
 * reasons. A second failure to get quiet is ServerLost.
 */
export async function quietOrRestart(ctx: Restartable, after: AfterRestart = {}): Promise<string[]> {
  try {
    await drain(ctx);
    return [];
  } catch (error) {
    if (!(error instanceof ServerBusy) || ctx.restart === undefined) throw toLost(error);
    const reason = `restarted: ${error.message}`;
    ctx.onPhase('restart');
    ctx.server = await ctx.restart(reason);
    await after.prepare?.();
    try {
      await drain(ctx);
    } catch (again) {
      throw toLost(again);
    }
    if (after.resume !== undefined) ctx.onPhase(after.resume);
    return [reason];
  }
}

function toLost(error: unknown): Error {
  return error instanceof ServerBusy ? new ServerLost(`${error.message}, even after a restart`) : (error as Error);
}

/**
 * Stops a lane's servers of one kind once no later cell needs them. One still working through a
 * backlog past the drain cap is stopped without a SIGTERM grace, for the reason a restart is.
 */
export async function stopKind(
  lanes: readonly { servers: Map<ServerKind, RunningServer> }[],
  kind: ServerKind,
  drainCapSec: number,
): Promise<void> {
  await Promise.all(
    lanes.map(async (lane) => {
      const server = lane.servers.get(kind);
      if (server !== undefined) await server.stop(pastDrainCap(server, drainCapSec) ? { graceMs: 0 } : {});
      lane.servers.delete(kind);
    }),
  );
}
