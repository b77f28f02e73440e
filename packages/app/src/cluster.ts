/**
 * Several processes serving the one app on one port (`--processes N`), the portable part.
 *
 * A request lands on whichever process the kernel (reusePort) or Node's cluster primary hands
 * it to, so /stats, /reset and /health cannot answer from one process's memory. Each serving
 * process also listens on a private loopback control port; once all of them are up, the
 * supervisor (the process the harness started, group leader) tells every one of them the whole
 * list. Whichever process receives /stats then asks every other one for its own figures
 * (`?scope=process`) and answers the sum: counts and CPU summed, lag per process and the worst,
 * RSS total, every pid named. A process that does not answer fails the whole request (502):
 * figures from fewer processes than were asked for are never given out as the server's.
 */
import type { LagSummary } from './lag-sampler.ts';
import type { RouteCounter } from './route-stats.ts';

/** One serving process as the others reach it. */
export interface ProcessPeer {
  pid: number;
  /** http://127.0.0.1:<port> of its private control listener (same app, loopback only). */
  controlUrl: string;
}

/** What a serving process knows about the group it belongs to. */
export interface ClusterInfo {
  /** The supervisor's pid: the process that was started, which /health names as `pid`. */
  leaderPid: number;
  /** Serving processes asked for. */
  processes: number;
  /** Every serving process, this one included, once the supervisor has told it (empty before). */
  peers(): readonly ProcessPeer[];
}

/** /stats of one process (`?scope=process`), and the base of the merged answer. */
export interface ProcessStats {
  runtime: string;
  pid: number;
  since: string;
  routes: Record<string, RouteCounter>;
  inFlight: number;
  eventLoopLagMs: LagSummary;
  cpuMs: { user: number; system: number };
  rssBytes: number;
}

/** Per-process lines of a merged /stats. */
export interface ProcessLine {
  pid: number;
  requests: number;
  inFlight: number;
  eventLoopLagMs: LagSummary;
  cpuMs: { user: number; system: number };
  rssBytes: number;
}

