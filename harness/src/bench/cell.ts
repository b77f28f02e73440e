/**
 * One cell (runtime x scenario x mode): its runs folded into the figures report.json holds.
 */
import { slowFirstRun } from './first-run.ts';
import type { Pools, RuntimeName } from '@bench/app';
import { cellFlags, cellStatus, overloadSummary } from './cell-status.ts';
import { sharedHostReason } from '../system/host-speed.ts';
import type { CellResult, CpuPerRequest, RunResult, ThreadUse } from '../model/cell.ts';
import type { Mode, ScenarioName } from '../model/names.ts';
import { cellCensoredLatency, cellLittlesLaw, cellUnanswered, latencyCensoredReason } from '../stats/littles-law.ts';
import { median, roundFigure, summarize } from '../stats/stats.ts';

export interface CellMeta {
  runtime: RuntimeName;
  scenario: ScenarioName;
  mode: Mode;
  /** The request path measured, e.g. "/hash/sync". */
  path: string;
  /** Serving processes, set when the plan names process counts (--processes). */
  processes?: number;
  /** A --sweep's input ("kb=64"). */
  query?: string;
  /** The server's pools as its /health named them. */
  pools?: Pools;
}

export interface CellOptions {
  /** Concurrent connections of the load: the most requests that can be in flight. */
  connections: number;
  /** Set when the endpoint's answer failed its check before timing. */
  validationError?: string;
  /** The load's per-request timeout, for the overload summary. */
  timeoutSec?: number;
  /** Completed requests a run should hold (0: no minimum). */
  minRequests?: number;
  /**
   * Whether serverCount is meaningful. Defaults to false for mode "raw" only, because the raw
   * servers answer just /hello and /health and so have no /stats to count with.
   */
  countsAvailable?: boolean;
  /** What a fresh page cost on this host, in µs (environment.memoryFirstTouch): sets pageFaultShare. */
  faultUsPerPage?: number;
}

/** Rounded median across runs of one per-run figure. */
function medianOf(runs: readonly RunResult[], pick: (run: RunResult) => number): number {
  return roundFigure(median(runs.map(pick)));
}

function sumOf(runs: readonly RunResult[], pick: (run: RunResult) => number): number {
  return runs.reduce((sum, run) => sum + pick(run), 0);
}

/**
 * Medians of every per-run figure (each percentile is the median of that percentile across
 * runs, not a percentile of merged histograms: runs are the unit of repetition), sums of the
 * failure counts (one error in any run matters), flags and status from cell-status.ts.
 */
