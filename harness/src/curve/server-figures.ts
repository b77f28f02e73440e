/**
 * The server's side of a step: quiet before it, /reset, then CPU from /proc and loop lag from
 * /stats after it, as the bench does. A raw server has no /stats: only its CPU is read. A server
 * on another host (--server-host) has no /proc here: its CPU comes from its own /stats (process
 * CPU time, summed over its group), read before and after the step.
 */
import { readProc } from '../system/proc.ts';
import type { RunningServer } from '../servers/server.ts';
import { HUNG_AFTER_SEC_BETWEEN_LOADS, waitQuiet as waitQuietOnServer } from '../servers/quiet.ts';

interface Stats {
  inFlight: number;
  cpuMs?: { user: number; system: number };
  routes: Record<string, { count: number }>;
  eventLoopLagMs: { p99: number; max: number };
}

async function getStats(server: RunningServer, timeoutMs: number): Promise<Stats> {
  const res = await fetch(`${server.url}/stats`, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))) });
  if (!res.ok) throw new Error(`GET /stats answered ${res.status}`);
  return (await res.json()) as Stats;
}

/**
 * Before and after a step: the bench's quiet-wait (servers/server-control.ts), so requests the
 * generator abandoned after its timeout finish before the next step, and a server that dies or
 * hangs meanwhile fails the cell at once. Throws ServerBusy when the server is still working
 * after `deadlineMs`. A raw server has no /stats to wait on.
 */
export async function waitQuiet(server: RunningServer, deadlineMs: number, signal?: AbortSignal): Promise<void> {
  if (server.kind === 'raw') return;
  const ctx = {
    server,
    plan: { drainCapSec: deadlineMs / 1000, timeoutSec: HUNG_AFTER_SEC_BETWEEN_LOADS },
    ...(signal === undefined ? {} : { signal }),
  };
  await waitQuietOnServer(ctx, deadlineMs, `server still busy ${deadlineMs / 1000} s after the step`);
}

export interface ServerWindow {
  stop(): Promise<{ cpuPercent: number; eventLoopLagMs?: { p99: number; max: number } }>;
}

/** Starts a step's server window: /reset (hono), CPU read; stop() reads CPU and /stats. */
export async function openWindow(server: RunningServer, timeoutMs: number): Promise<ServerWindow> {
  if (server.kind === 'hono') {
    const res = await fetch(`${server.url}/reset`, { method: 'POST', signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))) });
    await res.arrayBuffer();
  }
  const remote = server.remote !== undefined;
  const statsCpu = (s: Stats) => (s.cpuMs === undefined ? undefined : s.cpuMs.user + s.cpuMs.system);
  const before = remote ? (server.kind === 'hono' ? statsCpu(await getStats(server, timeoutMs)) : undefined) : readProc(server.pid)?.cpuMs;
  const t0 = performance.now();
  return {
    async stop() {
      const afterProc = remote ? undefined : readProc(server.pid)?.cpuMs;
      const wallMs = performance.now() - t0;
      const stats = server.kind === 'raw' ? undefined : await getStats(server, timeoutMs);
      const after = remote ? (stats === undefined ? undefined : statsCpu(stats)) : afterProc;
      const cpuPercent = before !== undefined && after !== undefined ? Math.round(((after - before) / wallMs) * 1000) / 10 : 0;
      if (stats === undefined) return { cpuPercent };
      return { cpuPercent, eventLoopLagMs: { p99: stats.eventLoopLagMs.p99, max: stats.eventLoopLagMs.max } };
    },
  };
}
