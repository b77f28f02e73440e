// The open-loop generator held against queueing theory, not against itself: a 20 ms timer
// server answers in a little over 20 ms and keeps up; a server that serves one request at a time
// for 20 ms (capacity 50 req/s) queues Poisson arrivals as M/D/1 says, and cannot go past 50 req/s;
// a rate past the in-flight cap is flagged saturated, with its drops counted. Latency counts from
// the scheduled send time. `bench:curve` end to end, which compares no timing, is curve-cli.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { arrivalOffsets } from '../../src/load/arrivals.ts';
import { Generator, type StepOptions } from '../../src/load/generator.ts';
import { lindleyMeanMs, md1MeanMs } from '../../src/curve/ladder.ts';
import { generatorBound, toStep } from '../../src/curve/step.ts';
import { runtimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers, type RunningServer } from '../../src/servers/server.ts';
import { isAlive, processesMentioning, queueService, saturatedServiceMs, SEEDS_ONLY } from './helpers.ts';

let dataDir: string;
let server: RunningServer;
let generator: Generator;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-curve-'));
  generateDataFiles(dataDir, 2, 4096);
  server = await startServer(runtimeSpec('node'), { raw: false, serverArgs: ['--data-dir', dataDir, ...SEEDS_ONLY] });
  generator = new Generator();
});

afterAll(async () => {
  const pid = generator.pid;
  await generator.close();
  await stopAllServers();
  if (pid !== undefined) expect(isAlive(pid)).toBe(false);
  expect(processesMentioning(dataDir)).toEqual([]);
  rmSync(dataDir, { recursive: true, force: true });
});

const step = (path: string, ratePerSec: number, durationSec: number, extra: Partial<StepOptions> = {}) =>
  generator.runStep({
    url: server.url + path,
    ratePerSec,
    durationSec,
    arrivals: 'constant',
    seed: 1,
    maxInFlight: 512,
    timeoutMs: 5000,
    ...extra,
  });