export function summarizeCell(meta: CellMeta, runs: readonly RunResult[], opts: CellOptions): CellResult {
  const countsAvailable = opts.countsAvailable ?? meta.mode !== 'raw';
  const verdict = cellStatus(runs, opts.validationError);
  // Loop lag from the runs whose /stats could be had; none means unknown, never zero.
  const withStats = runs.filter((r) => r.statsMissing === undefined);
  const overload = overloadSummary(runs, opts.timeoutSec ?? 0);
  const restarts = runs.flatMap((r) => r.restarts ?? []);
  const minRequests = opts.minRequests ?? 0;
  const short = runs.filter((r) => r.timeouts === 0 && r.requests < minRequests);
  const warmup = runs.find((r) => r.warmup !== undefined)?.warmup;
  const runSec = runs.map((r) => r.durationSec).filter((d): d is number => d !== undefined);
  const fair = runs.flatMap((r) => (r.fairness === undefined ? [] : [r.fairness]));
  const threads = threadSummary(runs);
  const faults = runs.flatMap((r) => (r.pageFaultsPerRequest === undefined ? [] : [r.pageFaultsPerRequest]));
  const little = littlesLawFigures(runs);
  const slowFirst = slowFirstRun(runs, warmup);
  const sharedHost = sharedHostReason(runs);
  return {
    runtime: meta.runtime,
    scenario: meta.scenario,
    mode: meta.mode,
    path: meta.path,
    ...(meta.processes === undefined ? {} : { processes: meta.processes }),
    ...(meta.query === undefined ? {} : { query: meta.query }),
    ...(meta.pools === undefined ? {} : { pools: meta.pools }),
    status: verdict.status,
    flags: cellFlags(runs, { connections: opts.connections, countsAvailable }),
    ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
    requestsPerSec: summarize(runs.map((r) => r.requestsPerSec)),
    ...perServerCpu(runs),
    latencyMs: {
      p50: medianOf(runs, (r) => r.latencyMs.p50),
      p90: medianOf(runs, (r) => r.latencyMs.p90),
      p99: medianOf(runs, (r) => r.latencyMs.p99),
      p999: medianOf(runs, (r) => r.latencyMs.p999),
      max: medianOf(runs, (r) => r.latencyMs.max),
    },
    probeLatencyMs: {
      p50: medianOf(runs, (r) => r.probeLatencyMs.p50),
      p99: medianOf(runs, (r) => r.probeLatencyMs.p99),
      max: medianOf(runs, (r) => r.probeLatencyMs.max),
    },
    eventLoopLagMs: {
      p99: medianOf(withStats, (r) => r.eventLoopLagMs.p99),
      max: medianOf(withStats, (r) => r.eventLoopLagMs.max),
    },
    errors: sumOf(runs, (r) => r.errors),
    timeouts: sumOf(runs, (r) => r.timeouts),
    non2xx: sumOf(runs, (r) => r.non2xx),
    server: {
      cpuPercent: medianOf(runs, (r) => r.server.cpuPercent),
      rssMB: medianOf(runs, (r) => r.server.rssMB),
    },
    client: { cpuPercent: medianOf(runs, (r) => r.client.cpuPercent) },
    ...serverSourcesOf(runs),
    runDetails: [...runs],
    ...(overload === undefined ? {} : { overload }),
    ...(restarts.length === 0 ? {} : { restarts }),
    ...(runs.length > 0 && withStats.length === 0 ? { lagMissing: runs[0]?.statsMissing ?? '' } : {}),
    ...(warmup === undefined ? {} : { warmup }),
    ...(slowFirst === undefined ? {} : { slowFirstRun: slowFirst }),
    ...(sharedHost === undefined ? {} : { sharedHost }),
    ...(runSec.length === 0 ? {} : { runSec }),
    ...(fair.length === 0
      ? {}
      : {
          fairness: {
            connections: Math.round(median(fair.map((f) => f.connections))),
            jain: roundFigure(median(fair.map((f) => f.jain))),
            maxOverMin: roundFigure(median(fair.map((f) => f.maxOverMin))),
          },
        }),
    ...(threads === undefined ? {} : { threads }),
    ...cpuCosts(runs),
    ...(faults.length === 0 ? {} : { pageFaultsPerRequest: roundFigure(median(faults)) }),
    ...pageFaultShare(runs, opts.faultUsPerPage),
    ...(short.length === 0 ? {} : { shortRuns: { runs: short.length, minRequests, capped: short.some((r) => r.lengthCapped === true) } }),
    ...little,
  };
}

/** Little's law and the unanswered requests over the runs (stats/littles-law.ts). */
function littlesLawFigures(
  runs: readonly RunResult[],
): Pick<CellResult, 'littlesLaw' | 'unanswered' | 'latencyWithUnansweredMs' | 'latencyCensored'> {
  const littlesLaw = cellLittlesLaw(runs);
  const unanswered = cellUnanswered(runs);
  const latencyWithUnansweredMs = cellCensoredLatency(runs);
  const latencyCensored = latencyCensoredReason(runs);
  return {
    ...(littlesLaw === undefined ? {} : { littlesLaw }),
    ...(unanswered === undefined ? {} : { unanswered }),
    ...(latencyWithUnansweredMs === undefined ? {} : { latencyWithUnansweredMs }),
    ...(latencyCensored === undefined ? {} : { latencyCensored }),
  };
}

/**
 * How much of the server's CPU per request its page faults took, as a median over the runs with
 * a /proc CPU figure: faults a request x what a fresh page costs here, over the server's CPU time
 * a request (its CPU share / requests/s). An estimate (a fault that maps a page already there is
 * cheaper), capped at 1.
 */
