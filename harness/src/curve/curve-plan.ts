import { BOUNDS, DEFAULTS, type RuntimeName } from '@bench/app';
import { choice, FlagError, nameList, numberFlag, parseFlags, plainNumber } from '../cli/flags.ts';
import { MODES } from '../model/names.ts';
import { RUNTIME_NAMES } from '../servers/runtimes.ts';
import { cellsFor, scenarioGroups, scenarioNames, withUserScenarios } from '../servers/scenarios.ts';
import { REMOTE_FLAGS, remoteTarget, type RemoteTarget } from '../servers/server-host.ts';
import { REPO_ROOT } from '../system/paths.ts';
import type { Mode, ScenarioName } from '../model/names.ts';
import type { Arrivals } from '../load/arrivals.ts';
import type { CurveParameters } from './curve-types.ts';

/** Everything one `bench:curve` run will do, decided before anything starts. */
export interface CurvePlan extends CurveParameters {
  runtimes: RuntimeName[];
  scenarios: ScenarioName[];
  /** --scenario-file: the user's own modules (absolute paths), loaded and checked before the plan (curve-cli). */
  scenarioFiles: string[];
  modes: Mode[] | undefined;
  outDir: string | undefined;
  /** Folder of the file scenario's inputs; undefined = data/files in the repository. */
  dataDir: string | undefined;
  /** --server-host and friends: the servers run on another host, the generator here. */
  remote?: RemoteTarget;
}

/**
 * Default: p99 at 95 % confidence, bracket rungs 1.57x apart from half the closed-loop figure,
 * bisection to 5 %, a step passes after 1 s at the soonest and gives up (undecided) after 15 s,
 * two undecided steps per cell at most: planned for about a quarter of an hour for every cell on
 * 2 cores (docs/load-curves.md gives a run's time). --quick decides at 80 % confidence, to 40 %, from the closed-loop figure in
 * rungs 2.47x apart, 0.5 s to 1 s per step (a pass at 80 % needs 161 requests, so steps under
 * 161 req/s can only fail or stay undecided), one undecided step, a 0.3 s closed-loop run with no
 * warm-up: planned for under 2 minutes.
 * minSamples only sizes a --rates step without a decision rule.
 */
export const CURVE_FULL = {
  ladderSteps: 7,
  stepSec: 1,
  minSamples: 15,
  maxStepSec: 15,
  closedLoopSec: 1,
  closedLoopWarmupSec: 0.5,
  closedLoopMinAnswers: 10,
  confidence: 0.95,
  resolution: 0.05,
  maxUndecided: 2,
  startShare: 0.5,
} as const;
export const CURVE_QUICK = {
  ladderSteps: 4,
  stepSec: 0.5,
  minSamples: 5,
  maxStepSec: 1,
  closedLoopSec: 0.3,
  closedLoopWarmupSec: 0,
  closedLoopMinAnswers: 5,
  confidence: 0.8,
  resolution: 0.4,
  maxUndecided: 1,
  startShare: 1,
} as const;
/**
 * The coarse bracket starts at this share of the closed-loop throughput (open loop with random
 * arrivals holds less); --quick starts at the closed-loop figure itself (CURVE_QUICK.startShare),
 * one rung fewer for most cells: its cold 0.3 s sizing run reads low, and a cell whose capacity
 * is below it fails that first step within a look or two.
 */
export const START_SHARE = CURVE_FULL.startShare;
/** Steps per cell at most, bracket and bisection together. */
export const MAX_SEARCH_STEPS = 12;

/** A number strictly between lo and hi (the bounds mean nothing at their ends). */
function openInterval(flag: string, raw: string | undefined, lo: number, hi: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = plainNumber(raw, false);
  if (value === undefined || value <= lo || value >= hi)
    throw new FlagError(`--${flag} must be a number between ${lo} and ${hi} (both excluded), got "${raw}"`);
  return value;
}

const ARRIVALS = ['constant', 'poisson'] as const satisfies readonly Arrivals[];
const STRINGS = [
  'runtimes',
  'scenarios',
  'modes',
  'out',
  'slo-ms',
  'rates',
  'arrivals',
  'seed',
  'steps',
  'step-sec',
  'max-step-sec',
  'confidence',
  'percentile',
  'resolution',
  'max-in-flight',
  'timeout-ms',
  'hash-cost',
  'fib-n',
  'sleep-ms',
  'data-dir',
  ...REMOTE_FLAGS,
] as const;

function rateList(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new FlagError('--rates is empty; give requests/s, e.g. --rates 10,20,40');
  const rates = items.map((item) => {
    const value = plainNumber(item, false);
    if (value === undefined || value <= 0 || value > 1_000_000)
      throw new FlagError(`--rates: "${item}" is not a rate from 0 to 1000000 req/s`);
    return value;
  });
  return [...new Set(rates)].sort((a, b) => a - b);
}

