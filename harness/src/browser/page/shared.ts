/** What the harness asks the page for, and what the page answers: plain JSON both ways. */
import type { FibVariant } from '../../../../packages/app/src/workloads/fib.ts';

export const BROWSER_MODES = ['sync', 'async', 'worker'] as const;
export type BrowserMode = (typeof BROWSER_MODES)[number];

export interface PageCase {
  variant: FibVariant;
  mode: BrowserMode;
  n: number;
  busyExponent: number;
  /** Levels of async recursion; the study uses the source's asyncFib, async at every level. */
  asyncDepth: number;
  warmupMs: number;
  samples: number;
}

export interface PageResult {
  value: number;
  /** Calls per sample, chosen in warm-up so one sample lasts >= 20 ms (timers are coarse in Firefox). */
  callsPerSample: number;
  /** Wall time of one call, per sample, ms. */
  perCallMs: number[];
  /** Lateness of a 10 ms setTimeout chain while the samples ran, ms. */
  timerLateMs: { p50: number; p99: number; max: number; ticks: number };
  /** requestAnimationFrame callbacks during the samples and the longest gap between two. */
  raf: { frames: number; expected: number; missed: number; maxGapMs: number };
  elapsedMs: number;
}
