// Finds and loads scenario modules: every module in ./scenarios/ (so adding a built-in scenario is
// adding its file, with no list to edit) and the user's own files (--scenario-file), each checked
// against the contract. The app loads them at start; the harness loads the same files to plan.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { contractBreach, type ScenarioModule, type ScenarioSettings } from './scenario-contract.ts';

/** A module that does not load or breaks the contract: the message is one line naming the file and the rule. */
export class ScenarioError extends Error {}

export interface LoadedScenario {
  module: ScenarioModule;
  /** file:// URL the module was imported from (worker threads import the same). */
  url: string;
  /** Absolute path, for messages. */
  file: string;
  builtin: boolean;
  /**
   * Why a built-in cannot run on this server (its setup() threw: node:sqlite before Node 22.5, or
   * no data files for the file scenario): its routes answer 503 naming this, the others are served.
   */
  unavailable?: string;
}

const BUILTIN_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));
const MODULE_FILE = /^[^.].*(?<!\.d)\.(ts|mts|js|mjs)$/;

/** The built-in scenario modules' files, as the folder holds them. */
export function builtinScenarioFiles(): string[] {
  return readdirSync(BUILTIN_DIR)
    .filter((f) => MODULE_FILE.test(f) && !/\.test\./.test(f))
    .sort()
    .map((f) => resolve(BUILTIN_DIR, f));
}

/** Imports one module and checks it against the contract; a ScenarioError names what is wrong. */
export async function loadScenarioFile(path: string, builtin = false): Promise<LoadedScenario> {
  const file = resolve(path);
  if (!existsSync(file) || !statSync(file).isFile()) throw new ScenarioError(`${path}: no such file`);
  const url = pathToFileURL(file).href;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ScenarioError(`${path}: does not load: ${firstLine(error)}`);
  }
  const breach = contractBreach(mod);
  if (breach !== undefined) throw new ScenarioError(`${path}: ${breach}`);
  return { module: mod as unknown as ScenarioModule, url, file, builtin };
}

/** A built-in's name is its file's name, so a server can leave the modules it does not serve unloaded. */
function builtinName(file: string): string {
  return basename(file).replace(/\.[^.]+$/, '');
}

/**
 * The built-ins (by their `order`, then name) and then the user's files in the order given.
 * A user module whose name a built-in or an earlier file already has is refused. With `only`,
 * only the built-ins it names are imported (a server imports no module it does not serve: the
 * others' imports, bcrypt's addon among them, cost every start); the user's files are all loaded.
 */
export async function loadScenarios(userFiles: readonly string[] = [], only?: readonly string[]): Promise<LoadedScenario[]> {
  const files = builtinScenarioFiles();
  const wanted = only === undefined ? files : files.filter((f) => only.includes(builtinName(f)));
  const builtins = await Promise.all(wanted.map((f) => loadScenarioFile(f, true)));
  for (const b of builtins) {
    if (b.module.name !== builtinName(b.file))
      throw new ScenarioError(`${b.file}: a built-in's name must be its file's name, not "${b.module.name}"`);
  }
  builtins.sort((a, b) => (a.module.order ?? 1e9) - (b.module.order ?? 1e9) || a.module.name.localeCompare(b.module.name));
  const all = [...builtins];
  const builtinNames = new Set(files.map(builtinName));
  for (const path of userFiles) {
    const loaded = await loadScenarioFile(path);
    const name = loaded.module.name;
    const clash = all.find((s) => s.module.name === name);
    if (clash !== undefined || builtinNames.has(name)) {
      const whose = clash === undefined || clash.builtin ? 'a built-in scenario' : `the module in ${clash.file}`;
      throw new ScenarioError(`${path}: name "${name}" is already taken by ${whose}`);
    }
    all.push(loaded);
  }
  return all;
}

/**
 * The modules named in `names` (all when undefined), from what loadScenarios(userFiles, names)
 * loaded; a name no module has is a ScenarioError listing every scenario there is (every
 * built-in then loaded to name them in their order: an error path, so its cost does not matter).
 */
export async function selectScenarios(
  loaded: readonly LoadedScenario[],
  names: readonly string[] | undefined,
  userFiles: readonly string[] = [],
): Promise<LoadedScenario[]> {
  if (names === undefined) return [...loaded];
  const unknown = names.filter((name) => !loaded.some((s) => s.module.name === name));
  if (unknown.length > 0) {
    const all = await loadScenarios(userFiles);
    throw new ScenarioError(`--scenarios: no scenario named ${unknown.join(', ')} (there are ${all.map((s) => s.module.name).join(', ')})`);
  }
  return loaded.filter((s) => names.includes(s.module.name));
}

/**
 * Runs each module's setup(), one after another. A user's module that throws is a ScenarioError
 * naming its file (the run stops before any load); a built-in that throws is marked unavailable
 * on this server (node:sqlite on an older Node, the file scenario without its data files): its
 * routes answer 503 naming why, so one scenario that cannot run does not take the others down.
 */
export async function setupScenarios(scenarios: readonly LoadedScenario[], settings: ScenarioSettings): Promise<void> {
  for (const s of scenarios) {
    if (s.module.setup === undefined) continue;
    try {
      await s.module.setup(settings);
    } catch (error) {
      if (!s.builtin) throw new ScenarioError(`${s.file}: setup() threw: ${firstLine(error)}`);
      s.unavailable = `setup() threw: ${firstLine(error)}`;
    }
  }
}

/** The error's first line, and the next one too where the first only leads into it ("Transform failed with 1 error:"). */
function firstLine(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [first = '', next] = lines;
  return first.endsWith(':') && next !== undefined ? `${first} ${next}` : first;
}
