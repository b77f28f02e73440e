// The calibration on a real server (raw Bun, the fastest to start) in its shortest form, with
// wrk: both clients measure, the ratio is recorded, a deliberately tiny client is called
// client-bound. These compare the two clients' rates, so the file runs in the serial group; the
// calibration's paths that compare no rate (without wrk, interrupted, its command line) are
// calibrate-cli.test.ts, in the shared group.
import { afterAll, describe, expect, it } from 'vitest';
import { calibrate } from '../../src/calibrate/calibrate.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { findWrk, missingWrkReason } from '../../src/load/wrk.ts';
import { isAlive, processTree, SHORT_CALIBRATION as SHORT } from './helpers.ts';

// In CI wrk is installed: a missing wrk there fails these tests instead of skipping them.
const skipWrk = findWrk() === undefined && process.env.CI === undefined;
if (skipWrk) console.warn(`calibrate.test.ts: skipping the tests that need wrk: ${missingWrkReason()}`);
const requireWrk = () => expect(findWrk(), `wrk is required when CI is set: ${missingWrkReason()}`).toBeDefined();

/** What this test process started and is still running: servers, wrk (worker threads are not processes). */
const children = () => processTree(process.pid).filter((pid) => pid !== process.pid && isAlive(pid));

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