describe('the generator against queueing theory (node)', () => {
  it('a 20 ms timer at 20 req/s: p50 not under the timer, achieved = offered within 1 %', async () => {
    await step('/sleep/async?ms=20', 20, 0.3);
    const m = await step('/sleep/async?ms=20', 20, 3);
    expect(m).toMatchObject({ scheduled: 60, sent: 60, completed: 60, dropped: 0, errors: 0, timeouts: 0 });
    // Latency counts from the scheduled send: never less than the timer (how far above it is
    // the machine's business, not this test's).
    expect(m.latencyMs.p50).toBeGreaterThanOrEqual(20);
    expect(Math.abs(m.achievedPerSec / 20 - 1)).toBeLessThan(0.01);
  });

  it('one request at a time for 20 ms, Poisson at 35 req/s: mean response within 15 % of the exact queue for these arrivals (Lindley), at the service times the server showed when saturated before and after', async () => {
    // The route's own time as the server measured it (how long the handler held the loop), then
    // the service time the queue is about: how long each request holds the server, HTTP handling
    // included, from its throughput when it is never idle; and what a response costs outside the
    // queue (the client's sending and reading, the loopback): at 10 req/s nothing waits
    // (queueService in helpers.ts).
    const { routeMs, serviceMs, outsideMs } = await queueService(
      server.url,
      '/sleep/sync',
      (rate, sec) => step('/sleep/sync?ms=20', rate, sec),
      2,
    );
    expect(routeMs).toBeGreaterThanOrEqual(20);
    // Physics: a server that handles one request at a time cannot serve faster than its handler runs.
    expect(serviceMs).toBeGreaterThanOrEqual(routeMs * 0.99);
    const offsets = arrivalOffsets(35, 8, 'poisson', 1);
    // The schedule is a fair Poisson draw: at exactly 20 ms its queue is M/D/1's (43.3 ms).
    expect(md1MeanMs(35, 20)).toBeCloseTo(43.33, 2);
    expect(Math.abs(lindleyMeanMs(offsets, 20) / md1MeanMs(35, 20) - 1)).toBeLessThan(0.1);
    // The service time again, right after each step: on a VM whose speed moves, the 8 s between
    // the two readings can move it by a few percent, and the queue's wait moves four times as much.
    // The exact queue for these very arrivals at the saturated service times (Lindley's
    // recursion), plus what does not queue. At 75 % load the wait is steep in the service time
    // (20 ms gives 43 ms, 21.5 ms 54 ms): the route's avgMs alone left the mean 15-35 % short.
    const exact = (service: number) => lindleyMeanMs(offsets, service) + outsideMs;
    const measure = async () => {
      const m = await step('/sleep/sync?ms=20', 35, 8, { arrivals: 'poisson', seed: 1 });
      const afterMs = await saturatedServiceMs((rate, sec) => step('/sleep/sync?ms=20', rate, sec), routeMs);
      const [fast, slow] = [Math.min(serviceMs, afterMs), Math.max(serviceMs, afterMs)];
      return { m, afterMs, fast, slow, held: m.latencyMs.mean > exact(fast) * 0.85 && m.latencyMs.mean < exact(slow) * 1.15 };
    };
    let run = await measure();
    // A step the generator itself fell behind on (lateness p99 of 13 ms once in CI, the mean 30 %
    // over) says nothing of the queue, as the capacity search says of such a step: run again, at
    // most twice. A generator whose schedule or clock is wrong misses on every try.
    for (let retry = 0; retry < 2 && !run.held && generatorBound(run.m); retry++) {
      console.log(`M/D/1 35 req/s: generator-bound (lateness p99 ${run.m.latenessMs.p99} ms, mean ${run.m.latencyMs.mean} ms): run again`);
      run = await measure();
    }
    const { m, afterMs, fast, slow } = run;
    console.log(
      `M/D/1 35 req/s: measured mean ${m.latencyMs.mean} ms; Lindley for this schedule ${exact(fast).toFixed(1)}-${exact(slow).toFixed(1)} ms (service ${serviceMs.toFixed(2)} ms saturated before, ${afterMs.toFixed(2)} ms after, route ${routeMs} ms; ${outsideMs.toFixed(1)} ms outside the queue); M/D/1 at the first ${md1MeanMs(35, serviceMs).toFixed(1)} ms; lateness p99 ${m.latenessMs.p99} ms`,
    );
    expect(m.completed).toBe(m.scheduled);
    expect(m.latencyMs.mean).toBeGreaterThan(exact(fast) * 0.85);
    expect(m.latencyMs.mean).toBeLessThan(exact(slow) * 1.15);
  }, 90_000); // three tries of about 11 s (the step and the saturated reading after it), and queueService

  it('at 60 req/s it serves about 50 and the step is marked saturated', async () => {
    const m = await step('/sleep/sync?ms=20', 60, 3);
    expect(m.achievedPerSec).toBeGreaterThan(40);
    expect(m.achievedPerSec).toBeLessThan(51);
    // The queue grows by 10 req/s: the last requests waited most of a second.
    expect(m.latencyMs.max).toBeGreaterThan(500);
    const flags = toStep(60, m, { cpuPercent: 0 }, 100).flags;
    expect(flags).toContain('saturated');
    expect(toStep(60, m, { cpuPercent: 0 }, 100).meetsTarget).toBe(false);
  });

  // 200,000 req/s with 64 in flight: far past what the server answers. The raw-socket generator
  // drops what is due while the cap is out at almost no cost, so it may well stay on schedule:
  // then the step is saturated (the server's doing), not generator-bound. Whichever it was, the
  // flags say it, and nothing is credited to the server.
  it('a rate past the in-flight cap is flagged saturated (and generator-bound when the generator fell behind), and what it could not send is counted as dropped', async () => {
    const m = await step('/hello', 200_000, 0.5, { maxInFlight: 64 });
    expect(m.dropped).toBeGreaterThan(0);
    expect(m.sent + m.dropped).toBe(m.scheduled);
    const flags = toStep(200_000, m, { cpuPercent: 0 }, 100).flags;
    expect(flags).toContain('saturated');
    expect(flags.includes('generator-bound')).toBe(generatorBound(m));
  });
});
