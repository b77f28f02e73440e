// Physics, not self-consistency: on every runtime, the p99 ≤ 100 ms capacity of
// /sleep/sync?ms=20 under Poisson arrivals lies within 15 % of the M/D/1 capacity, computed by
// Lindley's recursion over many simulated arrivals from the server's own service time: how long a
// request holds it, from its throughput when saturated (the route's /stats avgMs plus the HTTP
// handling around it), with what a response costs outside the queue (the mean response at
// 10 req/s less that service time) added to every latency. Shown with two short steps decided by the same rule
// as the capacity search (an exact Clopper-Pearson bound at 95 % on the share of requests over
// 100 ms, step-decision.ts): at 0.85 x the predicted capacity the data must not show the target
// missed, at 1.15 x they must show it missed. A server much slower than M/D/1 says fails the
// first; one much faster fails the second.
//
// Why two fixed steps and not the search: near capacity the share over the target changes slowly
// with the rate (M/D/1 at 20.5 ms: 0.33 % at 0.85 x, 1 % at 1 x, 2.7 % at 1.15 x), so proving a
// pass at 0.85 x takes 299 requests with none over (13 s a runtime, and a single slow one undoes
// it): the search's own brackets (docs/load-curves.md) do that in a real run. Both steps use one
// seeded schedule of 250 arrivals, scaled to the rate, chosen by Lindley's recursion on those very
// arrivals at the measured service time as the first seed that sits clearly on each side of the
// target (p99 ≤ 75 ms at 0.85 x; at 1.15 x enough requests over 125 ms to be a miss by the step's
// own rule), so a pass is not luck of the draw. Why not
// "measured p99 ≤ 100 ms" on 250 requests: that is the third-slowest request, one slow request
// away from a fail, on a rule stricter than the capacity's own. Why not the route's avgMs as the
// service time (as it once was): it leaves the HTTP handling out, about a millisecond a
// request on a busy 2-core VM, and measured p99s ran up to 26 ms above Lindley's (Bun
// 92-101 ms at 0.85 x): a Bun step at 0.85 x failed in CI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles, type RuntimeName } from '@bench/app';
import { arrivalOffsets } from '../../src/load/arrivals.ts';
import { Generator, type StepOptions } from '../../src/load/generator.ts';
import { generatorBound } from '../../src/curve/step.ts';
import type { StepDecisionOptions } from '../../src/load/generator-types.ts';
import { decide, type DecisionRule } from '../../src/stats/step-decision.ts';
import { md1CapacityPerSec, lindleyLatenciesMs } from '../../src/curve/ladder.ts';
import { probeRuntime, runtimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers } from '../../src/servers/server.ts';
import { queueService, SEEDS_ONLY } from './helpers.ts';

const TARGET_MS = 100;
const REQUESTS = 250;
/** How clearly the schedule itself must sit on each side of the target (Lindley, at the measured service time). */
const MARGIN = 0.25;
const SEEDS_TRIED = 2000;
/** The rule every step is decided by: the capacity search's own. */
const RULE: DecisionRule = { percentile: 99, confidence: 0.95 };
const generator = new Generator();
// The servers refuse to start without the file scenario's inputs: a small set of them.
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-physics-'));
  generateDataFiles(dataDir, 2, 4096);
});

