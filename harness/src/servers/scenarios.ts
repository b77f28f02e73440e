import type { ServerKind } from '@bench/app';
import type { Mode, ScenarioName } from '../model/names.ts';

/** What the scenarios' requests ask for; the same on every runtime. */
export interface ScenarioParams {
  fibN: number;
  sleepMs: number;
}

/** One cell's request: which server, which path, and the route /stats counts it under. */
export interface CellSpec {
  scenario: ScenarioName;
  mode: Mode;
  server: ServerKind;
  path: string;
  route: string;
}

const cell = (scenario: ScenarioName, mode: Mode, path: string, server: ServerKind = 'hono'): CellSpec => ({
  scenario,
  mode,
  server,
  path,
  route: path.split('?', 1)[0] ?? path,
});

/**
 * Every scenario and its modes. Adding a scenario is one route file in packages/app plus one
 * entry here.
 */
export const SCENARIOS: Record<ScenarioName, (p: ScenarioParams) => CellSpec[]> = {
  hello: () => [cell('hello', 'baseline', '/hello'), cell('hello', 'raw', '/hello', 'raw')],
  hash: () => [cell('hash', 'sync', '/hash/sync'), cell('hash', 'async', '/hash/async')],
  file: () => [cell('file', 'sync', '/file/sync'), cell('file', 'async', '/file/async')],
  fib: (p) => (['sync', 'async', 'worker'] as const).map((mode) => cell('fib', mode, `/fib/${mode}?n=${p.fibN}`)),
  sleep: (p) => (['sync', 'async'] as const).map((mode) => cell('sleep', mode, `/sleep/${mode}?ms=${p.sleepMs}`)),
};

export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

export function cellsFor(scenarios: readonly ScenarioName[], params: ScenarioParams): CellSpec[] {
  return scenarios.flatMap((name) => SCENARIOS[name](params));
}
