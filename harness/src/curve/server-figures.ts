/**
 * The server's side of a step: quiet before it, /reset, then CPU from /proc and loop lag from
 * /stats after it, as the bench does. A raw server has no /stats: only its CPU is read. A server
 * on another host (--server-host) has no /proc here: its CPU comes from its own /stats (process
 * CPU time, summed over its group), read before and after the step.
 */
import { readProc } from '../system/proc.ts';
import type { RunningServer } from '../run/server.ts';

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
 * Waits until nothing is in hand and nothing new finished between two /stats 50 ms apart
 * (requests the generator abandoned after its timeout may still be on the server). Throws when
 * the server is still busy after `deadlineMs`.
 */
export async function waitQuiet(server: RunningServer, deadlineMs: number): Promise<void> {
  if (server.kind === 'raw') return;
  const until = performance.now() + deadlineMs;
  let last = -1;
  for (;;) {
    const left = until - performance.now();
    if (left <= 0) throw new Error(`server still busy ${deadlineMs / 1000} s after the step`);
    const stats = await getStats(server, left);
    const total = Object.values(stats.routes).reduce((sum, r) => sum + r.count, 0);
    if (stats.inFlight === 0 && total === last) return;
    last = stats.inFlight === 0 ? total : -1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
