/**
 * Latency percentiles at microsecond resolution, from the harness's own timing of each request.
 * An HDR histogram keeps three significant digits at any magnitude in fixed memory, so recording
 * costs a few array writes whether a run holds a thousand answers or a million: 143 µs is told
 * from 144 µs, and a 2.5 s bcrypt queue from 2.503 s. autocannon's own histogram keeps whole
 * milliseconds, which printed every hello percentile as 0 ms.
 */
import type { Histogram } from 'hdr-histogram-js';
// The class build() returns for these parameters (32-bit buckets, no WebAssembly), from its own
// file: the package's index also loads its WebAssembly build and encoders, which the probe and
// generator children (each a process started per run) never use.
import * as int32 from 'hdr-histogram-js/dist/Int32Histogram.js';

// A CommonJS default export: Node and Deno hand over the module's exports object, Bun the class.
const exported = int32.default as typeof int32.default | typeof int32.default.default;
const Int32Histogram = 'default' in exported ? exported.default : exported;

/** Values are whole microseconds; it grows past an hour if it must (autoResize). */
export function latencyHistogram(): Histogram {
  const histogram = new Int32Histogram(1, 3_600_000_000, 3);
  // As build() sets it.
  histogram.autoResize = true;
  return histogram;
}

/** One latency in ms (fractional) as whole µs; anything faster than 1 µs counts as 1 µs. */
export function recordMs(histogram: Histogram, ms: number): void {
  histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
}

export interface LatencyPercentilesMs {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

/** µs as ms, kept to the µs (0.143, not 0.14300000000000002). */
const toMs = (us: number) => Math.round(us) / 1000;

/**
 * ms at the percentile (0 to 100); 0 when nothing was recorded. The histogram answers with the top
 * of the value's bucket (up to 1/1000 above it), which can pass the largest value recorded: never
 * past it, so p99 ≤ max always holds.
 */
export function percentileMs(histogram: Histogram, percentile: number): number {
  return histogram.totalCount === 0 ? 0 : toMs(Math.min(histogram.getValueAtPercentile(percentile), histogram.maxValue));
}

/** The percentiles every report shows, in ms to the µs; all 0 when nothing was recorded. */
export function percentilesMs(histogram: Histogram): LatencyPercentilesMs {
  return {
    p50: percentileMs(histogram, 50),
    p90: percentileMs(histogram, 90),
    p99: percentileMs(histogram, 99),
    p999: percentileMs(histogram, 99.9),
    max: histogram.totalCount === 0 ? 0 : toMs(histogram.maxValue),
    mean: histogram.totalCount === 0 ? 0 : toMs(histogram.mean),
  };
}
