import { choice, FlagError as PlanError, nameList, numberFlag, parseFlags } from '../cli-flags.ts';
import { BOUNDS, DATA_DEFAULTS, DEFAULTS, type RuntimeName } from '@bench/app';
import type { Mode, ScenarioName } from '../report/report-types.ts';
import { RUNTIME_NAMES } from './runtimes.ts';
import { cellsFor, SCENARIO_NAMES } from './scenarios.ts';
import { DEFAULT_MIN_REQUESTS } from './run-length.ts';
import { REMOTE_FLAGS, remoteTarget, type RemoteTarget } from '../remote/ssh.ts';
import { REPO_ROOT } from '../system/paths.ts';

/** Everything one bench run will do, decided before anything starts. */
export interface Plan {
  runtimes: RuntimeName[];
  scenarios: ScenarioName[];
  /** Modes to keep within the scenarios (all when undefined). */
  modes: Mode[] | undefined;
  connections: number;
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
  /** Exit non-zero when anything did not run cleanly, not only when nothing ran. */
  strict: boolean;
  schedule: 'interleaved' | 'sequential';
  /** Add runs until each cell's CV is at most this (undefined: exactly `runs` runs). */
  targetCv: number | undefined;
  /** Cap on runs per cell when a CV target is set. */
  maxRuns: number;
  /** Evict the file scenario's files from the page cache before each run. */
  cold: boolean;
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
  /** --server-host and friends: the servers run on another host, started over ssh. */
  remote?: RemoteTarget;
}

/**
 * Default plan: 11 cells per runtime, each 0.5 s of warm-up and 3 runs of 2 s, about 4.5 minutes
 * for all three runtimes on 2 cores (README, "Choosing the defaults").
 */
export const FULL = { connections: 10, durationSec: 2, warmupSec: 0.5, warmupMaxSec: 3, runs: 3 } as const;
/** --quick: every cell, shorter and fewer runs: under a minute for all three runtimes. */
export const QUICK = { connections: 10, durationSec: 0.5, warmupSec: 0.1, warmupMaxSec: 1, runs: 2 } as const;

/**
 * Drain cap: a restart (about a second, plus the cell's warm-up again) beats waiting longer, and
 * 15 s still lets the backlog of a 10-connection load on the slowest default cell (bcrypt, about
 * 0.7 s) and of most 100-connection loads drain, so their runs keep the server's own figures.
 */
export const DEFAULT_DRAIN_CAP_SEC = 15;

export const MODES: readonly Mode[] = ['baseline', 'raw', 'sync', 'async', 'worker'];
const SCHEDULES = ['interleaved', 'sequential'] as const;

/** A flag problem: one line naming it and the accepted values; the CLI exits 2. */
export { FlagError as PlanError } from '../cli-flags.ts';

/**
 * Default: the hello cells, where the load generator is most likely the limit. "all", a list
 * of scenarios, or "none".
 */
function crossCheckList(raw: string | undefined): ScenarioName[] {
  if (raw === undefined) return ['hello'];
  if (raw === 'none') return [];
  if (raw === 'all') return [...SCENARIO_NAMES];
  return nameList('cross-check', raw, SCENARIO_NAMES) ?? [];
}

const PLAN_FLAGS = ['runtimes', 'scenarios', 'modes', 'connections', 'duration', 'warmup', 'runs', 'probe-rate', 'timeout', 'hash-cost', 'fib-n', 'sleep-ms', 'file-count', 'file-size', 'data-dir', 'out', 'schedule', 'target-cv', 'max-runs', 'cross-check', 'drain-cap', 'min-requests', 'warmup-max', ...REMOTE_FLAGS] as const;

export function parsePlan(argv: string[]): Plan {
  const values = parseFlags(argv, PLAN_FLAGS, ['quick', 'strict', 'cold']);
  const str = (k: string) => values[k] as string | undefined;
  const quick = values.quick === true;
  const base = quick ? QUICK : FULL;
  const modes = nameList('modes', str('modes'), MODES);
  const plan: Plan = {
    runtimes: nameList('runtimes', str('runtimes'), RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    scenarios: nameList('scenarios', str('scenarios'), SCENARIO_NAMES) ?? [...SCENARIO_NAMES],
    modes,
    connections: numberFlag('connections', str('connections'), 1, 10_000, true) ?? base.connections,
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
    strict: values.strict === true,
    schedule: choice('schedule', str('schedule'), SCHEDULES) ?? 'interleaved',
    targetCv: numberFlag('target-cv', str('target-cv'), 0.001, 1, false),
    maxRuns: 0,
    cold: values.cold === true,
    crossCheck: crossCheckList(str('cross-check')),
    drainCapSec: numberFlag('drain-cap', str('drain-cap'), 1, 600, false) ?? DEFAULT_DRAIN_CAP_SEC,
    minRequests: numberFlag('min-requests', str('min-requests'), 0, 1_000_000, true) ?? DEFAULT_MIN_REQUESTS,
    warmupMaxSec: 0,
  };
  // The default warm-up is a minimum, followed by slices until steady; a --warmup given by hand
  // is taken as it is (0: none), unless --warmup-max asks for more.
  const defaultWarmupMax = str('warmup') === undefined ? Math.max(plan.warmupSec, base.warmupMaxSec) : plan.warmupSec;
  plan.warmupMaxSec = numberFlag('warmup-max', str('warmup-max'), plan.warmupSec, 600, false) ?? defaultWarmupMax;
  const remote = remoteTarget(str, REPO_ROOT);
  if (remote !== undefined) plan.remote = remote;
  plan.maxRuns = numberFlag('max-runs', str('max-runs'), plan.runs, 1000, true) ?? Math.max(plan.runs, 10);
  if (modes !== undefined && !cellsFor(plan.scenarios, plan).some((c) => modes.includes(c.mode))) {
    throw new PlanError(`--modes ${modes.join(',')} selects no cell of --scenarios ${plan.scenarios.join(',')}`);
  }
  return plan;
}

