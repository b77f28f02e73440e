// The calibration on a real server (raw Bun, the fastest to start) in its shortest form: both
// clients measure, the ratio is recorded, a deliberately tiny client is called client-bound,
// and without wrk the autocannon figures stand alone with the reason.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { calibrate, type CalibrateOptions } from '../../src/calibrate/calibrate.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { findWrk, missingWrkReason } from '../../src/load/wrk.ts';
import { isAlive, processTree } from './helpers.ts';

const SHORT: CalibrateOptions = {
  runtimes: ['bun'],
  servers: ['raw'],
  durationSec: 0.5,
  runs: 1,
  connections: [10],
  autocannonWorkers: [0],
  wrkThreads: 2,
  wrkConnections: 50,
  warmupSec: 0.2,
};

// In CI wrk is installed: a missing wrk there fails these tests instead of skipping them.
const skipWrk = findWrk() === undefined && process.env.CI === undefined;
if (skipWrk) console.warn(`calibrate.test.ts: skipping the tests that need wrk: ${missingWrkReason()}`);
const requireWrk = () => expect(findWrk(), `wrk is required when CI is set: ${missingWrkReason()}`).toBeDefined();
const userWrkBin = process.env.BENCH_WRK_BIN;

/** What this test process started and is still running: servers, wrk (worker threads are not processes). */
const children = () => processTree(process.pid).filter((pid) => pid !== process.pid && isAlive(pid));

afterEach(() => {
  if (userWrkBin === undefined) delete process.env.BENCH_WRK_BIN;
  else process.env.BENCH_WRK_BIN = userWrkBin;
});
afterAll(async () => {
  await stopAllServers();
});

describe.skipIf(skipWrk)('with wrk', () => {
  it("records both clients' requests/s and their ratio, and stops the server", async () => {
    requireWrk();
    const lines: string[] = [];
    const result = await calibrate({ ...SHORT, progress: (line) => lines.push(line) });
    expect(result.status).toBe('complete');
    expect(result.wrk.available).toBe(true);
    // wrk runs whole seconds, so both clients ran 1 s.
    expect(result.parameters).toMatchObject({ requestedDurationSec: 0.5, durationSec: 1 });
    const [bun] = result.results;
    expect(bun).toMatchObject({ runtime: 'bun', server: 'raw', status: 'ok' });
    const [only] = bun?.settings ?? [];
    expect(only?.autocannon.median).toBeGreaterThan(0);
    expect(only?.autocannon.clientCpuPercent).toBeGreaterThan(0);
    expect(only?.wrk?.median).toBeGreaterThan(0);
    expect(only?.ratio).toBeGreaterThan(0);
    expect(only?.ratio).toBeLessThan(2);
    expect(bun?.best?.ratio).toBe(only?.ratio);
    expect(typeof bun?.best?.ceilingOk).toBe('boolean');
    expect(result.closest?.setting).toEqual({ connections: 10, workers: 0 });
    expect(lines.some((l) => /bun raw 10 conn, in-process run 1\/1: autocannon .* wrk .*ratio/.test(l))).toBe(true);
    expect(children()).toEqual([]);
  });

  it('calls a one-connection autocannon client-bound, well below 0.9 of wrk', async () => {
    requireWrk();
    const result = await calibrate({ ...SHORT, connections: [1] });
    const best = result.results[0]?.best;
    expect(best?.setting).toEqual({ connections: 1, workers: 0 });
    expect(best?.ratio).toBeGreaterThan(0);
    // One request at a time against wrk's 50: a fraction of the rate, whatever the machine.
    expect(best?.ratio).toBeLessThan(0.7);
    expect(best?.ceilingOk).toBe(false);
    expect(best?.text).toMatch(/^client-bound: autocannon reaches 0\.\d\d of wrk$/);
  });
});

describe('without wrk', () => {
  it('records autocannon figures only, no ratio, and says why', async () => {
    process.env.BENCH_WRK_BIN = '/nonexistent/wrk';
    const result = await calibrate(SHORT);
    expect(result.wrk).toEqual({ available: false, reason: 'BENCH_WRK_BIN=/nonexistent/wrk is not an executable file' });
    // No wrk to match: autocannon runs the duration asked.
    expect(result.parameters.durationSec).toBe(0.5);
    const bun = result.results[0];
    expect(bun?.status).toBe('ok');
    expect(bun?.reason).toMatch(/BENCH_WRK_BIN/);
    expect(bun?.settings[0]?.autocannon.median).toBeGreaterThan(0);
    expect(bun?.settings[0]?.wrk).toBeNull();
    expect(bun?.best).toMatchObject({ ratio: null, ceilingOk: null, text: expect.stringMatching(/^ceiling unknown: BENCH_WRK_BIN/) });
    expect(result.closest).toBeNull();
  });
});

describe('interruption', () => {
  it('an abort mid-run ends with status interrupted, the server stopped', async () => {
    process.env.BENCH_WRK_BIN = '/nonexistent/wrk';
    const controller = new AbortController();
    const started = Date.now();
    const run = calibrate({
      ...SHORT,
      durationSec: 20,
      signal: controller.signal,
      progress: () => {},
    });
    setTimeout(() => controller.abort(new Error('interrupted by test')), 2_500);
    const result = await run;
    expect(result.status).toBe('interrupted');
    expect(result.results).toEqual([]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(children()).toEqual([]);
  });
});
