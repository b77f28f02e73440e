// Latency percentiles from the harness's own per-request times: microseconds in, milliseconds out
// at microsecond precision, so a sub-millisecond answer never reads 0.
import { encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { addEncoded } from '../src/stats/encoded-histogram.ts';
import { latencyHistogram, percentileMs, percentilesMs, recordMs } from '../src/stats/latency-histogram.ts';

function filled(values: readonly [ms: number, count: number][]) {
  const h = latencyHistogram();
  for (const [ms, count] of values) for (let i = 0; i < count; i++) recordMs(h, ms);
  return h;
}

describe('latency histogram', () => {
  it('keeps sub-millisecond percentiles to the microsecond', () => {
    // 989 answers at 143 µs, 10 at 1.5 ms, one at 25 ms.
    const h = filled([
      [0.143, 989],
      [1.5, 10],
      [25, 1],
    ]);
    expect(percentilesMs(h)).toEqual({ p50: 0.143, p90: 0.143, p99: 1.5, p999: 1.5, max: 25, mean: 0.181 });
  });

  it('rounds to whole microseconds and counts anything faster than 1 µs as 1 µs', () => {
    const h = filled([
      [0.0004, 1],
      [0.1426, 1],
    ]);
    expect(percentileMs(h, 0)).toBe(0.001);
    expect(percentileMs(h, 100)).toBe(0.143);
  });

  it('keeps three significant digits on long latencies', () => {
    const h = filled([[2503.7, 1]]);
    // 2,503,700 µs lands in a bucket 1/1000 wide at most.
    expect(Math.abs(percentileMs(h, 50) - 2503.7)).toBeLessThan(2.51);
  });

  it('reads 0 for every figure when nothing was recorded', () => {
    expect(percentilesMs(latencyHistogram())).toEqual({ p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0 });
  });

  it('adds histograms encoded in other threads', () => {
    const into = filled([[0.2, 50]]);
    addEncoded(into, [encodeIntoCompressedBase64(filled([[0.1, 50]])), encodeIntoCompressedBase64(filled([[4, 1]]))]);
    expect(into.totalCount).toBe(101);
    expect(percentileMs(into, 25)).toBe(0.1);
    expect(percentileMs(into, 75)).toBe(0.2);
    // A decoded maximum is its bucket's top: within a thousandth.
    expect(percentilesMs(into).max).toBeCloseTo(4, 2);
  });
});
