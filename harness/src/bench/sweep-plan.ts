/**
 * --sweep json:kb=16,64,256: one scenario's sync and worker modes (and async when it has one)
 * measured at several values of one of its input parameters, to find where offloading starts to
 * pay. Checked against the module's own input(): the parameter must be one input() reads, each
 * value one it accepts (its RangeError, naming the bound, is the message).
 */
import { FlagError } from '../cli/flags.ts';
import { servedModes, type ScenarioModule, type ScenarioSettings } from '@bench/app';
import type { Mode, ScenarioName } from '../model/names.ts';
import type { SweepParameters } from '../model/parameters.ts';
import { scenarioModule, scenarioSettings, type CellSpec } from '../servers/scenarios.ts';

/** What the plan measures a sweep with: the scenario, its parameter, and the values in ascending order. */
export type SweepPlan = SweepParameters;

const SPELLING = /^([a-z][a-z0-9-]*):([A-Za-z][A-Za-z0-9_-]*)=(.+)$/;
/** Values are sizes: plain non-negative numbers, so "the smallest size from which" has an order. */
const NUMBER = /^\d+(\.\d+)?$/;

/** A URLSearchParams that remembers which names were read: the parameters an input() knows. */
class ReadParams extends URLSearchParams {
  readonly read = new Set<string>();
  override get(name: string): string | null {
    this.read.add(name);
    return super.get(name);
  }
  override getAll(name: string): string[] {
    this.read.add(name);
    return super.getAll(name);
  }
  override has(name: string, value?: string): boolean {
    this.read.add(name);
    return value === undefined ? super.has(name) : super.has(name, value);
  }
}

/** The parameters a module's input() reads (none without an input()). */
export function inputParameters(mod: ScenarioModule, settings: ScenarioSettings): string[] {
  if (mod.input === undefined) return [];
  const query = new ReadParams();
  try {
    mod.input(query, settings);
  } catch {
    // A module whose defaults need something absent here still said what it reads.
  }
  return [...query.read];
}

/**
 * Parses --sweep SCENARIO:PARAM=V1,V2,...; `find` gives the module behind a scenario name
 * (undefined for hello or an unknown name). Throws a FlagError (one line, exit 2) on anything
 * else than a module (every module serves sync and worker), a parameter its input() reads, and
 * two or more values its input() accepts.
 */
export function parseSweep(raw: string, find: (name: string) => ScenarioModule | undefined, settings: ScenarioSettings): SweepPlan {
  const match = SPELLING.exec(raw.trim());
  if (match === null) throw new FlagError(`--sweep takes SCENARIO:PARAMETER=V1,V2,... (e.g. json:kb=16,64,256), got "${raw}"`);
  const [, scenario = '', parameter = '', list = ''] = match;
  const mod = find(scenario);
  if (mod === undefined) throw new FlagError(`--sweep: unknown scenario "${scenario}" (a scenario module: hello has no input)`);
  const known = inputParameters(mod, settings);
  if (!known.includes(parameter))
    throw new FlagError(
      `--sweep: ${scenario} has no parameter "${parameter}"${known.length === 0 ? ' (its input() reads none)' : `; its input() reads ${known.join(', ')}`}`,
    );
  const values = [...new Set(list.split(',').map((v) => v.trim()))];
  const odd = values.find((v) => !NUMBER.test(v));
  if (odd !== undefined) throw new FlagError(`--sweep: ${parameter} values must be plain numbers (sizes), got "${odd}"`);
  for (const value of values) checkValue(mod, scenario, parameter, value, settings);
  if (values.length < 2) throw new FlagError(`--sweep: give two values of ${parameter} or more, comma-separated`);
  return { scenario, parameter, values: values.sort((a, b) => Number(a) - Number(b)) };
}

/** One value through the module's own input(): its RangeError (the bound) becomes the flag's error. */
function checkValue(mod: ScenarioModule, scenario: string, parameter: string, value: string, settings: ScenarioSettings): void {
  try {
    mod.input?.(new URLSearchParams({ [parameter]: value }), settings);
  } catch (error) {
    throw new FlagError(`--sweep: ${scenario} ${parameter}=${value}: ${(error as Error).message}`);
  }
}

/** The query a sized cell's requests carry: "kb=64". */
export function sweepQuery(sweep: Pick<SweepPlan, 'parameter'>, value: string): string {
  return new URLSearchParams({ [sweep.parameter]: value }).toString();
}

/**
 * The sweep's cells: each of the scenario's cells once per value, value by value, so a value's
 * modes form one group whose runs alternate (bench/budget.ts cellGroups splits on the query).
 */
export function sizedCells(cells: readonly CellSpec[], sweep: SweepPlan): CellSpec[] {
  const own = cells.filter((c) => c.scenario === sweep.scenario);
  return sweep.values.flatMap((value) => {
    const query = sweepQuery(sweep, value);
    return own.map((c) => ({ ...c, path: `${c.route}?${query}`, query }));
  });
}

/** What else the plan asked, which a sweep must fit. */
export interface SweepContext {
  /** --scenarios as given and expanded (undefined: not given). */
  scenarios?: readonly ScenarioName[] | undefined;
  modes?: readonly Mode[] | undefined;
  connections: readonly number[];
  hashCost: number;
  fibN: number;
  sleepMs: number;
}

/**
 * --sweep checked against the rest of the plan: one sweep at a time (not with a --connections
 * list), its scenario among --scenarios when they are given (bench:catalogue names the catalogue),
 * and --modes, when given, keeping sync and worker.
 */
export function planSweep(raw: string, ctx: SweepContext): SweepPlan {
  const settings = scenarioSettings({ dataDir: '', hashCost: ctx.hashCost, fibN: ctx.fibN, sleepMs: ctx.sleepMs });
  const sweep = parseSweep(raw, scenarioModule, settings);
  if (ctx.connections.length > 1) throw new FlagError('--sweep measures at one connection count: not with a --connections list');
  if (ctx.scenarios !== undefined && !ctx.scenarios.includes(sweep.scenario))
    throw new FlagError(`--sweep ${sweep.scenario}: not among --scenarios ${ctx.scenarios.join(',')}`);
  if (ctx.modes !== undefined && !(ctx.modes.includes('sync') && ctx.modes.includes('worker')))
    throw new FlagError(`--sweep compares worker with sync: --modes ${ctx.modes.join(',')} must keep both`);
  return sweep;
}

/**
 * The modes a sweep measures: those --modes kept, else sync, worker and async when the module
 * has it, whatever its default modes (a module that leaves worker out of its defaults still serves it).
 */
export function sweepModes(sweep: SweepPlan, asked: readonly Mode[] | undefined): Mode[] {
  const mod = scenarioModule(sweep.scenario);
  const served: readonly string[] = mod === undefined ? [] : servedModes(mod);
  return asked === undefined ? (['sync', 'worker', 'async'] as const).filter((m) => served.includes(m)) : [...asked];
}
