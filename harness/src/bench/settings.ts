/**
 * One model of a run's settings. The plan is what the user asked for; what a measured run needs
 * of it travels down as a narrow settings object (runSettings), one per pass of connections, and
 * the report's parameters are derived from the plan here, in one place, so a setting added to
 * the plan is added to the report by naming it once.
 */
import type { Parameters } from '../model/parameters.ts';
import type { ScenarioName } from '../model/names.ts';
import { allocatorEnv } from '../system/allocator.ts';
import type { Plan } from './plan.ts';
import { scenarioEntries } from '../servers/scenarios.ts';

/** What measuring one cell reads (bench/measure.ts, servers/server-control.ts), at one pass's connections. */
export interface RunSettings {
  connections: number;
  durationSec: number;
  warmupSec: number;
  warmupMaxSec: number;
  minRequests: number;
  probeRatePerSec: number;
  timeoutSec: number;
  drainCapSec: number;
  hashCost: number;
}

/** And what scheduling a cell's runs reads besides (bench/schedule.ts): how many runs, to what precision, cross-checked or not. */
export interface ScheduleSettings extends RunSettings {
  runs: number;
  maxRuns: number;
  targetCv: number | undefined;
  targetPrecision?: number;
  crossCheck: ScenarioName[];
  /** Server processes a cell's runs are split between (restarted midway); undefined = one. */
  serverProcesses?: number;
  /** bench:ab: the servers restart every this many rounds, for as many rounds as are run (overrides serverProcesses). */
  roundsPerProcess?: number;
}

const RUN_FIELDS = [
  'durationSec',
  'warmupSec',
  'warmupMaxSec',
  'minRequests',
  'probeRatePerSec',
  'timeoutSec',
  'drainCapSec',
  'hashCost',
] as const satisfies readonly (keyof RunSettings & keyof Plan)[];

/** The settings of one pass: the plan's run figures at `connections`. */
export function scheduleSettings(plan: Plan, connections: number): ScheduleSettings {
  const run = Object.fromEntries(RUN_FIELDS.map((field) => [field, plan[field]])) as Pick<Plan, (typeof RUN_FIELDS)[number]>;
  return {
    ...run,
    connections,
    runs: plan.runs,
    maxRuns: plan.maxRuns,
    targetCv: plan.targetCv,
    ...(plan.targetPrecision === undefined ? {} : { targetPrecision: plan.targetPrecision }),
    crossCheck: plan.crossCheck,
    ...(plan.serverProcesses === undefined ? {} : { serverProcesses: plan.serverProcesses }),
    ...(plan.roundsPerProcess === undefined ? {} : { roundsPerProcess: plan.roundsPerProcess }),
  };
}

/** What the machine allowed of the plan, which the report's parameters say beside it. */
export interface Allowed {
  /** --cold: whether files can be evicted here (undefined: not asked for). */
  cold: { ok: true } | { ok: false; reason: string } | undefined;
  /** Why there is no wrk cross-check, when asked for and wrk is missing. */
  noWrk: string | undefined;
}

/** The plan's own figures, in the order the report has always listed them. */
const FIGURES = [
  'durationSec',
  'warmupSec',
  'runs',
  'probeRatePerSec',
  'hashCost',
  'fibN',
  'sleepMs',
  'fileCount',
  'fileSizeBytes',
] as const;
const LIMITS = ['schedule', 'timeoutSec', 'drainCapSec', 'minRequests', 'warmupMaxSec'] as const;

function pick<K extends keyof Plan & keyof Parameters>(plan: Plan, fields: readonly K[]): Pick<Parameters, K> {
  return Object.fromEntries(fields.map((field) => [field, plan[field]])) as unknown as Pick<Parameters, K>;
}

/** Every parameter of the run as measured: the plan, and what the machine allowed of it. */
export function reportParameters(plan: Plan, allowed: Allowed): Parameters {
  const { cold } = allowed;
  return {
    connections: plan.connections[0],
    // More than one count (repeats dropped by parsePlan) is a sweep: model/parameters.ts connectionsSwept.
    ...(plan.connections.length > 1 ? { connectionsSweep: [...plan.connections] } : {}),
    ...pick(plan, FIGURES),
    fileCache: cold?.ok === true ? 'cold' : 'warm',
    ...(cold?.ok === false ? { coldUnavailable: cold.reason } : {}),
    crossCheck:
      plan.crossCheck.length === 0
        ? { reason: 'not asked for' }
        : allowed.noWrk === undefined
          ? plan.crossCheck
          : { reason: allowed.noWrk },
    ...pick(plan, LIMITS),
    ...(plan.targetCv === undefined ? {} : { targetCv: plan.targetCv, maxRuns: plan.maxRuns }),
    ...(plan.targetPrecision === undefined ? {} : { targetPrecision: plan.targetPrecision, maxRuns: plan.maxRuns }),
    ...(plan.budgetSec === undefined ? {} : { budgetSec: plan.budgetSec }),
    ...(plan.baseline === undefined ? {} : { versionBaseline: plan.baseline.label }),
    allocator: plan.allocator,
    scenarios: scenarioEntries(plan.scenarios),
    ...(plan.sweep === undefined ? {} : { sweep: plan.sweep }),
    ...(plan.serverProcesses === undefined || plan.serverProcesses < 2 ? {} : { serverProcesses: plan.serverProcesses }),
    ...(plan.roundsPerProcess === undefined ? {} : { roundsPerProcess: plan.roundsPerProcess }),
    ...(plan.serverCpus === undefined ? {} : { serverCpus: plan.serverCpus }),
    ...serverEnvOf(plan),
  };
}

/** What --allocator adds to every server's environment (none as shipped). */
function serverEnvOf(plan: Plan): { serverEnv?: Record<string, string> } {
  const env = allocatorEnv(plan.allocator);
  return env === undefined ? {} : { serverEnv: { ...env } };
}
