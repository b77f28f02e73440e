import { Interrupted } from '../cli/interrupt.ts';
import type { ScenarioSettings } from '@bench/app';
import { runLoad, type LoadOptions, type LoadResult } from '../load/autocannon.ts';
import type { RunSettings } from './settings.ts';
import type { Probe, ProbeReport } from '../load/probe.ts';
import { evictAndVerify } from '../system/page-cache.ts';
import type { ServerHost } from '../servers/server-host.ts';
import { runWrk, type WrkResult } from '../load/wrk.ts';
import { othersCores, readCpu } from '../system/host-cpu.ts';
import { readAffinityCpus, readProcAll, watchPeakRss } from '../system/proc.ts';
import { roundFigure } from '../stats/stats.ts';
import { snapshotThreads, type ThreadsSnapshot, threadUse } from '../system/threads.ts';
import { quietThreads } from './cpu-window.ts';
import { cpuByKind, cpuPerRequest } from '../system/thread-kinds.ts';
import type { CpuPerRequest, LoopUse, RunResult, Warmup } from '../model/cell.ts';
import { checkLoopUse } from './loop-check.ts';
import type { ServerSources } from '../model/environment.ts';
import { isSteady, runCapSec, servingThreads, warmupRequests, warmupWatch } from './run-length.ts';
import { fairness } from '../stats/fairness.ts';
import { runLatencyCheck } from '../stats/littles-law.ts';
import { type CellSpec, readsDataFiles } from '../servers/scenarios.ts';
import { formatExit, type RunningServer } from '../servers/server.ts';
import { checkAnswer, checkModesAgree } from '../servers/validate.ts';
import { ServerLost, tailOf, whileAlive } from '../servers/liveness.ts';
import { quietOrRestart, rememberLeftovers, statsAfterLoad } from '../servers/quiet.ts';
import { getStats, hungAfterMs, lostIfDead, post, type ServerStats, totalCpu } from '../servers/server-control.ts';

export { ServerLost } from '../servers/liveness.ts';

export interface CellContext {
  server: RunningServer;
  /** The pass's settings (bench/settings.ts), not the whole plan: what a measured run reads. */
  plan: RunSettings;
  /** autocannon worker threads for the measured load (pinned, several client CPUs). */
  loadWorkers?: number;
  probe: Probe;
  /** The servers' settings, as scenario modules' verify() checks answers with them. */
  settings: ScenarioSettings;
  /** The file scenario's files, evicted from the page cache before each run when set. */
  evict?: string[];
  /** --server-host: the evict paths are on that host, evicted there. */
  host?: ServerHost;
  signal: AbortSignal;
  onPhase(phase: string): void;
  /** Called once each measured run's load is under way (fault-injection tests use it). */
  onRunStarted?: (server: RunningServer) => void;
  /**
   * Replaces a server that is alive but will not be quiet in time with a fresh one (checked
   * like any other) and records why; absent where nothing may be restarted.
   */
  restart?: (reason: string) => Promise<RunningServer>;
  /**
   * The requests an earlier server of this cell (same lane) had served when its warm-up's rate
   * was first at speed (Prepared.atSpeedAfter): a later server is warmed up to that many, and at
   * least --warmup and the serving threads' minimum, instead of until two slices agree.
   */
  atSpeedAfter?: number;
  /** The cell's loop use was measured on an earlier server: the same code, so it is not measured again. */
  loopChecked?: boolean;
}

/**
 * Warm-up connections: warming the JIT and caches needs a steady stream of requests, not a
 * thousand of them queued at once, which would only leave a backlog to drain before run 1. Never
 * fewer than the threads serving the cell, or a pool's idle threads would stay cold.
 */
export const WARMUP_MAX_CONNECTIONS = 10;

/** What a cell's preparation found: why its answer is wrong, or how its mode used the loop. */
export interface Prepared {
  checkError?: string;
  loop?: LoopUse;
  /** What the warm-up found (warmupWatch's atSpeedAfter), for the cell's later servers (CellContext.atSpeedAfter). */
  atSpeedAfter?: number;
}

/**
 * Before any run of a cell on one server: quiet again after the previous cell, its answer checked
 * once (checkError: why it is wrong, if it is), the loop check while the server is still quiet
 * (a warm-up's leftovers would hold the loop; on the cell's first server only), then a discarded warm-up. Throws ServerLost when
 * the server dies or hangs meanwhile.
 */
export async function prepareCell(spec: CellSpec, ctx: CellContext): Promise<Prepared> {
  if (ctx.server.kind === 'hono') await quietOrRestart(ctx);
  ctx.onPhase('check');
  const checkError = await check(spec, ctx);
  if (checkError !== undefined) return { checkError: `answer check failed: ${checkError}` };
  const loop = ctx.loopChecked === true ? undefined : await checkLoopUse(spec, ctx);
  const atSpeedAfter = await warmUp(spec, ctx);
  return { ...(loop === undefined ? {} : { loop }), ...(atSpeedAfter === undefined ? {} : { atSpeedAfter }) };
}

