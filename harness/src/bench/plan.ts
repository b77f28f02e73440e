import { choice, FlagError, nameList, numberFlag, parseFlags } from '../cli/flags.ts';
import { BOUNDS, DATA_DEFAULTS, DEFAULTS, type RuntimeName } from '@bench/app';
import type { ScenarioName } from '../model/names.ts';
import type { AllocatorState } from '../model/parameters.ts';
import { MODES, type Mode } from '../model/names.ts';
import { RUNTIME_NAMES } from '../servers/runtimes.ts';
import { type CellSpec, cellsFor, scenarioGroups, scenarioNames, withUserScenarios } from '../servers/scenarios.ts';
import { DEFAULT_MIN_REQUESTS, QUICK_MIN_REQUESTS } from './run-length.ts';
import { CHECK_CALLS, QUICK_CHECK_CALLS } from './reference.ts';
import { parseRuntimeList, parseRuntimeRequest, type RuntimeRequest } from '../servers/runtime-request.ts';
import { REMOTE_FLAGS, remoteTarget, type RemoteTarget } from '../servers/server-host.ts';
import { REPO_ROOT } from '../system/paths.ts';
import { tasksetAvailable } from '../system/pinning.ts';
import { availableParallelism } from 'node:os';
import { planSweep, sizedCells, sweepModes, type SweepPlan } from './sweep-plan.ts';

/** --server-cpus is kept only with taskset, on this host, within its CPUs: else one line and exit 2, before any load. */
function serverCpusPossible(n: number, remote: boolean): number {
  if (remote) throw new FlagError('--server-cpus pins the servers on this host; with --server-host, pin them there');
  if (!tasksetAvailable()) throw new FlagError('--server-cpus needs taskset (util-linux), which is not installed');
  if (n > availableParallelism()) throw new FlagError(`--server-cpus ${n}: this host has ${availableParallelism()} CPUs`);
  return n;
}

/** One or more counts, in order. */
type Counts = [number, ...number[]];

