import type { Manifest } from '@bench/app';
import { runLoad, type LoadResult } from './load.ts';
import type { Plan } from './plan.ts';
import type { Probe, ProbeReport } from './probe.ts';
import { evictAndVerify } from '../system/page-cache.ts';
import { runWrk, type WrkResult } from './wrk.ts';
import { readProc, watchPeakRss } from '../system/proc.ts';
import type { RunResult } from '../report/report-types.ts';
import type { CellSpec } from './scenarios.ts';
import { formatExit, type RunningServer } from './server.ts';
import { checkAnswer } from './validate.ts';

export interface CellContext {
  server: RunningServer;
  plan: Plan;
  probe: Probe;
  manifest: Manifest | undefined;
  /** The file scenario's files, evicted from the page cache before each run when set. */
  evict?: string[];
  signal: AbortSignal;
  onPhase(phase: string): void;
  /** Called once each measured run's load is under way (fault-injection tests use it). */
  onRunStarted?: (server: RunningServer) => void;
}

/** The server process ended (or stopped answering) while a cell was being measured. */
export class ServerLost extends Error {}
/** The run was interrupted; the cell in progress is dropped, the finished ones kept. */
export class Interrupted extends Error {}

interface ServerStats {
  routes: Record<string, { count: number }>;
  inFlight: number;
  eventLoopLagMs: { p99: number; max: number };
  cpuMs: { user: number; system: number };
  rssBytes: number;
}

/**
 * Before any run of a cell on one server: its answer checked once (returns why it is wrong, if
 * it is), then a discarded warm-up. Throws ServerLost when the server dies or hangs meanwhile.
 */
export async function prepareCell(spec: CellSpec, ctx: CellContext): Promise<string | undefined> {
  ctx.onPhase('check');
  const checkError = await check(spec, ctx);
  if (checkError !== undefined) return `answer check failed: ${checkError}`;
  if (ctx.plan.warmupSec > 0) {
    ctx.onPhase('warm-up');
    await load(spec, ctx, ctx.plan.warmupSec);
  }
  return undefined;
}

async function check(spec: CellSpec, ctx: CellContext): Promise<string | undefined> {
  let res: Response;
  try {
    res = await fetch(ctx.server.url + spec.path, { signal: AbortSignal.timeout(ctx.plan.timeoutSec * 1000) });
  } catch (error) {
    await lostIfDead(ctx.server);
    return `${spec.path}: ${(error as Error).message}`;
  }
  return checkAnswer(spec.path, res, { manifest: ctx.manifest, hashCost: ctx.plan.hashCost });
}

/**
 * One autocannon run, raced against the server's exit, the run's deadline and interruption:
 * autocannon alone reports a dead server as a run full of errors, not as a failure.
 */
