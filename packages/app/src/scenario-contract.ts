// The one contract every scenario module follows, built-in or the user's own (--scenario-file):
// a plain ES module that needs nothing from this project. The app and the harness both check it
// here, so a broken module gets the same one line wherever it is found first.

/** The modes a module can be served in. */
export const SCENARIO_MODES = ['sync', 'async', 'worker'] as const;
export type ScenarioMode = (typeof SCENARIO_MODES)[number];

/** Route prefix: lower case, starting with a letter. */
export const SCENARIO_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Server settings the built-in scenarios take from server flags (--hash-cost, --fib-n, ...):
 * handed to input(), setup() and verify() as their last argument. A module of your own needs
 * none of it; it is a plain object, so it travels to the worker threads as it is.
 */
export interface ScenarioSettings {
  /** Folder of generated input files (the file scenario's). */
  dataDir: string;
  hashCost: number;
  fibN: number;
  fibVariant: string;
  busyExponent: number;
  asyncDepth: number;
  sleepMs: number;
}

/**
 * A scenario module. Required: name, description, sync. Optional, for the built-ins mostly:
 * modes (the modes measured by default when not sync+worker(+async)), verify (answers that
 * legitimately differ per call: a salt, a file picked at random), respond (the HTTP body, when it
 * is not the answer itself), readsDataFiles (it reads the generated input files: --cold evicts
 * them before each run, warm runs read them through first), order (where a built-in sorts), group
 * (a built-in outside the default plan, measured when --scenarios names it or its group),
 * timeoutMs (the worker pool ends a call not answered this long after it was handed over:
 * a running thread is terminated and the request answered 504, so one hostile input cannot
 * hold a worker), differentWork (modes whose answer is not the same work as sync's: the report
 * does not compare their requests/s, and says what it compares instead).
 */
export interface ScenarioModule {
  name: string;
  description: string;
  sync(input: unknown): unknown;
  async?(input: unknown): Promise<unknown>;
  input?(query: URLSearchParams, settings: ScenarioSettings): unknown;
  setup?(settings: ScenarioSettings): unknown;
  modes?: readonly ScenarioMode[];
  verify?(body: unknown, settings: ScenarioSettings): unknown;
  respond?(answer: unknown, input: unknown, mode: ScenarioMode): unknown;
  readsDataFiles?: boolean;
  order?: number;
  group?: string;
  timeoutMs?: number;
  differentWork?: DifferentWork;
}

/**
 * Modes that do not do sync's work per answer (starve's async answers before its blockers
 * finish), why, and what the report compares instead of their requests/s.
 */
export interface DifferentWork {
  modes: readonly ScenarioMode[];
  why: string;
  compares: string;
}

/** Names the app serves itself: a scenario cannot take them. */
export const RESERVED_NAMES: readonly string[] = ['hello', 'health', 'stats', 'reset'];

const OPTIONAL_FUNCTIONS = ['async', 'input', 'setup', 'verify', 'respond'] as const;

/** The first contract rule `mod` breaks, as words to follow "file: ", or undefined when it keeps them all. */
export function contractBreach(mod: Record<string, unknown>): string | undefined {
  const { name, description, sync, modes, order } = mod;
  if (typeof name !== 'string') return `export const name is ${describe(name)}; it must be a string matching ${SCENARIO_NAME.source}`;
  if (!SCENARIO_NAME.test(name)) return `name ${JSON.stringify(name)} does not match ${SCENARIO_NAME.source}`;
  if (RESERVED_NAMES.includes(name)) return `name "${name}" is taken by the app's own route /${name}`;
  if (typeof description !== 'string' || description.trim() === '') return 'export const description must be a non-empty string (one line)';
  if (/[\r\n]/.test(description)) return 'description must be one line';
  if (typeof sync !== 'function')
    return `export function sync(input) is ${sync === undefined ? 'missing' : describe(sync)}; it is required`;
  for (const key of OPTIONAL_FUNCTIONS) {
    if (mod[key] !== undefined && typeof mod[key] !== 'function') return `export ${key} is ${describe(mod[key])}; it must be a function`;
  }
  if (modes !== undefined) {
    const list = Array.isArray(modes) ? (modes as unknown[]) : [];
    const bad = list.find((m) => !SCENARIO_MODES.includes(m as ScenarioMode));
    if (list.length === 0 || bad !== undefined) return `export const modes must be a non-empty list of ${SCENARIO_MODES.join(', ')}`;
    if (list.includes('async') && mod.async === undefined) return 'modes lists async but the module exports no async function';
  }
  if (mod.readsDataFiles !== undefined && typeof mod.readsDataFiles !== 'boolean')
    return `export const readsDataFiles is ${describe(mod.readsDataFiles)}; it must be true or false`;
  if (order !== undefined && typeof order !== 'number') return `export const order is ${describe(order)}; it must be a number`;
  const { timeoutMs } = mod;
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs)))
    return `export const timeoutMs is ${describe(timeoutMs)}; it must be a positive number of milliseconds`;
  if (mod.group !== undefined && (typeof mod.group !== 'string' || !SCENARIO_NAME.test(mod.group)))
    return `export const group is ${describe(mod.group)}; it must be a string matching ${SCENARIO_NAME.source}`;
  const dw = mod.differentWork as Record<string, unknown> | undefined;
  if (
    dw !== undefined &&
    (typeof dw !== 'object' ||
      dw === null ||
      !Array.isArray(dw.modes) ||
      dw.modes.some((m) => !SCENARIO_MODES.includes(m as ScenarioMode)) ||
      typeof dw.why !== 'string' ||
      typeof dw.compares !== 'string')
  )
    return `export const differentWork is ${describe(dw)}; it must be { modes: [${SCENARIO_MODES.join('|')}...], why: string, compares: string }`;
  return undefined;
}

/** The modes a scenario is measured in when none are asked for: sync, worker and async when it has one. */
export function defaultModes(mod: ScenarioModule): ScenarioMode[] {
  if (mod.modes !== undefined) return [...mod.modes];
  return SCENARIO_MODES.filter((m) => m !== 'async' || mod.async !== undefined);
}

/** The modes a scenario can be served in at all. */
export function servedModes(mod: ScenarioModule): ScenarioMode[] {
  return SCENARIO_MODES.filter((m) => m !== 'async' || mod.async !== undefined);
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  return `a ${typeof value} (${JSON.stringify(value)?.slice(0, 40)})`;
}