/** Everything one bench run will do, decided before anything starts. */
export interface Plan {
  runtimes: RuntimeName[];
  /**
   * Set when --runtimes names a version (node@22,node@24,bun): one lane per installation, in
   * this order. `runtimes` then holds their names, each once.
   */
  versions?: RuntimeRequest[];
  /** --baseline: the installation the others of its runtime are compared with (default: the oldest). */
  baseline?: RuntimeRequest;
  scenarios: ScenarioName[];
  /**
   * --scenario-file: the user's own scenario modules (absolute paths), passed to every server;
   * the harness has loaded and checked them (servers/scenarios.ts) before the plan is parsed.
   */
  scenarioFiles: string[];
  /** Modes to keep within the scenarios (all when undefined). */
  modes: Mode[] | undefined;
  /**
   * The closed-loop connection counts, in order: every cell is measured at each (one pass each).
   * More than one is a --connections sweep (connectionsSwept).
   */
  connections: Counts;
  durationSec: number;
  warmupSec: number;
  runs: number;
  probeRatePerSec: number;
  /** autocannon's per-request timeout. */
  timeoutSec: number;
  hashCost: number;
  fibN: number;
  sleepMs: number;
  fileCount: number;
  fileSizeBytes: number;
  /** Folder of the file scenario's inputs; undefined = data/files in the repository. */
  dataDir: string | undefined;
  /** Results folder to write into; undefined = a new data/results/<timestamp>/. */
  outDir: string | undefined;
  quick: boolean;
  /** Calls of fib a CPU in each reading of the independent host check (bench/reference.ts): fewer with --quick. */
  checkCalls: number;
  /** Exit non-zero when anything did not run cleanly, not only when nothing ran. */
  strict: boolean;
  schedule: 'interleaved' | 'sequential';
  /** Add runs until each cell's CV is at most this (undefined: exactly `runs` runs). */
  targetCv: number | undefined;
  /** Cap on runs per cell when a CV target is set. */
  maxRuns: number;
  /**
   * Add runs (up to maxRuns) until each cell's 95 % interval on requests/s is within this share
   * of its median (hello: twice it), while the run is within budgetSec.
   */
  targetPrecision?: number;
  /** The whole run's time budget: runs beyond `runs` are added only while ahead of it. */
  budgetSec?: number;
  /** Evict the file scenario's files from the page cache before each run. */
  cold: boolean;
  /**
   * --profile: after its measured runs, each cell's load once more on a server of its own under
   * the runtime's CPU profiler (bench/profile-runs.ts); the measured runs are never profiled.
   */
  profile: boolean;
  /**
   * --allocator: the state the servers' allocators are held in (system/allocator.ts); "fresh" by
   * default, "keep" with --keep-freed-memory, "shipped" on another host (its environment is not
   * ours to set).
   */
  allocator: AllocatorState;
  /** Scenarios whose cells are re-measured with wrk after their runs (when wrk is installed). */
  crossCheck: ScenarioName[];
  /**
   * The longest wait for a working server to finish the backlog a load left it, before the
   * harness restarts it instead (an overloaded sync server can hold a minute of queued work).
   */
  drainCapSec: number;
  /** Completed requests a run should hold: runs are lengthened (up to a cap) to reach it. */
  minRequests: number;
  /** Warm-up goes on past warmupSec, in short slices, until steady or this long in all. */
  warmupMaxSec: number;
  /**
   * Serving processes per server, one lane each (--processes 1,auto); auto = the CPUs
   * the servers may use. Undefined: one process, and cells carry no process count.
   */
  processes?: ProcessCount[];
  /** CPUs given to the load generator when pinning (--client-cpus); undefined = the default share. */
  clientCpus?: number;
  /** --server-cpus N: the servers and their pools on N CPUs (taskset); undefined = as pinning decides. */
  serverCpus?: number;
  /** --server-host and friends: the servers run on another host, started over ssh. */
  remote?: RemoteTarget;
  /**
   * Server processes a cell's runs are split between (--server-processes; default 2 in the full
   * plan, 1 with --quick or --runs below 4): the servers are restarted once midway through a
   * group's rounds, so each cell's interval can hold the variance between processes.
   */
  serverProcesses?: number;
  /**
   * bench:ab: a new process pair (A's and B's server processes) every this many rounds, for as many rounds as the
   * run takes (each process pair is one unit of its interval: ab/ab-verdict.ts).
   */
  roundsPerProcess?: number;
  /**
   * --sweep json:kb=16,64,256: that scenario alone, its cells measured at each value of one input
   * parameter (bench/sweep-plan.ts); the worker's hop is timed at each value too (bench/sweep-hop.ts).
   */
  sweep?: SweepPlan;
}

export type ProcessCount = number | 'auto';

