/**
 * The one palette of every chart the harness draws (bench, concurrency sweep, curve, browser
 * study): a runtime keeps its colour on every page, so a reader learns it once. The charts run
 * as browser scripts in the page; paletteScript() declares these constants there.
 */

/** One colour per runtime; versions of a runtime are shades of it (html-chart-script.ts). */
export const RUNTIME_COLORS = { node: '#2f855a', bun: '#c05621', deno: '#2b6cb0' } as const;
/** For lanes that are no runtime of ours (labels from elsewhere), in order. */
export const SPARE_COLORS = ['#6b46c1', '#b83280', '#718096', '#2c7a7b', '#975a16', '#9b2c2c', '#2a4365', '#553c9a'] as const;
/** Latency percentiles p50 .. max, light to dark. */
export const LATENCY_COLORS = ['#bee3f8', '#63b3ed', '#3182ce', '#2c5282', '#1a365d'] as const;
/** Probe percentiles p50, p99, max. */
export const PROBE_COLORS = ['#d6bcfa', '#9f7aea', '#553c9a'] as const;
/** Event-loop lag p99, max. */
export const LAG_COLORS = ['#f6ad55', '#c05621'] as const;
/** Where a chart compares modes rather than runtimes (the browser study). */
export const MODE_COLORS = { sync: '#d62728', async: '#1f77b4', worker: '#2ca02c' } as const;
/** Marks: an invalid or failed figure, a flagged one, a target line. */
export const MARK_COLORS = { bad: '#c53030', warn: '#b7791f', target: '#c53030' } as const;

/** The palette as `const` declarations for a chart script that runs in the page. */
export function paletteScript(): string {
  const all = { RUNTIME_COLORS, SPARE_COLORS, LATENCY_COLORS, PROBE_COLORS, LAG_COLORS, MODE_COLORS, MARK_COLORS };
  return Object.entries(all)
    .map(([name, value]) => `  const ${name} = ${JSON.stringify(value)};\n`)
    .join('');
}
