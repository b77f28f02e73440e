/**
 * The histogram hdr-histogram-js's build() returns for 32-bit buckets without WebAssembly, made
 * from its class's own file: the package's index also loads its WebAssembly build, encoders and
 * log readers, most of what the package costs a process's start, none of it used by the app's lag
 * sampler or the harness's latency counts (its probe and generator children start every run).
 */
import type { Histogram } from 'hdr-histogram-js';
import * as int32 from 'hdr-histogram-js/dist/Int32Histogram.js';

// A CommonJS default export: Node and Deno hand over the module's exports object, Bun the class.
const exported = int32.default as typeof int32.default | typeof int32.default.default;
const Int32Histogram = 'default' in exported ? exported.default : exported;

/** As build({ lowestDiscernibleValue, highestTrackableValue, numberOfSignificantValueDigits }) gives it: growing past its highest value (autoResize). */
export function int32Histogram(lowest: number, highest: number, significantDigits: number): Histogram {
  const histogram = new Int32Histogram(lowest, highest, significantDigits);
  histogram.autoResize = true;
  return histogram;
}