export interface MergedStats extends ProcessStats {
  /** Always the leader's pid (as /health), with the serving processes listed. */
  processes: ProcessLine[];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Sums the processes' figures. Lag: percentiles cannot be added, so the merged p50/p99/max are
 * the worst process's (a client is as badly served as the process its connection landed on),
 * and each process's own summary stays in `processes`.
 */
export function mergeStats(leaderPid: number, parts: readonly ProcessStats[]): MergedStats {
  const first = parts[0];
  if (first === undefined) throw new Error('mergeStats: no process answered');
  const routes: Record<string, RouteCounter> = {};
  const totals = new Map<string, { count: number; totalMs: number; peers?: Record<string, number> }>();
  for (const part of parts) {
    for (const [route, counter] of Object.entries(part.routes)) {
      const entry = totals.get(route) ?? { count: 0, totalMs: 0 };
      entry.count += counter.count;
      entry.totalMs += counter.avgMs * counter.count;
      if (counter.perConnection !== undefined) {
        entry.peers ??= {};
        const peers = entry.peers;
        for (const [port, n] of Object.entries(counter.perConnection)) peers[port] = (peers[port] ?? 0) + n;
      }
      totals.set(route, entry);
    }
  }
  for (const [route, { count, totalMs, peers }] of totals) {
    routes[route] = { count, avgMs: count === 0 ? 0 : round3(totalMs / count), ...(peers === undefined ? {} : { perConnection: peers }) };
  }
  const worst = (pick: (l: LagSummary) => number) => Math.max(...parts.map((p) => pick(p.eventLoopLagMs)));
  return {
    runtime: first.runtime,
    pid: leaderPid,
    // The oldest reset: the merged counts cover at least this long.
    since: parts.map((p) => p.since).sort()[0] ?? first.since,
    routes,
    inFlight: parts.reduce((s, p) => s + p.inFlight, 0),
    eventLoopLagMs: {
      p50: worst((l) => l.p50),
      p99: worst((l) => l.p99),
      max: worst((l) => l.max),
      samples: parts.reduce((s, p) => s + p.eventLoopLagMs.samples, 0),
    },
    cpuMs: {
      user: round3(parts.reduce((s, p) => s + p.cpuMs.user, 0)),
      system: round3(parts.reduce((s, p) => s + p.cpuMs.system, 0)),
    },
    rssBytes: parts.reduce((s, p) => s + p.rssBytes, 0),
    processes: parts.map((p) => ({
      pid: p.pid,
      requests: Object.values(p.routes).reduce((s, r) => s + r.count, 0),
      inFlight: p.inFlight,
      eventLoopLagMs: p.eventLoopLagMs,
      cpuMs: p.cpuMs,
      rssBytes: p.rssBytes,
    })),
  };
}

/** Thrown when the group cannot answer for all its processes; becomes a 502/503 naming them. */
export class ClusterIncomplete extends Error {
  readonly status: 502 | 503;
  constructor(message: string, status: 502 | 503) {
    super(message);
    this.status = status;
  }
}

/**
 * Asks every other process of the group for `path?scope=process` and returns their answers,
 * in peer order. Throws ClusterIncomplete when the group is not complete yet or one of them
 * does not answer: an answer for fewer processes than were asked for is never given.
 */
export async function askPeers<T>(cluster: ClusterInfo, selfPid: number, path: string, method: 'GET' | 'POST'): Promise<T[]> {
  const peers = cluster.peers();
  if (peers.length < cluster.processes) {
    throw new ClusterIncomplete(`only ${peers.length} of ${cluster.processes} processes have reported so far`, 503);
  }
  const others = peers.filter((p) => p.pid !== selfPid);
  return Promise.all(
    others.map(async (peer) => {
      try {
        const res = await fetch(`${peer.controlUrl}${path}${path.includes('?') ? '&' : '?'}scope=process`, { method });
        if (!res.ok) throw new Error(`answered ${res.status}`);
        return (await res.json()) as T;
      } catch (error) {
        throw new ClusterIncomplete(`process ${peer.pid} did not answer ${method} ${path}: ${(error as Error).message}`, 502);
      }
    }),
  );
}

/** The line a serving process prints for its supervisor once both its listeners are up. */
export function workerReadyLine(pid: number, url: string, controlUrl: string): string {
  return `worker-ready ${JSON.stringify({ pid, url, controlUrl })}`;
}

export function parseWorkerReady(line: string): (ProcessPeer & { url: string }) | undefined {
  if (!line.startsWith('worker-ready ')) return undefined;
  try {
    const value = JSON.parse(line.slice('worker-ready '.length)) as { pid?: unknown; url?: unknown; controlUrl?: unknown };
    if (typeof value.pid !== 'number' || typeof value.url !== 'string' || typeof value.controlUrl !== 'string') return undefined;
    return { pid: value.pid, url: value.url, controlUrl: value.controlUrl };
  } catch {
    return undefined;
  }
}

/** The supervisor's message to each serving process once every one is up: the whole group. */
export function peersLine(peers: readonly ProcessPeer[]): string {
  return `peers ${JSON.stringify(peers)}`;
}

export function parsePeersLine(line: string): ProcessPeer[] | undefined {
  if (!line.startsWith('peers ')) return undefined;
  try {
    const value = JSON.parse(line.slice('peers '.length)) as unknown;
    if (!Array.isArray(value)) return undefined;
    return value.filter((p): p is ProcessPeer => typeof p?.pid === 'number' && typeof p?.controlUrl === 'string');
  } catch {
    return undefined;
  }
}

/** The loopback address a control listener binds: never reachable from outside the machine. */
export const CONTROL_HOST = '127.0.0.1';

/** How a runtime's start() listens: alone (default), or as one of several serving processes. */
export interface ListenRole {
  /** Bind the public port with SO_REUSEPORT (Bun, Deno), shared with the other processes. */
  reusePort: boolean;
  /** Also listen on a private loopback port (CONTROL_HOST:0) for the other processes' questions. */
  control: boolean;
}

export const ALONE: ListenRole = { reusePort: false, control: false };

/** What every runtime's start() returns. */
export interface Listening {
  url: string;
  controlUrl?: string;
  stop(): Promise<void>;
}