afterAll(async () => {
  await generator.close();
  await stopAllServers();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The value at the 99th percentile of these latencies, as the generator's histogram reads it. */
function p99(latencies: readonly number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.ceil(0.99 * sorted.length) - 1] ?? 0;
}

/** The server as the queue sees it: service time per request, and what each response costs outside the queue. */
interface Service {
  serviceMs: number;
  outsideMs: number;
}

/** Lindley's latencies for REQUESTS Poisson arrivals of this seed at `rate`, plus what does not queue. */
const scheduleLatencies = (rate: number, seed: number, { serviceMs, outsideMs }: Service) =>
  lindleyLatenciesMs(arrivalOffsets(rate, REQUESTS / rate, 'poisson', seed), serviceMs).map((ms) => ms + outsideMs);
const scheduleP99 = (rate: number, seed: number, service: Service) => p99(scheduleLatencies(rate, seed, service));

/**
 * The first seed whose schedule sits MARGIN clear of the target on each side (see the top of the
 * file). Over it, a p99 past 125 ms is not enough: that can be 3 requests of 250, and the step's
 * rule needs about 6 over the target to call a miss at 95 %. Seed 93 had a Lindley p99 of 129 ms
 * with only 6 requests over 100 ms, and a real Deno server, a little faster, gave 3 of 235: an
 * undecided step (in CI). So the requests Lindley puts over 125 ms must by
 * themselves be a miss by the step's own rule.
 */
function discriminatingSeed(predicted: number, service: Service): number {
  for (let seed = 1; seed <= SEEDS_TRIED; seed++) {
    if (scheduleP99(predicted * 0.85, seed, service) > (1 - MARGIN) * TARGET_MS) continue;
    const over = scheduleLatencies(predicted * 1.15, seed, service).filter((ms) => ms > (1 + MARGIN) * TARGET_MS).length;
    if (decide(REQUESTS, over, RULE).outcome === 'fail') return seed;
  }
  throw new Error(
    `no seed of ${SEEDS_TRIED} gives a schedule ${MARGIN * 100} % clear of ${TARGET_MS} ms on both sides at ${service.serviceMs} ms of service`,
  );
}

describe.each(['node', 'bun', 'deno'] as RuntimeName[])('M/D/1 capacity of /sleep/sync?ms=20 on %s', (runtime) => {
  const spec = runtimeSpec(runtime);
  const available = probeRuntime(spec).ok;
  it.runIf(available)('p99 within 100 ms at 0.85 x the predicted capacity, over it at 1.15 x', async () => {
    const server = await startServer(spec, { raw: false, serverArgs: ['--data-dir', dataDir, ...SEEDS_ONLY] });
    try {
      const url = `${server.url}/sleep/sync?ms=20`;
      const step = (ratePerSec: number, durationSec: number, seed: number, extra: Partial<StepOptions> = {}) =>
        generator.runStep({ url, ratePerSec, durationSec, arrivals: 'poisson', seed, maxInFlight: 512, timeoutMs: 5000, ...extra });
      // Warm, then the route's time as the server measured it (how long its handler held the
      // loop), the service time from a saturating step, and what a response costs outside the
      // queue (queueService in helpers.ts).
      await step(10, 0.5, 1);
      const { routeMs, serviceMs, outsideMs } = await queueService(
        server.url,
        '/sleep/sync',
        (rate, sec) => step(rate, sec, 1, { arrivals: 'constant' }),
        1.5,
      );
      expect(routeMs).toBeGreaterThanOrEqual(20);
      // Physics: one request at a time cannot be served faster than the handler runs. The handler's
      // time comes from an idle step, where a blocking 20 ms wait overshoots by more than on a busy
      // core: it read 1 to 3.3 % over the saturated service time on Bun and Deno, hence 5 %.
      expect(serviceMs).toBeGreaterThanOrEqual(routeMs * 0.95);
      const service: Service = { serviceMs, outsideMs };
      // The p99 target of the whole response is the queue's target less what does not queue.
      const predicted = md1CapacityPerSec(serviceMs, TARGET_MS - service.outsideMs, 99);
      const seed = discriminatingSeed(predicted, service);
      const rows: { factor: number; within: boolean; schedule: number; m: Awaited<ReturnType<typeof step>> }[] = [];
      for (const [factor, within] of [
        [0.85, true],
        [1.15, false],
      ] as const) {
        const rate = predicted * factor;
        // The same schedule at every rate: REQUESTS Poisson arrivals, in units of 1 / rate.
        const durationSec = REQUESTS / rate;
        const schedule = scheduleP99(rate, seed, service);
        // Decided as the search decides a step; minSec = the whole schedule, so a step stops
        // early only on a fail (a pass needs more requests than the schedule has).
        const decision: StepDecisionOptions = { targetMs: TARGET_MS, ...RULE, minSec: durationSec, checkEveryMs: 100 };
        // A step the generator itself fell behind on (a stall of the VM: lateness p99 of 97 ms once
        // in CI, 7 of 241 over at 0.85x on Deno) says nothing about the server, as the
        // search says of such a fail ("capacity may be higher"): run again, at most twice.
        const asExpected = (outcome: string | undefined) => (within ? outcome !== 'fail' : outcome === 'fail');
        let m = await step(rate, durationSec, seed, { decide: decision });
        for (let retry = 0; retry < 2 && !asExpected(m.verdict?.outcome) && generatorBound(m); retry++) {
          console.log(
            `${runtime}: ${factor} x was generator-bound (lateness p99 ${m.latenessMs.p99} ms, ${m.verdict?.overTarget} of ${m.verdict?.requests} over): run again`,
          );
          m = await step(rate, durationSec, seed, { decide: decision });
        }
        rows.push({ factor, within, schedule, m });
        const v = m.verdict;
        console.log(
          `${runtime}: service ${serviceMs.toFixed(2)} ms saturated (route ${routeMs} ms, ${service.outsideMs.toFixed(1)} ms outside the queue), M/D/1 capacity at p99 ≤ ${TARGET_MS} ms ${predicted.toFixed(1)} req/s; ${factor} x = ${rate.toFixed(1)} req/s: ${v?.outcome} (${v?.overTarget} of ${v?.requests} over ${TARGET_MS} ms, share in [${((v?.lowerBound ?? 0) * 100).toFixed(2)}, ${((v?.upperBound ?? 0) * 100).toFixed(2)}] %), measured p99 ${m.latencyMs.p99} ms (Lindley on this schedule, seed ${seed}: ${schedule.toFixed(1)} ms), lateness p99 ${m.latenessMs.p99} ms`,
        );
      }
      for (const { within, schedule, m } of rows) {
        // The schedule itself must discriminate, or the test would prove nothing.
        expect(within ? schedule <= (1 - MARGIN) * TARGET_MS : schedule >= (1 + MARGIN) * TARGET_MS).toBe(true);
        expect(m.errors + m.timeouts + m.dropped).toBe(0);
        // Within: the data do not show the target missed. Over: they show it.
        if (within) expect(m.verdict?.outcome).not.toBe('fail');
        else expect(m.verdict?.outcome).toBe('fail');
      }
    } finally {
      await server.stop();
    }
  });
});