async function load(spec: CellSpec, ctx: CellContext, durationSec: number): Promise<LoadResult> {
  throwIfInterrupted(ctx.signal);
  const { plan, server } = ctx;
  const run = runLoad({ url: server.url + spec.path, connections: plan.connections, durationSec, timeoutSec: plan.timeoutSec });
  const deadlineMs = (durationSec + plan.timeoutSec + 5) * 1000;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => run.stop();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await Promise.race([
      run.done,
      server.exited.then((exit) => ({ exit })),
      new Promise<{ hung: true }>((resolve) => (timer = setTimeout(() => resolve({ hung: true }), deadlineMs))),
    ]);
    if ('exit' in outcome) {
      run.stop();
      throw new ServerLost(`server died during the run (${formatExit(outcome.exit)})${tailOf(server)}`);
    }
    if ('hung' in outcome) {
      run.stop();
      throw new ServerLost(`run did not finish within ${deadlineMs / 1000} s: server stopped answering${tailOf(server)}`);
    }
    throwIfInterrupted(ctx.signal);
    return outcome;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The same cell once with wrk, on a quiet server: what a client written in C reaches with the
 * same connections, so autocannon's figure can be told apart from the server's capacity.
 */
export async function crossCheckRun(spec: CellSpec, ctx: CellContext, wrkBinary: string): Promise<WrkResult> {
  const { server, plan } = ctx;
  if (server.kind === 'hono') await quiesce(server, plan.timeoutSec);
  const threads = Math.min(2, plan.connections);
  return runWrk({
    binary: wrkBinary,
    url: server.url + spec.path,
    connections: plan.connections,
    threads,
    durationSec: plan.durationSec,
    timeoutSec: plan.timeoutSec,
    signal: ctx.signal,
  });
}

/** One measured run: quiet server, /reset, load beside the probe, then /stats and /proc. */
export async function measureRun(spec: CellSpec, ctx: CellContext): Promise<RunResult> {
  const { server, plan, probe } = ctx;
  const hono = server.kind === 'hono';
  if (hono) {
    await quiesce(server, plan.timeoutSec);
    await post(server, '/reset', plan.timeoutSec);
  }
  // Evicted last, just before the load, so nothing reads the files back in between.
  const fileCache = spec.scenario === 'file' && ctx.evict !== undefined ? await evictForRun(ctx.evict) : undefined;
  const before = readProc(server.pid);
  const beforeStats = before === undefined && hono ? await getStats(server, plan.timeoutSec) : undefined;
  const wallStart = performance.now();
  const rss = watchPeakRss(server.pid);
  await probe.start(server.url, plan.probeRatePerSec, plan.timeoutSec * 1000);
  ctx.onRunStarted?.(server);
  let result: LoadResult;
  let probed: ProbeReport;
  try {
    result = await load(spec, ctx, plan.durationSec);
  } finally {
    // Waits for the probe requests still queued behind the load: they waited longest.
    probed = await probe.stop();
  }
  const after = readProc(server.pid);
  const wallMs = performance.now() - wallStart;
  const peakRss = rss.stop();
  const stats = hono ? await getStats(server, plan.timeoutSec) : undefined;

  const cpuMs =
    before !== undefined && after !== undefined
      ? after.cpuMs - before.cpuMs
      : stats !== undefined && beforeStats !== undefined
        ? totalCpu(stats) - totalCpu(beforeStats)
        : 0;
  // The probe calls /hello on the same server: its answers are not the load's.
  const probeOnRoute = spec.route === '/hello' ? probed.count : 0;
  return {
    requestsPerSec: result.requestsPerSec,
    requests: result.completed,
    latencyMs: result.latencyMs,
    probeLatencyMs: { p50: probed.p50, p99: probed.p99, max: probed.max, count: probed.count },
    eventLoopLagMs: { p99: stats?.eventLoopLagMs.p99 ?? 0, max: stats?.eventLoopLagMs.max ?? 0 },
    errors: result.errors + probed.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverCount: stats !== undefined ? (stats.routes[spec.route]?.count ?? 0) - probeOnRoute : result.completed,
    clientCount: result.completed,
    server: {
      cpuPercent: (cpuMs / wallMs) * 100,
      rssMB: (peakRss ?? stats?.rssBytes ?? 0) / (1024 * 1024),
    },
    client: { cpuPercent: result.clientCpuPercent },
    ...(fileCache === undefined ? {} : { fileCache }),
  };
}

/** Cold only when the eviction was verified (fincore): an unverified one is reported as warm. */
async function evictForRun(paths: string[]): Promise<'warm' | 'cold'> {
  return (await evictAndVerify(paths)).ok ? 'cold' : 'warm';
}

/**
 * Waits until the server is quiet: nothing in hand and nothing new finished between two /stats
 * answers 50 ms apart. When autocannon stops, requests it had sent are still on the server:
 * in its handlers, and unread in the sockets of closed connections, which the server still
 * answers. Measured without this wait, a 0.5 s bcrypt run after a warm-up finished no request
 * of its own (the server spent it on 17 left-over hashes).
 */
async function quiesce(server: RunningServer, timeoutSec: number): Promise<void> {
  const deadline = Date.now() + timeoutSec * 1000;
  let lastTotal = -1;
  for (;;) {
    const stats = await getStats(server, timeoutSec);
    const total = Object.values(stats.routes).reduce((sum, r) => sum + r.count, 0);
    if (stats.inFlight === 0 && total === lastTotal) return;
    if (Date.now() > deadline) {
      throw new ServerLost(`server still busy (${stats.inFlight} requests in hand) ${timeoutSec} s after the load stopped`);
    }
    lastTotal = stats.inFlight === 0 ? total : -1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function totalCpu(stats: ServerStats): number {
  return stats.cpuMs.user + stats.cpuMs.system;
}

async function getStats(server: RunningServer, timeoutSec: number): Promise<ServerStats> {
  const res = await request(server, '/stats', 'GET', timeoutSec);
  return (await res.json()) as ServerStats;
}

async function post(server: RunningServer, path: string, timeoutSec: number): Promise<void> {
  await (await request(server, path, 'POST', timeoutSec)).arrayBuffer();
}

/** A control request (/stats, /reset): no answer within the request timeout means a hung server. */
async function request(server: RunningServer, path: string, method: string, timeoutSec: number): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(server.url + path, { method, signal: AbortSignal.timeout(timeoutSec * 1000) });
  } catch (error) {
    await lostIfDead(server);
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new ServerLost(
      timedOut
        ? `server stopped answering: ${method} ${path} had no answer in ${timeoutSec} s${tailOf(server)}`
        : `${method} ${path} failed: ${(error as Error).message}${tailOf(server)}`,
    );
  }
  if (!res.ok) throw new ServerLost(`${method} ${path} answered ${res.status}`);
  return res;
}

/** Gives a dying process a moment to be reaped, then reports it as lost if it is gone. */
async function lostIfDead(server: RunningServer): Promise<void> {
  const exit = await Promise.race([server.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
  if (exit !== undefined) throw new ServerLost(`server died (${formatExit(exit)})${tailOf(server)}`);
}

function tailOf(server: RunningServer): string {
  const tail = server.stderrTail(5);
  return tail === '' ? '' : `; stderr: ${tail.replace(/\s*\n\s*/g, ' | ')}`;
}

function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw new Interrupted('interrupted');
}