/** What each server's warm-up of each path showed: the rate the runs are sized from. */
const warmups = new WeakMap<RunningServer, Map<string, Warmup>>();

/**
 * The discarded warm-up: one load of at least --warmup, watched in short slices until two in a
 * row serve the same rate within 10 % (the JIT has settled) and every thread serving the cell
 * has had its share of requests (each worker thread has a JIT of its own), or --warmup-max has
 * passed (warmupWatch). In this process, never on autocannon's worker threads: only here can
 * the load be watched as it runs, and a warm-up's figures are not measured.
 */
async function warmUp(spec: CellSpec, ctx: CellContext): Promise<number | undefined> {
  const { plan } = ctx;
  if (plan.warmupSec <= 0) return undefined;
  ctx.onPhase('warm-up');
  const threads = servingThreads(spec.mode, ctx.server.health.pools, ctx.server.servingPids.length);
  const connections = Math.max(Math.min(plan.connections, WARMUP_MAX_CONNECTIONS), threads);
  const maxSec = Math.max(plan.warmupSec, plan.warmupMaxSec);
  const minimum = warmupRequests(spec.mode, ctx.server.health.pools, ctx.server.servingPids.length);
  const watch = warmupWatch({ minSec: plan.warmupSec, maxSec, connections, requests: minimum });
  // A later server of a cell runs the same code as the first: it is at speed after as many
  // requests as the first needed, so it is not kept on to see two slices agree again.
  const enough = ctx.atSpeedAfter === undefined ? undefined : Math.max(minimum, ctx.atSpeedAfter);
  const result = await load(spec, ctx, maxSec, connections, {
    stopWhen: (responses, elapsedSec) =>
      enough === undefined ? watch.observe(responses, elapsedSec) : elapsedSec >= plan.warmupSec && responses >= enough,
  });
  // A load that reached its length between two looks: its last slice closes on its own figures.
  watch.observe(result.completed, result.elapsedSec);
  const server = ctx.server;
  const byPath = warmups.get(server) ?? new Map<string, Warmup>();
  byPath.set(spec.path, {
    sec: Math.round(result.elapsedSec * 100) / 100,
    steady: enough === undefined ? isSteady(watch.rates, watch.slices) : result.completed >= enough,
    requestsPerSec: watch.rates.at(-1) ?? result.requestsPerSec,
    connections,
    requests: result.completed,
    servingThreads: threads,
    ...(enough === undefined ? {} : { asEarlierServer: enough }),
  });
  warmups.set(server, byPath);
  return enough === undefined ? watch.atSpeedAfter() : ctx.atSpeedAfter;
}

async function check(spec: CellSpec, ctx: CellContext): Promise<string | undefined> {
  const abort = new AbortController();
  let res: Response;
  try {
    const answer = fetch(ctx.server.url + spec.path, { signal: abort.signal });
    res = await whileAlive(ctx.server, answer, {
      hungAfterMs: hungAfterMs(ctx.plan),
      deadlineMs: ctx.plan.timeoutSec * 1000,
      what: `the answer check of ${spec.path}`,
    });
  } catch (error) {
    abort.abort();
    if (error instanceof ServerLost) throw error;
    await lostIfDead(ctx.server);
    return `${spec.path}: ${(error as Error).message}`;
  }
  const copy = res.clone();
  const wrong = await checkAnswer(spec.path, res, { settings: ctx.settings });
  if (wrong !== undefined) return wrong;
  return checkModesAgree(spec.path, await copy.text(), (path) =>
    fetch(ctx.server.url + path, { signal: AbortSignal.timeout(ctx.plan.timeoutSec * 1000) }),
  );
}

/**
 * One autocannon run, raced against the server's exit, the run's deadline and interruption:
 * autocannon alone reports a dead server as a run full of errors, not as a failure. What it
 * leaves unanswered is remembered for the next drain.
 */
