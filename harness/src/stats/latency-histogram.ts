/**
 * Latency percentiles at microsecond resolution, from the harness's own timing of each request.
 * An HDR histogram keeps three significant digits at any magnitude in fixed memory, so recording
 * costs a few array writes whether a run holds a thousand answers or a million: 143 µs is told
 * from 144 µs, and a 2.5 s bcrypt queue from 2.503 s. autocannon's own histogram keeps whole
 * milliseconds, which printed every hello percentile as 0 ms.
 */
import { int32Histogram } from '@bench/app/histogram';
import type { Histogram } from 'hdr-histogram-js';

/** Values are whole microseconds; it grows past an hour if it must (autoResize). */
export function latencyHistogram(): Histogram {
  return int32Histogram(1, 3_600_000_000, 3);
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
