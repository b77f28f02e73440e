import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { contractBreach, defaultModes, loadScenarioFile, ScenarioError, type ScenarioModule } from '@bench/app';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../src/bench/plan.ts';
import { cellsFor, registerScenarioFiles, scenarioEntries, scenarioNames, scenariosFlag } from '../src/servers/scenarios.ts';
import { reportedPath } from '../src/system/paths.ts';

const ok = { name: 'mine', description: 'one line', sync: () => 1 };
const dir = mkdtempSync(join(tmpdir(), 'scenario-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function moduleFile(file: string, text: string): string {
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

describe('the scenario contract', () => {
  it('accepts name, description and sync alone, and the optional exports as functions', () => {
    expect(contractBreach(ok)).toBeUndefined();
    expect(
      contractBreach({ ...ok, async: async () => 1, input: () => ({}), setup: async () => {}, modes: ['sync', 'async'] }),
    ).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a missing name', { ...ok, name: undefined }, /export const name is missing; it must be a string matching/],
    ['a name that is not a string', { ...ok, name: 42 }, /export const name is a number \(42\)/],
    ['a name outside [a-z][a-z0-9-]*', { ...ok, name: 'My_Scenario' }, /name "My_Scenario" does not match/],
    ['a name starting with a digit', { ...ok, name: '9lives' }, /name "9lives" does not match/],
    ["a name the app's own routes take", { ...ok, name: 'stats' }, /name "stats" is taken by the app's own route \/stats/],
    ['no description', { ...ok, description: '' }, /description must be a non-empty string/],
    ['a description of two lines', { ...ok, description: 'one\ntwo' }, /description must be one line/],
    ['no sync', { ...ok, sync: undefined }, /export function sync\(input\) is missing; it is required/],
    ['a sync that is not a function', { ...ok, sync: 3 }, /export function sync\(input\) is a number/],
    ['an async that is not a function', { ...ok, async: 'later' }, /export async is a string \("later"\); it must be a function/],
    ['an input that is not a function', { ...ok, input: { n: 1 } }, /export input is a object .*; it must be a function/],
    ['a setup that is not a function', { ...ok, setup: true }, /export setup is a boolean/],
    ['modes naming an unknown mode', { ...ok, modes: ['sync', 'threads'] }, /modes must be a non-empty list of sync, async, worker/],
    [
      'a timeoutMs that is not a positive number',
      { ...ok, timeoutMs: 0 },
      /export const timeoutMs is a number \(0\); it must be a positive number of milliseconds/,
    ],
    ['a timeoutMs given as text', { ...ok, timeoutMs: '250' }, /export const timeoutMs is a string/],
    [
      'modes listing async without an async export',
      { ...ok, modes: ['async'] },
      /modes lists async but the module exports no async function/,
    ],
  ])('refuses %s, naming the rule', (_what, mod, message) => {
    expect(contractBreach(mod)).toMatch(message);
  });

  it('serves sync and worker by default, and async when the module has one', () => {
    expect(defaultModes(ok as ScenarioModule)).toEqual(['sync', 'worker']);
    expect(defaultModes({ ...ok, async: async () => 1 } as ScenarioModule)).toEqual(['sync', 'async', 'worker']);
    expect(defaultModes({ ...ok, modes: ['sync', 'async'], async: async () => 1 } as ScenarioModule)).toEqual(['sync', 'async']);
  });
});

describe('loading a module file', () => {
  it('names the file and the broken rule in one line', async () => {
    const bad = moduleFile(
      'bad-name.mjs',
      "export const name = 'Bad'; export const description = 'x'; export function sync() { return 1; }\n",
    );
    await expect(loadScenarioFile(bad)).rejects.toThrow(new ScenarioError(`${bad}: name "Bad" does not match ^[a-z][a-z0-9-]*$`));
  });

  it('a file that does not load, or is not there, is one line too', async () => {
    const broken = moduleFile('syntax.mjs', 'export const name = ;\n');
    const error = (await loadScenarioFile(broken).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(ScenarioError);
    expect(error.message).toMatch(new RegExp(`^${broken}: does not load: `));
    expect(error.message).not.toMatch(/\n/);
    await expect(loadScenarioFile(join(dir, 'nope.ts'))).rejects.toThrow(/nope\.ts: no such file/);
  });

  it('refuses a name a built-in already has', async () => {
    const clash = moduleFile(
      'fib.mjs',
      "export const name = 'fib'; export const description = 'x'; export function sync() { return 1; }\n",
    );
    await expect(registerScenarioFiles([clash])).rejects.toThrow(`${clash}: name "fib" is already taken by a built-in scenario`);
  });
});

describe('planning from the modules', () => {
  it('tells a server to set up only the modules planned: none for hello alone', () => {
    expect(scenariosFlag(['hello'])).toEqual(['--scenarios', 'none']);
    expect(scenariosFlag(['hello', 'fib', 'sleep'])).toEqual(['--scenarios', 'fib,sleep']);
  });

  it('finds the four seeds in the app folder, in their order, with the modes they had', () => {
    expect(scenarioNames().slice(0, 5)).toEqual(['hello', 'hash', 'file', 'fib', 'sleep']);
    expect(cellsFor(['hello', 'hash', 'file', 'fib', 'sleep']).map((c) => `${c.scenario}/${c.mode} ${c.path}`)).toEqual([
      'hello/baseline /hello',
      'hello/raw /hello',
      'hash/sync /hash/sync',
      'hash/async /hash/async',
      'file/sync /file/sync',
      'file/async /file/async',
      'fib/sync /fib/sync',
      'fib/async /fib/async',
      'fib/worker /fib/worker',
      'sleep/sync /sleep/sync',
      'sleep/async /sleep/async',
    ]);
  });

  it('--modes worker asks for the worker mode every module serves', () => {
    expect(parsePlan(['--modes', 'worker', '--scenarios', 'sleep,hash']).scenarios).toEqual(['sleep', 'hash']);
    expect(cellsFor(['sleep', 'hash'], ['worker']).map((c) => c.path)).toEqual(['/sleep/worker', '/hash/worker']);
  });

  it("every A/B self-test in docs/examples/ab loads under the contract, its B side with A's name, description and modes", async () => {
    const dir = resolve(import.meta.dirname, '../../docs/examples/ab');
    const sides = readdirSync(dir).filter((f) => f.endsWith('-5pct.ts'));
    expect(sides.length).toBeGreaterThanOrEqual(6);
    for (const b of sides) {
      const [loadedA, loadedB] = await Promise.all([loadScenarioFile(join(dir, b.replace('-5pct', ''))), loadScenarioFile(join(dir, b))]);
      const [a, bm] = [loadedA.module, loadedB.module];
      expect(bm.name, b).toBe(a.name);
      expect(defaultModes(bm), b).toEqual(defaultModes(a));
      expect(bm.description, b).toBe(a.description);
    }
  });

  it('a --scenario-file module joins the plan by its name, after the built-ins, with its description and file', async () => {
    const example = resolve(import.meta.dirname, '../../docs/examples/primes.ts');
    await registerScenarioFiles([example]);
    expect(scenarioNames().at(-1)).toBe('primes');
    // Measured whether or not --scenarios names it; sync, async and worker by default.
    expect(parsePlan(['--scenarios', 'fib']).scenarios).toEqual(['fib', 'primes']);
    expect(parsePlan(['--scenarios', 'primes,hello']).scenarios).toEqual(['primes', 'hello']);
    expect(cellsFor(['primes']).map((c) => c.mode)).toEqual(['sync', 'async', 'worker']);
    expect(scenarioEntries(['primes', 'hello'])).toEqual([
      { name: 'hello', description: expect.stringMatching(/raw server/) },
      // Inside the repository, from its root: the same in a report made in any checkout of it.
      { name: 'primes', description: expect.stringMatching(/count the primes/), file: 'docs/examples/primes.ts' },
    ]);
  });

  it("names a module outside the repository by the path it was given: the user's own file is theirs", () => {
    const outside = join(tmpdir(), 'handler.ts');
    expect(reportedPath(outside)).toBe(outside);
    expect(reportedPath(resolve(import.meta.dirname, '../../docs/examples/primes.ts'))).toBe('docs/examples/primes.ts');
  });
});