async function load(
  spec: CellSpec,
  ctx: CellContext,
  durationSec: number,
  connections = ctx.plan.connections,
  stretch: { minRequests?: number; maxDurationSec?: number; stopWhen?: LoadOptions['stopWhen'] } = {},
): Promise<LoadResult> {
  throwIfInterrupted(ctx.signal);
  const { plan, server } = ctx;
  // A watched load runs in this process (stopWhen is asked here).
  const workers =
    ctx.loadWorkers !== undefined && connections >= ctx.loadWorkers && stretch.stopWhen === undefined ? { workers: ctx.loadWorkers } : {};
  const run = runLoad({ url: server.url + spec.path, connections, durationSec, timeoutSec: plan.timeoutSec, ...stretch, ...workers });
  // autocannon stops at the duration whatever is outstanding; past this something is wrong.
  const deadlineMs = (Math.max(durationSec, stretch.maxDurationSec ?? durationSec) + plan.timeoutSec + 5) * 1000;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => run.stop();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await Promise.race([
      run.done,
      server.exited.then((exit) => ({ exit })),
      new Promise<{ late: true }>((resolve) => (timer = setTimeout(() => resolve({ late: true }), deadlineMs))),
    ]);
    if ('exit' in outcome) {
      run.stop();
      throw new ServerLost(`server died during the run (${formatExit(outcome.exit)})${tailOf(server)}`);
    }
    if ('late' in outcome) {
      run.stop();
      throw new ServerLost(`the load did not finish within ${deadlineMs / 1000} s${tailOf(server)}`);
    }
    throwIfInterrupted(ctx.signal);
    rememberLeftovers(server, { backlog: Math.max(0, outcome.sent - outcome.completed), servedPerSec: outcome.requestsPerSec });
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
  const phase = 'cross-check (wrk)';
  ctx.onPhase(phase);
  if (ctx.server.kind === 'hono') await quietOrRestart(ctx, { resume: phase });
  const { server, plan } = ctx;
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

const QUIET_CAP_MS = 3000;
/** A quiet server answers /stats at once; this only bounds a reply lost on the way. */
const QUIET_STATS_MS = 2000;

/**
 * CPU a request by kind of thread, over the requests the server counted once its backlog was
 * done (bench/cpu-window.ts); without /stats (the raw server), over the client's count. A server
 * still busy at the cap is not asked again (its /stats would wait behind the backlog): the count
 * it gave when the load stopped stands, and the cost reads high, never low.
 */
async function costPerRequest(
  ctx: CellContext,
  before: ThreadsSnapshot,
  route: string,
  probes: number,
  completed: number,
  atLoadEnd: ServerStats | undefined,
): Promise<CpuPerRequest | undefined> {
  const { server, plan } = ctx;
  const after = await quietThreads(server.pid, Math.min(plan.drainCapSec * 1000, QUIET_CAP_MS));
  if (after === undefined) return undefined;
  let counted = completed;
  if (server.kind === 'hono') {
    let stats = atLoadEnd;
    if (after.quiet) {
      try {
        stats = await getStats(ctx, QUIET_STATS_MS);
      } catch {
        stats = undefined;
      }
    }
    if (stats === undefined) return undefined;
    // The probe calls /hello on the same server: its answers are not the load's.
    counted = (stats.routes[route]?.count ?? 0) - (route === '/hello' ? probes : 0);
  }
  return cpuPerRequest(cpuByKind(before, after.snapshot, server.pid), counted);
}

/** One measured run (`phase`: its progress label): quiet server, /reset, load beside the probe, then /stats and /proc. */
export async function measureRun(spec: CellSpec, ctx: CellContext, phase: string): Promise<RunResult> {
  const { plan, probe } = ctx;
  const hono = ctx.server.kind === 'hono';
  let restarts: string[] = [];
  ctx.onPhase(phase);
  if (hono) {
    restarts = await quietOrRestart(ctx, { prepare: () => recheck(spec, ctx), resume: phase });
    await post(ctx, '/reset');
  }
  const server = ctx.server;
  // Evicted last, just before the load, so nothing reads the files back in between.
  const fileCache = readsDataFiles(spec.scenario) && ctx.evict !== undefined ? await evictForRun(ctx.evict, ctx.host) : undefined;
  // A remote server's pid is not this host's: its figures come from its own /stats.
  const local = server.remote === undefined;
  // The whole group under --processes: supervisor and serving processes.
  const group = [...new Set([server.pid, ...server.servingPids])];
  const before = local ? readProcAll(group) : undefined;
  // Thread figures for a single local serving process only: with several, the loop threads are many.
  const threadsBefore = local && group.length === 1 ? snapshotThreads(server.pid) : undefined;
  const beforeStats = before === undefined && hono ? await getStats(ctx, plan.drainCapSec * 1000) : undefined;
  // Read outside the timed window: walking /proc takes a few ms.
  const cpuBefore = readCpu(process.pid);
  const wallStart = performance.now();
  const rss = local ? watchPeakRss(group) : undefined;
  await probe.start(server.url, plan.probeRatePerSec, plan.timeoutSec * 1000);
  ctx.onRunStarted?.(server);
  const warmup = warmups.get(server)?.get(spec.path);
  const capSec = runCapSec(plan.durationSec);
  let result: LoadResult;
  let probed: ProbeReport;
  try {
    result = await load(spec, ctx, plan.durationSec, plan.connections, { minRequests: plan.minRequests, maxDurationSec: capSec });
  } finally {
    // Waits for the probe requests still queued behind the load: they waited longest.
    probed = await probe.stop();
  }
  const after = local ? readProcAll(group) : undefined;
  const threadsAfter = threadsBefore === undefined ? undefined : snapshotThreads(server.pid);
  const threads =
    threadsBefore !== undefined && threadsAfter !== undefined ? threadUse(threadsBefore, threadsAfter, server.pid) : undefined;
  const serverCpus = local ? readAffinityCpus(server.pid) : undefined;
  const wallMs = performance.now() - wallStart;
  const cpuAfter = readCpu(process.pid);
  const peakRss = rss?.stop();
  const stats = hono ? await statsAfterLoad(ctx) : undefined;
  const perRequest =
    threadsBefore === undefined
      ? undefined
      : await costPerRequest(ctx, threadsBefore, spec.route, probed.count, result.completed, stats?.value);

  const cpuMs =
    before !== undefined && after !== undefined
      ? after.cpuMs - before.cpuMs
      : stats?.value !== undefined && beforeStats !== undefined
        ? totalCpu(stats.value) - totalCpu(beforeStats)
        : 0;
  const sources: ServerSources = {
    cpu: before !== undefined && after !== undefined ? 'proc' : stats?.value !== undefined && beforeStats !== undefined ? 'stats' : 'none',
    rss: peakRss !== undefined ? 'proc' : stats?.value !== undefined ? 'stats' : 'none',
    lag: stats?.value !== undefined ? 'stats' : 'none',
  };
  // The probe calls /hello on the same server: its answers are not the load's.
  const probeOnRoute = spec.route === '/hello' ? probed.count : 0;
  const routeCount = stats?.value !== undefined ? (stats.value.routes[spec.route]?.count ?? 0) - probeOnRoute : undefined;
  // Per-connection answers, except on /hello, where the probe's own connections share the route.
  const perConnection = spec.route === '/hello' ? undefined : stats?.value?.routes[spec.route]?.perConnection;
  const served = perConnection === undefined ? undefined : fairness(Object.values(perConnection));
  return {
    requestsPerSec: result.requestsPerSec,
    requests: result.completed,
    sent: result.sent,
    latencyMs: result.latencyMs,
    probeLatencyMs: { p50: probed.p50, p99: probed.p99, max: probed.max, count: probed.count },
    probe: { sent: probed.sent, answered: probed.count, failed: probed.errors, timedOut: probed.timeouts },
    eventLoopLagMs: { p99: stats?.value?.eventLoopLagMs.p99 ?? 0, max: stats?.value?.eventLoopLagMs.max ?? 0 },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverCount: routeCount ?? result.completed,
    clientCount: result.completed,
    server: {
      cpuPercent: (cpuMs / wallMs) * 100,
      rssMB: (peakRss ?? stats?.value?.rssBytes ?? 0) / (1024 * 1024),
    },
    client: { cpuPercent: result.clientCpuPercent },
    ...(cpuBefore === undefined || cpuAfter === undefined ? {} : { othersCpuCores: othersCores(cpuBefore, cpuAfter, wallMs) }),
    serverSources: sources,
    ...(fileCache === undefined ? {} : { fileCache }),
    ...(stats !== undefined && stats.missing !== undefined ? { statsMissing: stats.missing } : {}),
    ...(restarts.length === 0 ? {} : { restarts }),
    durationSec: Math.round(result.elapsedSec * 100) / 100,
    ...(served === undefined ? {} : { fairness: served }),
    ...(threads === undefined ? {} : { threads }),
    ...(perRequest === undefined ? {} : { cpuPerRequestMs: perRequest }),
    ...(serverCpus === undefined ? {} : { serverCpus }),
    ...(before !== undefined && after !== undefined && result.completed > 0
      ? { pageFaultsPerRequest: roundFigure((after.minorFaults - before.minorFaults) / result.completed) }
      : {}),
    ...(result.completed < plan.minRequests && result.elapsedSec >= capSec - 0.05 ? { lengthCapped: true } : {}),
    ...(warmup === undefined ? {} : { warmup }),
    ...runLatencyCheck(result, plan.connections),
  };
}

/** A restarted server's answer checked and its JIT warmed again before the run it was restarted for. */
async function recheck(spec: CellSpec, ctx: CellContext): Promise<void> {
  const checkError = await check(spec, ctx);
  if (checkError !== undefined) throw new ServerLost(`after a restart, answer check failed: ${checkError}`);
  await warmUp(spec, ctx);
}

/** Cold only when the eviction was verified (fincore): an unverified one is reported as warm. */
async function evictForRun(paths: string[], host: ServerHost | undefined): Promise<'warm' | 'cold'> {
  if (host !== undefined) return (await host.evictAndVerify(paths)) ? 'cold' : 'warm';
  return (await evictAndVerify(paths)).ok ? 'cold' : 'warm';
}

function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw new Interrupted('interrupted');
}
