/**
 * Histograms that cross a thread as text (autocannon's workers encode theirs). Apart from
 * latency-histogram.ts because decoding loads the whole hdr-histogram-js package, which the probe
 * and generator children, started for every run, do not need.
 */
import { decodeFromCompressedBase64, type Histogram } from 'hdr-histogram-js';

/** Adds histograms encoded elsewhere (a worker thread's) to `into`. */
export function addEncoded(into: Histogram, encoded: readonly string[]): void {
  for (const text of encoded) {
    const other = decodeFromCompressedBase64(text);
    into.add(other);
    other.destroy();
  }
}
