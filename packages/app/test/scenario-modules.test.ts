import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, generateDataFiles, loadScenarios, type AppConfig, type BenchApp } from '../src/index.ts';
import { testAppConfig } from './test-config.ts';

// The example module docs/your-own-code.md shows: this test serves that very file.
const EXAMPLE = fileURLToPath(new URL('../../../docs/examples/primes.ts', import.meta.url));
let dir: string;
let app: BenchApp;

const config = (overrides: Partial<AppConfig> = {}): AppConfig => testAppConfig(dir, overrides);

function moduleFile(file: string, text: string): string {
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-modules-'));
  generateDataFiles(dir, 2, 1000);
  app = await createApp(config({ scenarioFiles: [EXAMPLE] }));
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a module of the user's own", () => {
  it.each(['sync', 'async', 'worker'])('is served at /primes/%s with the same answer', async (mode) => {
    const res = await app.request(`/primes/${mode}?n=100`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 100, primes: 25 });
    expect(await (await app.request(`/primes/${mode}`)).json()).toEqual({ n: 200000, primes: 17984 });
  });

  it('a RangeError from its input() is a 400 JSON naming the bound', async () => {
    for (const path of ['/primes/sync?n=1', '/primes/worker?n=9999999999', '/primes/async?n=x']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(((await res.json()) as { error: string }).error).toMatch(/^n must be an integer from 2 to 5000000, got "/);
    }
  });

  it('is counted in /stats like any route', async () => {
    await app.request('/reset', { method: 'POST' });
    await app.request('/primes/worker?n=1000');
    const stats = (await (await app.request('/stats')).json()) as { routes: Record<string, { count: number }> };
    expect(stats.routes['/primes/worker']?.count).toBe(1);
  });

  it('without async, has no /async route; an error in sync() is a 500 naming it', async () => {
    const plain = moduleFile(
      'plain.mjs',
      "export const name = 'plain'; export const description = 'x';\nexport function sync(i) { if (i === 'boom') throw new Error('boom'); return { ok: true }; }\nexport function input(q) { return q.get('x') ?? 'fine'; }\n",
    );
    // Only the module under test is set up (the built-ins' setup is start-up these tests do not need).
    const other = await createApp(config({ scenarioFiles: [plain], scenarios: ['plain'], workerPoolSize: 1 }));
    try {
      expect(await (await other.request('/plain/worker')).json()).toEqual({ ok: true });
      expect((await other.request('/plain/async')).status).toBe(404);
      const promised = moduleFile(
        'promised.mjs',
        "export const name = 'promised'; export const description = 'x';\nexport async function sync() { return 1; }\n",
      );
      const third = await createApp(config({ scenarioFiles: [promised], scenarios: ['promised'], workerPoolSize: 1 }));
      const refused = await third.request('/promised/sync');
      await third.close();
      expect(refused.status).toBe(500);
      expect(((await refused.json()) as { error: string }).error).toMatch(/promised: sync\(\) returned a promise/);
      const failed = await other.request('/plain/worker?x=boom');
      expect(failed.status).toBe(500);
      expect(((await failed.json()) as { error: string }).error).toMatch(/boom/);
    } finally {
      await other.close();
    }
  });
});

describe('a module the server refuses', () => {
  it.each<[string, string, RegExp]>([
    [
      'bad-name.mjs',
      "export const name = 'No'; export const description = 'x'; export function sync() {}\n",
      /bad-name\.mjs: name "No" does not match/,
    ],
    [
      'no-sync.mjs',
      "export const name = 'nosync'; export const description = 'x';\n",
      /no-sync\.mjs: export function sync\(input\) is missing/,
    ],
    [
      'clash.mjs',
      "export const name = 'hash'; export const description = 'x'; export function sync() {}\n",
      /clash\.mjs: name "hash" is already taken by a built-in scenario/,
    ],
    [
      'throws.mjs',
      "export const name = 'throws'; export const description = 'x'; export function sync() {}\nexport function setup() { throw new Error('no database'); }\n",
      /throws\.mjs: setup\(\) threw: no database/,
    ],
  ])('%s: one line naming the file and the rule', async (file, text, message) => {
    await expect(createApp(config({ scenarioFiles: [moduleFile(file, text)] }))).rejects.toThrow(message);
  });
});

describe('the built-ins a server imports', () => {
  it('are only those it serves: each built-in module is named as its file', async () => {
    const every = await loadScenarios();
    for (const s of every) expect(basename(s.file)).toBe(`${s.module.name}.ts`);
    expect((await loadScenarios([], ['sleep', 'fib'])).map((s) => s.module.name)).toEqual(
      every.map((s) => s.module.name).filter((name) => name === 'sleep' || name === 'fib'),
    );
    expect(await loadScenarios([], [])).toEqual([]);
  });

  it('still refuses a user module named as a built-in it does not serve', async () => {
    const clash = moduleFile(
      'clash-unserved.mjs',
      "export const name = 'hash'; export const description = 'x'; export function sync() {}\n",
    );
    await expect(createApp(config({ scenarios: ['fib'], scenarioFiles: [clash] }))).rejects.toThrow(
      /clash-unserved\.mjs: name "hash" is already taken by a built-in scenario/,
    );
  });
});
