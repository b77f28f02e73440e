/**
 * The server's side of a step: quiet before it, /reset, then CPU from /proc and loop lag from
 * /stats after it, as the bench does. A raw server has no /stats: only its CPU is read.
 */
import { readProc } from '../system/proc.ts';
import type { RunningServer } from '../run/server.ts';
import { HUNG_AFTER_SEC_BETWEEN_LOADS, waitQuiet as waitQuietOnServer } from '../run/server-control.ts';

interface Stats {
  inFlight: number;
  routes: Record<string, { count: number }>;
  eventLoopLagMs: { p99: number; max: number };
}

async function getStats(server: RunningServer, timeoutMs: number): Promise<Stats> {
  const res = await fetch(`${server.url}/stats`, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))) });
  if (!res.ok) throw new Error(`GET /stats answered ${res.status}`);
  return (await res.json()) as Stats;
}

/**
 * Before and after a step: the bench's quiet-wait (run/server-control.ts), so requests the
 * generator abandoned after its timeout finish before the next step, and a server that dies or
 * hangs meanwhile fails the cell at once. Throws ServerBusy when the server is still working
 * after `deadlineMs`. A raw server has no /stats to wait on.
 */
export async function waitQuiet(server: RunningServer, deadlineMs: number): Promise<void> {
  if (server.kind === 'raw') return;
  const ctx = { server, plan: { drainCapSec: deadlineMs / 1000, timeoutSec: HUNG_AFTER_SEC_BETWEEN_LOADS } };
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
  const before = readProc(server.pid);
  const t0 = performance.now();
  return {
    async stop() {
      const after = readProc(server.pid);
      const wallMs = performance.now() - t0;
      const cpuPercent = before !== undefined && after !== undefined ? Math.round(((after.cpuMs - before.cpuMs) / wallMs) * 1000) / 10 : 0;
      if (server.kind === 'raw') return { cpuPercent };
      const stats = await getStats(server, timeoutMs);
      return { cpuPercent, eventLoopLagMs: { p99: stats.eventLoopLagMs.p99, max: stats.eventLoopLagMs.max } };
    },
  };
}
