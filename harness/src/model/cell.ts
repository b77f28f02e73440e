/** One cell of report.json: its runs, their summary and what the server went through. */
import type { Pools, RuntimeName } from '@bench/app';
import type { ServerSources } from './environment.ts';
import type { CellProfile } from './profile.ts';
import type { CellStatus, Flag, Mode, ScenarioName } from './names.ts';
import type { CensoredLatency, Fairness, LittlesLaw, Unanswered } from './run-checks.ts';

/** One measured run of one cell (added: the raw material the summary is computed from). */
export interface RunResult {
  requestsPerSec: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  probeLatencyMs: { p50: number; p99: number; max: number; count: number };
  eventLoopLagMs: { p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Requests the server counted on the cell's route (from /stats), and what the client sent. */
  serverCount: number;
  clientCount: number;
  server: { cpuPercent: number; rssMB: number };
  client: { cpuPercent: number };
  /** added: where the server's CPU, RSS and loop lag figures came from (see ServerSources). */
  serverSources?: ServerSources;
  /** added, file scenario with --cold: whether the files were verified out of the page cache first. */
  fileCache?: 'warm' | 'cold';
  /** added: requests the load generator wrote, answered or not (timeouts are among them). */
  sent?: number;
  /**
   * added: the probe's requests: sent, answered, failed, and timed out (waited past --timeout;
   * these count in the probe's percentiles at the timeout, a lower bound).
   */
  probe?: { sent: number; answered: number; failed: number; timedOut?: number };
  /**
   * added: why the server's own figures (loop lag, route count) are missing for this run: it was
   * still working through the load's backlog when the drain deadline would have passed.
   */
  statsMissing?: string;
  /** added: servers restarted before this run because they would not get quiet in time, and why. */
  restarts?: string[];
  /** added: how long this run was: --duration, or longer to hold --min-requests at the warm-up's rate. */
  durationSec?: number;
  /** added: the run would have needed longer than its cap to hold --min-requests. */
  lengthCapped?: true;
  /** added: the warm-up before this cell's runs on this server. */
  warmup?: Warmup;
  /** added: how evenly the server answered the load's connections in this run (not on /hello). */
  fairness?: Fairness;
  /** added: which of the server's threads worked, and how long its loop thread waited for a CPU. */
  threads?: ThreadUse;
  /** added: CPU ms a request cost on the loop's thread, off it, and on the engine's helpers (one local serving process). */
  cpuPerRequestMs?: CpuPerRequest;
  /** added: the CPUs the server process could run on (its affinity): the ceiling of what a pool can add. */
  serverCpus?: number;
  /**
   * added: the server's minor page faults during the run per request answered (local
   * servers, from /proc; the group's under --processes). Fresh memory costs a fault a page, 14-17 µs
   * each on a VM measured here (environment.memoryFirstTouch): a /file/* request that reads
   * 5 MB into a new buffer may take up to 1,280.
   */
  pageFaultsPerRequest?: number;
  /**
   * added: cores' worth of CPU that processes outside the harness and its servers used during
   * the run (system/host-cpu.ts): a shared host, which the host check and the sampler cannot see.
   */
  othersCpuCores?: number;
  /** added: the round of its cell group this run belongs to; runs of one round are paired. */
  round?: number;
  /** added: how fast the machine was during the run (system/speed-sampler.ts). */
  machine?: RunSpeed;
  /**
   * added: the host's reference unit (one pinned fib call, every CPU at once) in ms, measured
   * right before this run's round (bench/reference.ts): what the drift-cancelled figure divides out.
   */
  referenceMs?: number;
  /** added: which of the cell's server processes served this run (1, 2, ...): the server is restarted once midway through a cell's rounds. */
  serverProcess?: number;
  /** added: taken while the machine was markedly slower than for the cell's other runs; left out of the summary when enough others remain. */
  slowMachine?: true;
  /**
   * added: Little's law for this run: the mean time in the system its connections and
   * requests/s imply (connections / req/s), the answered requests' mean latency, and their ratio.
   */
  littlesLaw?: LittlesLaw;
  /** added: requests still unanswered when the run stopped (one at most per connection). */
  unanswered?: Unanswered;
  /**
   * added: latency percentiles with the unanswered requests counted at their age
   * (censored values); those named in lowerBound are lower bounds.
   */
  latencyWithUnansweredMs?: CensoredLatency;
}

/** added, CellResult.machineMoved: how many runs' machine left the cell's other runs beyond the sampler's floor, and the furthest one. */
export interface MachineMoved {
  runs: number;
  /** The furthest run's |cores' worth / the cell's median - 1|. */
  deviation: number;
  /** The floor that run was held to (system/host-speed.ts runReadings). */
  floor: number;
}

/**
 * added: the machine during one run, from the speed sampler: the sum over CPUs of each
 * one's speed (a fixed unit's fastest CPU time over its CPU time now), the median over the run's
 * ticks and their range. 2 CPUs at full speed = 2.0 "cores' worth".
 */
export interface RunSpeed {
  coresWorth: number;
  min: number;
  max: number;
  ticks: number;
  /** added: the ticks' standard deviation over their mean: the sampler's own noise under this run's load. */
  tickCv?: number;
}

/**
 * added: the server's threads during a run, from /proc (local servers on Linux): the main
 * (event-loop) thread's CPU and how long it waited for a CPU on the run queue, per second of
 * the run and per time it was scheduled; how many other threads used at least 5 % of a core,
 * their CPU together, and the three busiest by name.
 */
/**
 * added: CPU milliseconds one request cost on each kind of the server's threads
 * (system/thread-kinds.ts): the main thread, where the event loop runs (`loopMs`: the figure a
 * profile of the loop sets beside its functions), the threads that run its work off the loop
 * (thread pool, worker threads), and the engine's helpers (GC, compiler). Figures that do not
 * depend on how many CPUs the machine has.
 */
export interface CpuPerRequest {
  loopMs: number;
  poolMs: number;
  helperMs: number;
}

export interface ThreadUse {
  mainCpuPercent: number;
  mainWaitMsPerSec: number;
  mainWaitPerSliceMs: number;
  busyThreads: number;
  othersCpuPercent: number;
  busiest: { name: string; cpuPercent: number }[];
}

/** added: a cell's warm-up: how long it lasted, whether it ended steady, and the rate it ended at. */
export interface Warmup {
  sec: number;
  steady: boolean;
  requestsPerSec: number;
  /**
   * added: the connections it ran with (at least one per serving thread), the requests it served,
   * and the threads that serve the cell (its pool on each serving process: the worker pool for
   * worker, the thread pool for async, else the event loop) it asked a minimum of requests for.
   */
  connections?: number;
  requests?: number;
  servingThreads?: number;
  /**
   * added: set on a cell's later server (the midway restart, or a replacement): the requests it
   * was warmed up to, what the cell's first server had served when its rate was at speed (or the
   * serving threads' minimum), instead of waiting for two slices to agree; `steady` then says it
   * got them before --warmup-max.
   */
  asEarlierServer?: number;
}

/**
 * added: a cell whose first measured run served less than 0.8x its median: that run's share of the
 * median and why, as far as the harness can tell (the machine slower in that run, a warm-up cut at
 * its cap, or a server still speeding up after a steady warm-up).
 */
export interface SlowFirstRun {
  ratio: number;
  reason: string;
}

/**
 * added: what overload did to a cell: requests that waited past --timeout (the client gave up on
 * them) and errors, as shares of the requests whose fate was known by the end of the runs
 * (answered + timed out + failed; those still outstanding when a run stopped are left out),
 * summed over the runs. The answered requests' figures are still measured: overload is a
 * result, not a failure.
 */
export interface Overload {
  sent: number;
  timeouts: number;
  errors: number;
  timeoutShare: number;
  errorShare: number;
  timeoutSec: number;
}

export interface Summary {
  median: number;
  /**
   * 95 % interval of the mean (Student's t), never below zero; with fewer runs than an interval
   * needs it collapses to the median and `intervalNote` says why.
   */
  ci95: [number, number];
  cv: number;
  runs: number[];
  /** added: why there is no interval (too few runs). */
  intervalNote?: string;
  /** added: the interval's half-width as a share of the median (0.05 = ±5 %); absent without an interval. */
  halfWidthShare?: number;
}

export interface CellResult {
  runtime: RuntimeName;
  /** added, when the plan named versions: the installation's exact version ("24.21.0") and its label ("node@24"). */
  runtimeVersion?: string;
  runtimeLabel?: string;
  scenario: ScenarioName;
  mode: Mode;
  /** added: the request path measured, e.g. "/hash/sync". */
  path: string;
  /** added, set when --processes was given: serving processes of this cell's server. */
  processes?: number;
  /** added: the pools of this cell's server (per process), from its /health. */
  pools?: Pools;
  status: CellStatus;
  flags: Flag[];
  reason?: string;
  /**
   * added: the closed-loop connection count the cell was measured at. Older reports carry it only
   * in a --connections sweep (parameters.connectionsSweep), which alone makes it a dimension.
   */
  connections?: number;
  /**
   * added, with --sweep: the query its requests carried ("kb=64"), so cells of one scenario and
   * mode at different inputs stay apart (report/mode-ratios.ts dimensionKey). Absent: the module's defaults.
   */
  query?: string;
  /** added, a --sweep's worker cells: the hop's own cost at this input (see HopCost). */
  hopMs?: HopCost;
  requestsPerSec: Summary;
  /** Medians across runs of each run's figure. */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  probeLatencyMs: { p50: number; p99: number; max: number };
  eventLoopLagMs: { p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  server: { cpuPercent: number; rssMB: number };
  client: { cpuPercent: number };
  /** added: where the server figures came from; "mixed" when the runs differed. */
  serverSources?: { [K in keyof ServerSources]: ServerSources[K] | 'mixed' };
  /** added: the host the server ran on, set only when it ran on another host (--server-host). */
  serverHost?: string;
  /** added: ratio of this cell's median requests/s to the fastest runtime's in the same scenario and mode. */
  ratioToFastest?: number;
  /** added: the per-run details. */
  runDetails: RunResult[];
  /** added, file scenario with --cold: "cold" only when every run started with the files evicted. */
  fileCache?: 'warm' | 'cold';
  /**
   * added: the same cell measured once with wrk right after the runs (hello cells by default,
   * --cross-check for others), and autocannon's median as a fraction of it. Below 0.9 the cell
   * is flagged client-bound: autocannon, not the server, set the figure.
   */
  crossCheck?: { tool: 'wrk'; requestsPerSec: number; ratio: number; connections: number; threads: number };
  /** added, with --target-cv: whether this cell's CV reached the target within maxRuns. */
  precision?: { targetCv: number; met: boolean };
  /** added: set on cells flagged `overloaded` (see Overload). */
  overload?: Overload;
  /** added: restarts of the server during this cell (it would not get quiet in time), with why. */
  restarts?: string[];
  /** added: why the loop lag is unknown: no run's /stats could be had within the drain deadline. */
  lagMissing?: string;
  /** added: the warm-up (of the first run's server) and how long the runs were. */
  warmup?: Warmup;
  runSec?: number[];
  /** added: the median over runs of Jain's index and max/min share of answers per connection. */
  fairness?: Fairness;
  /** added: medians over runs of the server's thread figures (busiest: from the median run). */
  threads?: ThreadUse;
  /** added: medians over runs of the CPU a request cost per kind of thread (RunResult.cpuPerRequestMs). */
  cpuPerRequestMs?: CpuPerRequest;
  /** added: the CPUs the server could run on (its affinity; the most any run saw): the ceiling of a mode's ratio here. */
  serverCpus?: number;
  /** added: the median over runs of the server's minor page faults per request (RunResult.pageFaultsPerRequest). */
  pageFaultsPerRequest?: number;
  /**
   * added: the share of the server's CPU per request its page faults took (faults a
   * request x environment.memoryFirstTouch.usPerPage over CPU time a request), median over runs.
   */
  pageFaultShare?: number;
  /** added: runs that ended with fewer completed requests than --min-requests, and that minimum. */
  shortRuns?: { runs: number; minRequests: number; capped: boolean };
  /** added: medians of the runs' Little's-law figures (stats/littles-law.ts). */
  littlesLaw?: LittlesLaw;
  /** added: unanswered requests summed over the runs, of `sent` requests, and the oldest age. */
  unanswered?: { count: number; sent: number; agesKnown: boolean; oldestMs?: number };
  /** added: medians of the runs' percentiles with the unanswered counted at their age. */
  latencyWithUnansweredMs?: CensoredLatency;
  /** added: why the cell is flagged latency-censored. */
  latencyCensored?: string;
  /** added: why the cell is flagged shared-host: "other processes used up to 0.9 cores' worth in 4 of 4 runs". */
  sharedHost?: string;
  /** added: runs left out of the figures because the machine was markedly slow during them (still in runDetails). */
  slowRunsExcluded?: number;
  /** added: the sampler read the machine during some of this cell's runs beyond its floor from the cell's other runs (system/host-speed.ts). */
  machineMoved?: MachineMoved;
  /** added: the first measured run was below 0.8x the cell's median (bench/first-run.ts). */
  slowFirstRun?: SlowFirstRun;
  /** added: the precision asked (half-width share of the median) and whether the interval reached it. */
  precisionGoal?: { halfWidthShare: number; met: boolean };
  /**
   * added: requests per second of server CPU (requests/s over the server's CPU share),
   * per run: what the client's share of the cores does not move, for CPU-bound cells.
   */
  requestsPerServerCpuSec?: Summary;
  /**
   * added: requests/s with a 95 % interval that holds the variance between server processes as
   * well as between runs of one process (stats/process-interval.ts): the runs split between two
   * server processes, the between-process variance pooled over the report's cells.
   */
  acrossProcesses?: AcrossProcesses;
  /** added: throughput with the host's drift divided out (bench/reference.ts). */
  driftCancelled?: DriftCancelled;
  /** added, scenario modules' cells: whether the mode's call leaves the event loop (see LoopUse). */
  loop?: LoopUse;
  /** added, with --profile: the cell's CPU profile, from a profiling load of its own after the measured runs. */
  profile?: CellProfile;
}

/**
 * added: what handing the work to a worker thread costs apart from the work, in ms: the median of
 * (worker - sync) latencies of requests sent one at a time, alternating, on one connection
 * (bench/sweep-hop.ts), with the order-statistic 95 % interval of that median. Absent interval:
 * too few pairs.
 */
export interface HopCost {
  median: number;
  ci95?: [number, number];
  pairs: number;
}

/** added: how a cell's mode used the event loop; the rule is in report/loop-verdict.ts. */
export type LoopVerdict = 'left' | 'stayed' | 'partly';

/**
 * added: the server's /loop-check of the cell's route before its runs: the timer ticks the loop
 * ran while the mode's calls were in hand, as a share of those an idle loop runs in that time
 * (0: the calls held the loop throughout), over `calls` calls in `elapsedMs`. Off-loop cells
 * (async, worker) get a verdict from it and from their loop lag against the sync cell's.
 */
export interface LoopUse {
  /** Absent when the server answered no loop check: the verdict then rests on the lag alone. */
  ticksShare?: number;
  calls?: number;
  elapsedMs?: number;
  verdict?: LoopVerdict;
}

/** added: see CellResult.acrossProcesses. */
export interface AcrossProcesses {
  /** Server processes whose runs count. */
  processes: number;
  /** Interval of requests/s over runs and processes. */
  ci95: [number, number];
  /** The between-process standard deviation used, as a share of the median (pooled over the report's cells). */
  betweenCv: number;
}

/**
 * added: a cell's requests/s times the time of the host's reference unit in seconds (1,000 calls
 * of the round's pinned reference loop: its call in ms), run by run: requests answered in the
 * time one reference unit takes on the host at that moment. A host that slows
 * down 1.5x serves a CPU-bound cell 1.5x slower and takes 1.5x longer per unit, so the product
 * holds. It promises nothing for a cell whose rate a timer sets (sleep).
 */
export interface DriftCancelled {
  /** What the reference unit is, e.g. "1,000 calls of fib(25), pinned, every CPU at once". */
  unit: string;
  /** Requests per reference unit: median, interval across runs and processes, spread. */
  requestsPerUnit: Summary;
  /** The reference unit over the cell's runs, ms. */
  referenceMs: Summary;
}
