/**
 * A delay added on the link between the two hosts (tc netem) shows in the figures: the round
 * trip the harness measures and the latencies of a one-connection load. Its own file because it
 * compares timings, so it runs alone (the other remote tests share the machine); skipped, saying
 * why, where the kernel has no sch_netem or two hosts cannot be built.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hosts, netemUnavailable, runBenchThere, unavailable, withTwoHosts } from './remote-there.ts';

const netemMissing = unavailable ?? netemUnavailable();
if (unavailable === undefined && netemMissing !== undefined) console.warn(`remote netem test SKIPPED: ${netemMissing}`);

describe.skipIf(netemMissing !== undefined)('servers on another host, over a slower link', () => {
  withTwoHosts();

  it('tc netem delay 1 ms on the link: the measured round trip and /hello p50 rise by about the delay', () => {
    // One connection: each request then pays the round trip once, and p50 moves with it.
    const args = [
      ...['--runtimes', 'node', '--scenarios', 'hello', '--modes', 'baseline', '--connections', '1'],
      ...['--runs', '1', '--duration', '1.5', '--warmup', '0.3', '--warmup-max', '0.3', '--probe-rate', '200'],
    ];
    const before = runBenchThere(args);
    const netem = ['-n', hosts().serverNs, 'qdisc', '%', 'dev', hosts().serverDev, 'root'];
    const add = spawnSync('tc', [...netem.map((a) => (a === '%' ? 'add' : a)), 'netem', 'delay', '1ms'], { encoding: 'utf8' });
    expect(add.status, add.stderr).toBe(0);
    let after: ReturnType<typeof runBenchThere>;
    try {
      after = runBenchThere(args);
    } finally {
      spawnSync(
        'tc',
        netem.map((a) => (a === '%' ? 'del' : a)),
      );
    }
    expect(before.status, before.stderr).toBe(0);
    expect(after.status, after.stderr).toBe(0);
    const rtt = (r: typeof before) => r.report?.environment.network?.rttMs ?? { min: NaN, median: NaN };
    const cell = (r: typeof before) => r.report?.results[0];
    const figures = {
      rttMin: [rtt(before).min, rtt(after).min],
      rttMedian: [rtt(before).median, rtt(after).median],
      p50: [cell(before)?.latencyMs.p50, cell(after)?.latencyMs.p50],
      probeP50: [cell(before)?.probeLatencyMs.p50, cell(after)?.probeLatencyMs.p50],
    };
    console.log(`netem 1 ms: ${JSON.stringify(figures)}`);
    // The fastest round trip is the path's own (the median carries this busy machine's noise).
    expect(rtt(after).min - rtt(before).min).toBeGreaterThan(0.7);
    expect(rtt(after).min - rtt(before).min).toBeLessThan(2.5);
    // autocannon's latencies are whole milliseconds: 1 ms more is one step up (or two, rounding).
    const p50Rise = (cell(after)?.latencyMs.p50 ?? NaN) - (cell(before)?.latencyMs.p50 ?? NaN);
    expect(p50Rise).toBeGreaterThanOrEqual(0.5);
    expect(p50Rise).toBeLessThanOrEqual(2.5);
    const probeRise = (cell(after)?.probeLatencyMs.p50 ?? NaN) - (cell(before)?.probeLatencyMs.p50 ?? NaN);
    expect(probeRise).toBeGreaterThan(0.5);
    expect(probeRise).toBeLessThan(3);
  }, 250_000);
});