export function parseCurvePlan(argv: string[]): CurvePlan {
  const values = parseFlags(argv, STRINGS, ['quick', 'design-effect'], ['scenario-file']);
  const str = (k: string) => values[k] as string | undefined;
  const quick = values.quick === true;
  const base = quick ? CURVE_QUICK : CURVE_FULL;
  const sloMs = numberFlag('slo-ms', str('slo-ms'), 0.1, 600_000, false) ?? 100;
  const rates = rateList(str('rates'));
  const stepSec = numberFlag('step-sec', str('step-sec'), 0.1, 600, false) ?? base.stepSec;
  const maxStepSec = numberFlag('max-step-sec', str('max-step-sec'), 0.1, 3600, false) ?? base.maxStepSec;
  const plan: CurvePlan = {
    runtimes: nameList('runtimes', str('runtimes'), RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    // Every scenario by default. hello was left out while the generator (node:http) held only about
    // a third of autocannon's closed-loop rate; on raw sockets it keeps its schedule past that rate
    // (docs/load-generator.md), so hello's curves measure the server again.
    scenarios: withUserScenarios(nameList('scenarios', str('scenarios'), [...scenarioNames(), ...scenarioGroups().keys()])),
    scenarioFiles: [],
    modes: nameList('modes', str('modes'), MODES),
    outDir: str('out'),
    dataDir: str('data-dir'),
    sloMs,
    percentile: openInterval('percentile', str('percentile'), 50, 100) ?? 99,
    confidence: openInterval('confidence', str('confidence'), 0.5, 1) ?? base.confidence,
    resolution: openInterval('resolution', str('resolution'), 0, 1) ?? base.resolution,
    maxUndecided: base.maxUndecided,
    startShare: base.startShare,
    // Random arrivals by default: a metronome hides the queueing that real clients cause.
    arrivals: choice('arrivals', str('arrivals'), ARRIVALS) ?? 'poisson',
    seed: numberFlag('seed', str('seed'), 0, 2 ** 32 - 1, true) ?? 1,
    stepSeeds: 'per-rate',
    // Off by default: counted by their design effect, most steps of a queueing cell stay undecided within 15 s (docs/load-curves.md).
    designEffect: values['design-effect'] === true,
    ...(rates === undefined ? {} : { rates }),
    ladderSteps: numberFlag('steps', str('steps'), 1, 50, true) ?? base.ladderSteps,
    ladderShares: [0.1, 1.5],
    stepSec,
    minSamples: base.minSamples,
    maxStepSec: Math.max(stepSec, maxStepSec),
    closedLoopSec: base.closedLoopSec,
    closedLoopWarmupSec: base.closedLoopWarmupSec,
    closedLoopMinAnswers: base.closedLoopMinAnswers,
    maxInFlight: numberFlag('max-in-flight', str('max-in-flight'), 1, 10_000, true) ?? 512,
    // Past 10 x the target a step is clearly past saturation anyway; waiting longer buys nothing.
    timeoutMs: numberFlag('timeout-ms', str('timeout-ms'), 10, 600_000, false) ?? Math.max(2_000, 10 * sloMs),
    hashCost: numberFlag('hash-cost', str('hash-cost'), BOUNDS.hashCost.min, BOUNDS.hashCost.max, true) ?? DEFAULTS.hashCost,
    fibN: numberFlag('fib-n', str('fib-n'), BOUNDS.fibN.min, BOUNDS.fibN.max, true) ?? DEFAULTS.fibN,
    sleepMs: numberFlag('sleep-ms', str('sleep-ms'), BOUNDS.sleepMs.min, BOUNDS.sleepMs.max, true) ?? DEFAULTS.sleepMs,
    quick,
  };
  const remote = remoteTarget(str, REPO_ROOT);
  if (remote !== undefined) plan.remote = remote;
  if (remote !== undefined && values['scenario-file'] !== undefined)
    throw new FlagError('--scenario-file loads a module from this host: not with --server-host');
  if (plan.modes !== undefined && cellsFor(plan.scenarios, plan.modes).length === 0) {
    throw new FlagError(`--modes ${plan.modes.join(',')} selects no cell of --scenarios ${plan.scenarios.join(',')}`);
  }
  return plan;
}

/** The parameters recorded in the report (the plan without its selection). */
export function curveParameters(plan: CurvePlan): CurveParameters {
  const { runtimes: _r, scenarios: _s, modes: _m, outDir: _o, dataDir: _d, remote: _remote, ...parameters } = plan;
  return parameters;
}
