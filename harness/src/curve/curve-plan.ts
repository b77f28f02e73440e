import { BOUNDS, DEFAULTS, type RuntimeName } from '@bench/app';
import { choice, FlagError, nameList, numberFlag, parseFlags } from '../cli-flags.ts';
import { MODES } from '../run/plan.ts';
import { RUNTIME_NAMES } from '../run/runtimes.ts';
import { cellsFor, SCENARIO_NAMES } from '../run/scenarios.ts';
import { REMOTE_FLAGS, remoteTarget, type RemoteTarget } from '../remote/ssh.ts';
import { REPO_ROOT } from '../system/paths.ts';
import type { Mode, ScenarioName } from '../report/report-types.ts';
import type { Arrivals } from './arrivals.ts';
import type { CurveParameters } from './curve-types.ts';

/** Everything one `bench:curve` run will do, decided before anything starts. */
export interface CurvePlan extends CurveParameters {
  runtimes: RuntimeName[];
  scenarios: ScenarioName[];
  modes: Mode[] | undefined;
  outDir: string | undefined;
  /** Folder of the file scenario's inputs; undefined = data/files in the repository. */
  dataDir: string | undefined;
  /** --server-host and friends: the servers run on another host, the generator here. */
  remote?: RemoteTarget;
}

/** The heavy scenarios: hello answers far faster than one generator process can send. */
export const CURVE_DEFAULT_SCENARIOS: ScenarioName[] = ['hash', 'file', 'fib', 'sleep'];

/**
 * Default: 7 rates per cell, 1.5 s each (longer at low rates, up to 3 s, to hold 15 samples),
 * about 8 minutes for 27 cells on 2 cores (README, "Load curves"). --quick: 5 rates of 0.3 s.
 */
export const CURVE_FULL = { ladderSteps: 7, stepSec: 1.5, minSamples: 15, maxStepSec: 3, closedLoopSec: 1 } as const;
export const CURVE_QUICK = { ladderSteps: 5, stepSec: 0.3, minSamples: 5, maxStepSec: 0.6, closedLoopSec: 0.3 } as const;

const ARRIVALS = ['constant', 'poisson'] as const satisfies readonly Arrivals[];
const STRINGS = ['runtimes', 'scenarios', 'modes', 'out', 'slo-ms', 'rates', 'arrivals', 'seed', 'steps', 'step-sec', 'max-in-flight', 'timeout-ms', 'hash-cost', 'fib-n', 'sleep-ms', 'data-dir', ...REMOTE_FLAGS] as const;

function rateList(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw new FlagError('--rates is empty; give requests/s, e.g. --rates 10,20,40');
  const rates = items.map((item) => {
    const value = Number(item);
    if (!Number.isFinite(value) || value <= 0 || value > 1_000_000) throw new FlagError(`--rates: "${item}" is not a rate from 0 to 1000000 req/s`);
    return value;
  });
  return [...new Set(rates)].sort((a, b) => a - b);
}

export function parseCurvePlan(argv: string[]): CurvePlan {
  const values = parseFlags(argv, STRINGS, ['quick']);
  const str = (k: string) => values[k] as string | undefined;
  const quick = values.quick === true;
  const base = quick ? CURVE_QUICK : CURVE_FULL;
  const sloMs = numberFlag('slo-ms', str('slo-ms'), 0.1, 600_000, false) ?? 100;
  const rates = rateList(str('rates'));
  const stepSec = numberFlag('step-sec', str('step-sec'), 0.1, 600, false) ?? base.stepSec;
  const plan: CurvePlan = {
    runtimes: nameList('runtimes', str('runtimes'), RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    scenarios: nameList('scenarios', str('scenarios'), SCENARIO_NAMES) ?? [...CURVE_DEFAULT_SCENARIOS],
    modes: nameList('modes', str('modes'), MODES),
    outDir: str('out'),
    dataDir: str('data-dir'),
    sloMs,
    arrivals: choice('arrivals', str('arrivals'), ARRIVALS) ?? 'constant',
    seed: numberFlag('seed', str('seed'), 0, 2 ** 32 - 1, true) ?? 1,
    ...(rates === undefined ? {} : { rates }),
    ladderSteps: numberFlag('steps', str('steps'), 1, 50, true) ?? base.ladderSteps,
    ladderShares: [0.1, 1.5],
    stepSec,
    minSamples: base.minSamples,
    maxStepSec: Math.max(stepSec, base.maxStepSec),
    closedLoopSec: base.closedLoopSec,
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
  if (plan.modes !== undefined && !cellsFor(plan.scenarios, plan).some((c) => plan.modes?.includes(c.mode))) {
    throw new FlagError(`--modes ${plan.modes.join(',')} selects no cell of --scenarios ${plan.scenarios.join(',')}`);
  }
  return plan;
}

/** The parameters recorded in the report (the plan without its selection). */
export function curveParameters(plan: CurvePlan): CurveParameters {
  const { runtimes: _r, scenarios: _s, modes: _m, outDir: _o, dataDir: _d, remote: _remote, ...parameters } = plan;
  return parameters;
}
