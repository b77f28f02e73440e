/**
 * Every scenario's worst allowed query completes: the bounds are what keep one request from
 * holding a server for many seconds. The time limits here are hang guards, never benchmarks:
 * the costs themselves are measured by hand and written down in docs/endpoints.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDS, createApp, DEFAULTS, fibMemo, generateDataFiles, type BenchApp } from '../src/index.ts';
import { inputOf, MODULES, SQLITE_LOADS, WORST } from './catalogue-modules.ts';

const HANG_GUARD_MS = 10_000;
let dataDir: string;
let app: BenchApp;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bounded-cost-'));
  generateDataFiles(dataDir, 1, 1024);
  app = await createApp({
    ...DEFAULTS,
    runtime: 'node',
    version: '20.0.0-test',
    pid: 4242,
    dataDir,
    hashCost: BOUNDS.hashCost.max,
    workerUrl: new URL('./scenario-worker-tsx.mjs', import.meta.url),
    // The routes called through the app; each catalogue module is set up and called directly below.
    scenarios: ['fib', 'sleep', 'hash'],
  });
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function get(path: string) {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * The corners of /fib's joint bounds, each with the step past it that must be refused: the most
 * async calls at the largest n and at full depth, seed 002's memo as written, the busy spin at
 * its largest exponent and with the most async calls besides.
 */
const FIB_CORNERS: Array<[worst: string, pastIt: string, bound: RegExp]> = [
  ['n=32&variant=plain&depth=16', 'n=32&variant=plain&depth=17', /makes 262109 async calls, over the bound of 250000 async calls/],
  ['n=25&variant=plain&depth=32', 'n=26&variant=plain&depth=32', /n=26 with depth=32 makes 392835 async calls.*n may be at most 25/],
  ['n=25&variant=memo-late', 'n=26&variant=memo-late', /n=26 with variant=memo-late makes 392835 async calls/],
  [
    'n=21&variant=busy&exp=6&depth=32',
    'n=22&variant=busy&exp=6&depth=32',
    /spins 113379904 times \(n \*\* exp\), over the bound of 100000000: with these, n may be at most 21/,
  ],
  ['n=32&variant=busy&exp=5&depth=16', 'n=32&variant=busy&exp=5&depth=17', /over the bound of 250000 async calls/],
  ['n=78&variant=memo', 'n=79&variant=memo', /n must be from 0 to 78/],
];

describe('the worst allowed query of each scenario completes', () => {
  it.each(FIB_CORNERS)('/fib/{sync,async,worker}?%s answers; ?%s is refused', { timeout: HANG_GUARD_MS }, async (worst, pastIt, bound) => {
    const n = Number(new URLSearchParams(worst).get('n'));
    for (const mode of ['sync', 'async', 'worker']) {
      const { status, body } = await get(`/fib/${mode}?${worst}`);
      expect([status, body.value]).toEqual([200, fibMemo(n)]);
      const refused = await get(`/fib/${mode}?${pastIt}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(bound);
    }
  });

  it('a default n is never refused: it is lowered to the largest the other parameters allow', async () => {
    for (const query of ['variant=memo-late', 'variant=busy&exp=6', 'depth=32']) {
      const { status, body } = await get(`/fib/async?${query}`);
      expect(status).toBe(200);
      expect(body.n).toBeLessThan(DEFAULTS.fibN);
    }
  });

  it.each(['sync', 'async'])('%s: /sleep at the longest wait, /hash at the highest cost', { timeout: HANG_GUARD_MS }, async (mode) => {
    expect((await get(`/sleep/${mode}?ms=${BOUNDS.sleepMs.max}`)).status).toBe(200);
    expect(await get(`/hash/${mode}`)).toMatchObject({ status: 200, body: { cost: BOUNDS.hashCost.max } });
  });

  const worstInputs = Object.entries(WORST).flatMap(([file, queries]) => queries.map((query) => [file, query] as const));
  it.for(worstInputs)('catalogue %s at ?%s', { timeout: HANG_GUARD_MS }, async ([file, query], { skip }) => {
    skip(file === 'sqlite' && !SQLITE_LOADS, 'node:sqlite does not load on the Node running the tests');
    const mod = MODULES[file]!;
    await mod.setup?.();
    expect(mod.sync(inputOf(mod, query))).toBeTypeOf('object');
  });
});
