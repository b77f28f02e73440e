import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inputOf, MODULES, QUERIES, SQLITE_LOADS } from './catalogue-modules.ts';

const SCENARIOS = new URL('../src/scenarios/', import.meta.url);

describe.each(Object.entries(MODULES))('catalogue scenario %s', (file, mod) => {
  const runs = file !== 'sqlite' || SQLITE_LOADS;

  it('keeps the contract: a route name that is its file name, a one-line description, sync', () => {
    expect(mod.name).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(mod.name).toBe(basename(fileURLToPath(new URL(`${file}.ts`, SCENARIOS)), '.ts'));
    expect(mod.description).toMatch(/^[^\n]{10,140}$/);
    expect(typeof mod.sync).toBe('function');
    for (const optional of ['async', 'input', 'setup'] as const) {
      expect(['undefined', 'function']).toContain(typeof mod[optional]);
    }
  });

  it.skipIf(!runs).each(QUERIES[file]!)('gives one JSON answer for "?%s" in every mode, every time', async (query) => {
    await mod.setup?.();
    const input = inputOf(mod, query);
    const answer = mod.sync(input);
    // The worker mode sends input and answer between threads, the server sends it as JSON.
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
    expect(structuredClone(answer)).toEqual(answer);
    expect(mod.sync(inputOf(mod, query))).toEqual(answer);
    if (mod.async !== undefined) expect(await mod.async(input)).toEqual(answer);
  });

  it.runIf(mod.input !== undefined)('ignores a parameter it does not know', () => {
    expect(inputOf(mod, 'unrelated=1')).toEqual(inputOf(mod, ''));
  });
});
