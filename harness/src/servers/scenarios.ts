import {
  DEFAULTS,
  defaultModes,
  loadScenarioFile,
  loadScenarios,
  ScenarioError,
  servedModes,
  type LoadedScenario,
  type ScenarioModule,
  type ScenarioSettings,
  type ServerKind,
  setupScenarios,
} from '@bench/app';
import type { Mode, ScenarioName } from '../model/names.ts';
import type { ScenarioEntry } from '../model/parameters.ts';
import { reportedPath } from '../system/paths.ts';

/** One cell's request: which server, which path, and the route /stats counts it under. */
export interface CellSpec {
  scenario: ScenarioName;
  mode: Mode;
  server: ServerKind;
  path: string;
  route: string;
  /** A --sweep's input for this cell ("kb=64"), also in `path`; absent: the module's defaults. */
  query?: string;
}

const cell = (scenario: ScenarioName, mode: Mode, path: string, server: ServerKind = 'hono'): CellSpec => ({
  scenario,
  mode,
  server,
  path,
  route: path.split('?', 1)[0] ?? path,
});

/** hello is the app's own baseline (Hono against the raw server), not a scenario module. */
const HELLO = 'hello';
const HELLO_DESCRIPTION = 'a trivial answer: Hono (baseline) next to the raw server';

/**
 * The scenario modules the harness plans from: the same files the app mounts (its scenarios/
 * folder), loaded here under tsx, plus the user's own once registerScenarioFiles has loaded them.
 */
const builtins: LoadedScenario[] = await loadScenarios();
const userScenarios: LoadedScenario[] = [];

/**
 * Loads the user's --scenario-file modules (in the order given), checked against the contract and
 * against the built-ins' names; a ScenarioError's message is the one line to print before exit 2.
 */
export async function registerScenarioFiles(files: readonly string[]): Promise<LoadedScenario[]> {
  const loaded: LoadedScenario[] = [];
  for (const file of files) {
    const one = await loadScenarioFile(file);
    const clash = [...builtins, ...userScenarios, ...loaded].find((s) => s.module.name === one.module.name);
    if (clash !== undefined) {
      throw new ScenarioError(
        `${file}: name "${one.module.name}" is already taken by ${clash.builtin ? 'a built-in scenario' : `the module in ${clash.file}`}`,
      );
    }
    loaded.push(one);
  }
  userScenarios.push(...loaded);
  return loaded;
}

/** Whether any of the user's modules reads the generated input files (declares readsDataFiles). */
export function userScenariosReadDataFiles(): boolean {
  return userScenarios.some((s) => s.module.readsDataFiles === true);
}

/** Runs the user's modules' setup() here, so one that throws is one line and exit 2 before any server starts. */
export async function setupUserScenarios(settings: ScenarioSettings): Promise<void> {
  await setupScenarios(userScenarios, settings);
}

/** The settings the servers are started with (their flags), as scenario modules take them. */
export function scenarioSettings(p: { dataDir: string; hashCost: number; fibN: number; sleepMs: number }): ScenarioSettings {
  return {
    dataDir: p.dataDir,
    hashCost: p.hashCost,
    fibN: p.fibN,
    sleepMs: p.sleepMs,
    fibVariant: DEFAULTS.fibVariant,
    busyExponent: DEFAULTS.busyExponent,
    asyncDepth: DEFAULTS.asyncDepth,
  };
}

/** Every scenario name the plan may name: hello, the built-ins in their order, then the user's own. */
export function scenarioNames(): ScenarioName[] {
  return [HELLO, ...builtins.map((s) => s.module.name), ...userScenarios.map((s) => s.module.name)];
}

/** The groups --scenarios may name for their modules (the catalogue), each with its members in order. */
export function scenarioGroups(): Map<string, ScenarioName[]> {
  const groups = new Map<string, ScenarioName[]>();
  for (const s of builtins)
    if (s.module.group !== undefined) groups.set(s.module.group, [...(groups.get(s.module.group) ?? []), s.module.name]);
  return groups;
}