export function pageFaultShare(runs: readonly RunResult[], usPerPage: number | undefined): Pick<CellResult, 'pageFaultShare'> {
  if (usPerPage === undefined) return {};
  const shares = runs.flatMap((r) => {
    if (r.pageFaultsPerRequest === undefined || r.serverSources?.cpu !== 'proc' || !(r.server.cpuPercent > 0) || !(r.requestsPerSec > 0))
      return [];
    // Microseconds of faults a request over microseconds of server CPU a request.
    return [Math.min(1, (r.pageFaultsPerRequest * usPerPage * requestsPerCpuSec(r)) / 1e6)];
  });
  return shares.length === 0 ? {} : { pageFaultShare: roundFigure(median(shares)) };
}

/**
 * Medians over the runs that have thread figures; the busiest threads are those of the run whose
 * main-thread wait is the median one, so names and shares stay from one run.
 */
export function threadSummary(runs: readonly RunResult[]): ThreadUse | undefined {
  const samples = runs.flatMap((r) => (r.threads === undefined ? [] : [r.threads]));
  if (samples.length === 0) return undefined;
  const mid = (pick: (t: ThreadUse) => number) => roundFigure(median(samples.map(pick)));
  const byWait = [...samples].sort((a, b) => a.mainWaitMsPerSec - b.mainWaitMsPerSec);
  return {
    mainCpuPercent: mid((t) => t.mainCpuPercent),
    mainWaitMsPerSec: mid((t) => t.mainWaitMsPerSec),
    mainWaitPerSliceMs: mid((t) => t.mainWaitPerSliceMs),
    busyThreads: Math.round(median(samples.map((t) => t.busyThreads))),
    othersCpuPercent: mid((t) => t.othersCpuPercent),
    busiest: byWait[Math.floor((byWait.length - 1) / 2)]?.busiest ?? [],
  };
}

/** The median CPU a request cost per kind of thread over the runs that have it, and the CPUs the server could use. */
export function cpuCosts(runs: readonly RunResult[]): Pick<CellResult, 'cpuPerRequestMs' | 'serverCpus'> {
  const costs = runs.flatMap((r) => (r.cpuPerRequestMs === undefined ? [] : [r.cpuPerRequestMs]));
  const cpus = runs.flatMap((r) => (r.serverCpus === undefined ? [] : [r.serverCpus]));
  const mid = (pick: (c: CpuPerRequest) => number) => Number(median(costs.map(pick)).toPrecision(3));
  return {
    ...(costs.length === 0
      ? {}
      : { cpuPerRequestMs: { loopMs: mid((c) => c.loopMs), poolMs: mid((c) => c.poolMs), helperMs: mid((c) => c.helperMs) } }),
    ...(cpus.length === 0 ? {} : { serverCpus: Math.max(...cpus) }),
  };
}

/** A cell whose server died (or never started): zeros everywhere, so the shape stays complete. */
export function failedCell(meta: CellMeta, reason: string): CellResult {
  return {
    ...summarizeCell(meta, [], { connections: 0, countsAvailable: false }),
    status: 'failed',
    flags: [],
    reason,
  };
}

/** The runs' figure sources, one per figure ("mixed" when runs differ); nothing for old runs. */
function serverSourcesOf(runs: readonly RunResult[]): Pick<CellResult, 'serverSources'> {
  const all = runs.flatMap((r) => (r.serverSources === undefined ? [] : [r.serverSources]));
  const first = all[0];
  if (first === undefined) return {};
  const one = <K extends keyof NonNullable<RunResult['serverSources']>>(k: K) =>
    all.every((s) => s[k] === first[k]) ? first[k] : ('mixed' as const);
  return { serverSources: { cpu: one('cpu'), rss: one('rss'), lag: one('lag') } };
}

/**
 * Requests per second of server CPU, per run: requests/s over the server's CPU share.
 * For a CPU-bound cell it is the work each request costs, which the client's share of the cores
 * does not move. Only when every run has a server CPU figure (a raw server has one from /proc).
 */
function perServerCpu(runs: readonly RunResult[]): Pick<CellResult, 'requestsPerServerCpuSec'> {
  if (runs.length === 0 || runs.some((r) => !(r.server.cpuPercent > 0))) return {};
  return { requestsPerServerCpuSec: summarize(runs.map(requestsPerCpuSec)) };
}

/** A run's requests per second of server CPU (its requests/s over its CPU share); a positive CPU figure assumed. */
function requestsPerCpuSec(r: RunResult): number {
  return r.requestsPerSec / (r.server.cpuPercent / 100);
}