/** `--processes 1,auto,4`: distinct counts, "auto" or 1 to 256. */
export function processList(raw: string | undefined): ProcessCount[] | undefined {
  if (raw === undefined) return undefined;
  const out: ProcessCount[] = [];
  for (const token of raw.split(',').map((t) => t.trim())) {
    const value: ProcessCount | undefined =
      token === 'auto' ? 'auto' : /^\d+$/.test(token) && Number(token) >= 1 && Number(token) <= 256 ? Number(token) : undefined;
    if (value === undefined) throw new FlagError(`--processes takes "auto" or integers from 1 to 256, comma-separated; got "${token}"`);
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

/**
 * Default plan: 11 cells per runtime, each warmed up (0.5 s, longer while it is still speeding up)
 * and measured in at least 4 runs of 1 s, with more where PRECISION allows: planned for five
 * minutes for all three runtimes on 2 cores (docs/methodology.md, "Choosing the defaults").
 */
export const FULL = {
  connections: 10,
  durationSec: 1,
  warmupSec: 0.5,
  warmupMaxSec: 3,
  runs: 4,
  minRequests: DEFAULT_MIN_REQUESTS,
  crossCheck: ['hello'] as readonly ScenarioName[],
  checkCalls: CHECK_CALLS,
} as const;
/**
 * The full plan's precision: after `runs`, more rounds while a cell's 95 % interval
 * is wider than ±5 % of its median (hello ±10 %), up to 12 runs, while the run is ahead of an
 * even pace through 210 s (docs/methodology.md, "Choosing the defaults"). --quick has none.
 */
export const PRECISION = { maxRuns: 12, targetPrecision: 0.05, budgetSec: 210 } as const;
/**
 * --quick: every cell, shorter and fewer runs, under a minute for all three runtimes on 2 cores
 * (docs/methodology.md, "--quick: under a minute", has the measured wall time and where it went).
 * Runs of 0.3 s holding QUICK_MIN_REQUESTS, the warm-up stops at 0.3 s (longer ones took the plan past a
 * minute), and there is no wrk cross-check (the hello cells are
 * then judged client-bound by the client's CPU alone; --cross-check hello brings it back).
 */
export const QUICK = {
  connections: 10,
  durationSec: 0.3,
  warmupSec: 0.1,
  warmupMaxSec: 0.3,
  runs: 2,
  minRequests: QUICK_MIN_REQUESTS,
  crossCheck: [] as readonly ScenarioName[],
  checkCalls: QUICK_CHECK_CALLS,
} as const;

/**
 * Drain cap: a restart (about a second, plus the cell's warm-up again) beats waiting longer, and
 * 15 s still lets the backlog of a 10-connection load on the slowest default cell (bcrypt, about
 * 0.7 s) and of most 100-connection loads drain, so their runs keep the server's own figures.
 */
export const DEFAULT_DRAIN_CAP_SEC = 15;

const SCHEDULES = ['interleaved', 'sequential'] as const;

/**
 * Server processes per cell in the full plan: two, the fewest that show a between-process
 * variance; each more costs every cell another server start and warm-up (docs/methodology.md).
 */
export const DEFAULT_SERVER_PROCESSES = 2;

/**
 * Default (full plan): the hello cells, where the load generator is most likely the limit.
 * "all", a list of scenarios, or "none".
 */
function crossCheckList(raw: string | undefined, fallback: readonly ScenarioName[], planned: readonly ScenarioName[]): ScenarioName[] {
  if (raw === undefined) return [...fallback];
  if (raw === 'none') return [];
  if (raw === 'all') return [...planned];
  return nameList('cross-check', raw, scenarioNames()) ?? [];
}

const PLAN_FLAGS = [
  'runtimes',
  'scenarios',
  'modes',
  'connections',
  'duration',
  'warmup',
  'runs',
  'probe-rate',
  'timeout',
  'hash-cost',
  'fib-n',
  'sleep-ms',
  'file-count',
  'file-size',
  'data-dir',
  'out',
  'schedule',
  'target-cv',
  'max-runs',
  'target-precision',
  'budget',
  'cross-check',
  'drain-cap',
  'min-requests',
  'warmup-max',
  'processes',
  'client-cpus',
  'server-cpus',
  'baseline',
  'allocator',
  'server-processes',
  'sweep',
  ...REMOTE_FLAGS,
] as const;

const ALLOCATOR_STATES = ['fresh', 'keep', 'shipped'] as const satisfies readonly AllocatorState[];

/** --allocator, with --keep-freed-memory as its older name for "keep"; servers on another host run as shipped. */
function allocatorFlag(raw: string | undefined, keepFreed: boolean, remote: boolean): AllocatorState {
  const asked = choice('allocator', raw, ALLOCATOR_STATES);
  if (keepFreed && asked !== undefined && asked !== 'keep')
    throw new FlagError(`--keep-freed-memory is --allocator keep: not with --allocator ${asked}`);
  const state = keepFreed ? 'keep' : asked;
  if (remote && state !== undefined && state !== 'shipped')
    throw new FlagError(
      `--${keepFreed ? 'keep-freed-memory' : `allocator ${state}`} sets the environment of servers started here: not with --server-host`,
    );
  return state ?? (remote ? 'shipped' : 'fresh');
}

/** The --scenario-file values as bench-cli resolved them (absolute); the flag may be repeated. */
function scenarioFilesOf(raw: string | boolean | string[] | undefined): string[] {
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
}

/** "1,10,100": a sweep of connection counts (repeats dropped, order kept); undefined for one number. */
function connectionList(raw: string | undefined): Counts | undefined {
  if (raw === undefined || !raw.includes(',')) return undefined;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const [first, ...rest] = new Set(items.map((item) => numberFlag('connections', item, 1, 10_000, true) ?? 0));
  return first === undefined ? undefined : [first, ...rest];
}

export function parsePlan(argv: string[]): Plan {
  const values = parseFlags(argv, PLAN_FLAGS, ['quick', 'strict', 'cold', 'keep-freed-memory', 'profile'], ['scenario-file']);
  const str = (k: string) => values[k] as string | undefined;
  const quick = values.quick === true;
  const base = quick ? QUICK : FULL;
  const modes = nameList('modes', str('modes'), MODES);
  const counts = connectionList(str('connections'));
  const requests = str('runtimes') === undefined ? undefined : parseRuntimeList(str('runtimes') ?? '', RUNTIME_NAMES);
  const versioned = requests?.some((r) => r.version !== undefined) === true;
  const scenarios = withUserScenarios(nameList('scenarios', str('scenarios'), [...scenarioNames(), ...scenarioGroups().keys()]));
  const plan: Plan = {
    runtimes: requests === undefined ? [...RUNTIME_NAMES] : [...new Set(requests.map((r) => r.name))],
    ...(versioned ? { versions: requests } : {}),
    scenarios,
    scenarioFiles: scenarioFilesOf(values['scenario-file']),
    modes,
    connections: counts ?? [numberFlag('connections', str('connections'), 1, 10_000, true) ?? base.connections],
    durationSec: numberFlag('duration', str('duration'), 0.1, 3600, false) ?? base.durationSec,
    warmupSec: numberFlag('warmup', str('warmup'), 0, 600, false) ?? base.warmupSec,
    runs: numberFlag('runs', str('runs'), 1, 100, true) ?? base.runs,
    probeRatePerSec: numberFlag('probe-rate', str('probe-rate'), 1, 1000, true) ?? 50,
    timeoutSec: numberFlag('timeout', str('timeout'), 1, 600, true) ?? 10,
    hashCost: numberFlag('hash-cost', str('hash-cost'), BOUNDS.hashCost.min, BOUNDS.hashCost.max, true) ?? DEFAULTS.hashCost,
    fibN: numberFlag('fib-n', str('fib-n'), BOUNDS.fibN.min, BOUNDS.fibN.max, true) ?? DEFAULTS.fibN,
    sleepMs: numberFlag('sleep-ms', str('sleep-ms'), BOUNDS.sleepMs.min, BOUNDS.sleepMs.max, true) ?? DEFAULTS.sleepMs,
    fileCount: numberFlag('file-count', str('file-count'), 1, 10_000, true) ?? DATA_DEFAULTS.count,
    fileSizeBytes: numberFlag('file-size', str('file-size'), 1, 1024 ** 3, true) ?? DATA_DEFAULTS.sizeBytes,
    dataDir: str('data-dir'),
    outDir: str('out'),
    quick,
    checkCalls: base.checkCalls,
    strict: values.strict === true,
    schedule: choice('schedule', str('schedule'), SCHEDULES) ?? 'interleaved',
    targetCv: numberFlag('target-cv', str('target-cv'), 0.001, 1, false),
    maxRuns: 0,
    cold: values.cold === true,
    profile: values.profile === true,
    allocator: 'fresh',
    crossCheck: crossCheckList(str('cross-check'), base.crossCheck, scenarios),
    drainCapSec: numberFlag('drain-cap', str('drain-cap'), 1, 600, false) ?? DEFAULT_DRAIN_CAP_SEC,
    minRequests: numberFlag('min-requests', str('min-requests'), 0, 1_000_000, true) ?? base.minRequests,
    warmupMaxSec: 0,
  };
  const processes = processList(str('processes'));
  if (processes !== undefined) plan.processes = processes;
  const clientCpus = numberFlag('client-cpus', str('client-cpus'), 1, 4096, true);
  if (clientCpus !== undefined) plan.clientCpus = clientCpus;
  const serverCpus = numberFlag('server-cpus', str('server-cpus'), 1, 4096, true);
  if (serverCpus !== undefined) plan.serverCpus = serverCpusPossible(serverCpus, str('server-host') !== undefined);
  // The default warm-up is a minimum, followed by slices until steady; a --warmup given by hand
  // is taken as it is (0: none), unless --warmup-max asks for more.
  const defaultWarmupMax = str('warmup') === undefined ? Math.max(plan.warmupSec, base.warmupMaxSec) : plan.warmupSec;
  plan.warmupMaxSec = numberFlag('warmup-max', str('warmup-max'), plan.warmupSec, 600, false) ?? defaultWarmupMax;
  const remote = remoteTarget(str, REPO_ROOT);
  if (remote !== undefined) plan.remote = remote;
  plan.allocator = allocatorFlag(str('allocator'), values['keep-freed-memory'] === true, remote !== undefined);
  // Two processes need two runs each for a process's mean; fewer runs keep one process.
  plan.serverProcesses =
    numberFlag('server-processes', str('server-processes'), 1, 8, true) ?? (quick || plan.runs < 4 ? 1 : DEFAULT_SERVER_PROCESSES);
  plan.maxRuns = numberFlag('max-runs', str('max-runs'), plan.runs, 1000, true) ?? Math.max(plan.runs, quick ? 10 : PRECISION.maxRuns);
  // Precision target: on by default in the full plan; --runs given by hand means that many runs
  // (as a --warmup given by hand is taken as it is), unless a target is asked for too; 0 turns it off.
  const precision =
    numberFlag('target-precision', str('target-precision'), 0, 1, false) ??
    (quick || str('runs') !== undefined ? undefined : PRECISION.targetPrecision);
  if (precision !== undefined && precision > 0) plan.targetPrecision = precision;
  const budget = numberFlag('budget', str('budget'), 1, 86_400, false) ?? (quick ? undefined : PRECISION.budgetSec);
  if (budget !== undefined) plan.budgetSec = budget;
  const baseline = str('baseline');
  if (baseline !== undefined) {
    const wanted = parseRuntimeRequest(baseline, RUNTIME_NAMES);
    if (!versioned || !requests.some((r) => r.label === wanted.label)) {
      throw new FlagError(
        `--baseline ${baseline} is not among --runtimes${versioned ? ` (${requests.map((r) => r.label).join(', ')})` : ' versions: name them, e.g. --runtimes node@22,node@24'}`,
      );
    }
    plan.baseline = wanted;
  }
  const sweepFlag = str('sweep');
  if (sweepFlag !== undefined) {
    plan.sweep = planSweep(sweepFlag, { ...plan, scenarios: str('scenarios') === undefined ? undefined : scenarios });
    plan.scenarios = [plan.sweep.scenario];
    plan.modes = sweepModes(plan.sweep, modes);
    plan.crossCheck = plan.crossCheck.filter((name) => name === plan.sweep?.scenario);
  }
  if (remote !== undefined && plan.scenarioFiles.length > 0)
    throw new FlagError('--scenario-file loads a module from this host: not with --server-host');
  if (modes !== undefined && cellsFor(plan.scenarios, modes).length === 0) {
    throw new FlagError(`--modes ${modes.join(',')} selects no cell of --scenarios ${plan.scenarios.join(',')}`);
  }
  return plan;
}

/**
 * The cells the plan measures, sized by a --sweep: what the run is given beside the plan. Named
 * once the user's own scenarios are registered (servers/user-scenarios.ts), as they are cells too.
 */
export function planCells(plan: Pick<Plan, 'scenarios' | 'modes' | 'sweep'>): CellSpec[] {
  const planned = cellsFor(plan.scenarios, plan.modes);
  return plan.sweep === undefined ? planned : sizedCells(planned, plan.sweep);
}