/** The default plan: hello, the built-ins outside any group (the seeds' questions), the user's own. */
function defaultScenarioNames(): ScenarioName[] {
  return [HELLO, ...builtins.filter((s) => s.module.group === undefined).map((s) => s.module.name)];
}

/** --scenarios with each group name replaced by its members, duplicates dropped. */
export function expandGroups(named: readonly string[]): ScenarioName[] {
  const groups = scenarioGroups();
  return [...new Set(named.flatMap((name) => groups.get(name) ?? [name]))];
}

/**
 * --scenarios as given (the default plan when not), with the user's own modules joined: a
 * --scenario-file is measured whether or not --scenarios names it.
 */
export function withUserScenarios(named: ScenarioName[] | undefined): ScenarioName[] {
  const chosen = named === undefined ? defaultScenarioNames() : expandGroups(named);
  return [...chosen, ...userScenarios.map((s) => s.module.name).filter((name) => !chosen.includes(name))];
}

/** The module behind a scenario name, or undefined for hello. */
export function scenarioModule(name: ScenarioName): ScenarioModule | undefined {
  return [...builtins, ...userScenarios].find((s) => s.module.name === name)?.module;
}

/**
 * `--scenarios` for a server that serves these: only the modules measured are set up (hello and
 * the app's own routes are no module), since another module's setup (sqlite's table in every
 * thread) is start-up time every server pays for routes nothing asks for.
 */
export function scenariosFlag(names: readonly ScenarioName[]): string[] {
  const modules = names.filter((name) => scenarioModule(name) !== undefined);
  return ['--scenarios', modules.length === 0 ? 'none' : modules.join(',')];
}

/** Whether a scenario reads the generated data files (the servers need them, a cold run evicts them). */
export function readsDataFiles(name: ScenarioName): boolean {
  return scenarioModule(name)?.readsDataFiles === true;
}

/** The report's list of the scenarios planned, in its order, with their descriptions. */
export function scenarioEntries(names: readonly ScenarioName[]): ScenarioEntry[] {
  const all = scenarioNames();
  return [...names]
    .sort((a, b) => all.indexOf(a) - all.indexOf(b))
    .map((name) => {
      if (name === HELLO) return { name, description: HELLO_DESCRIPTION };
      const found = [...builtins, ...userScenarios].find((s) => s.module.name === name);
      const different = found?.module.differentWork;
      return {
        name,
        description: found?.module.description ?? '',
        ...(found?.builtin === false ? { file: reportedPath(found.file) } : {}),
        ...(different === undefined
          ? {}
          : { differentWork: { modes: [...different.modes], why: different.why, compares: different.compares } }),
      };
    });
}

/**
 * A scenario's cells: hello's baseline and raw; a module's default modes (sync, worker and async
 * when it has one, unless the module says otherwise), or, when `modes` asks, any mode it serves.
 */
function scenarioCells(name: ScenarioName, modes: readonly Mode[] | undefined): CellSpec[] {
  if (name === HELLO) {
    const both = [cell(HELLO, 'baseline', '/hello'), cell(HELLO, 'raw', '/hello', 'raw')];
    return both.filter((c) => modes === undefined || modes.includes(c.mode));
  }
  const mod = scenarioModule(name);
  if (mod === undefined) return [];
  const chosen = modes === undefined ? defaultModes(mod) : servedModes(mod).filter((m) => modes.includes(m));
  return chosen.map((mode) => cell(name, mode, `/${name}/${mode}`));
}

/** The cells of the scenarios, in order; `modes` (--modes) picks among the modes each serves. */
export function cellsFor(scenarios: readonly ScenarioName[], modes?: readonly Mode[]): CellSpec[] {
  return scenarios.flatMap((name) => scenarioCells(name, modes));
}
