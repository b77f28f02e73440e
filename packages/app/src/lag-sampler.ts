import type { Histogram } from 'hdr-histogram-js';
import { int32Histogram } from './histogram.ts';

export interface LagSummary {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/**
 * The intervals the loop was late by more than `thresholdMs` since recording was turned on
 * (POST /reset?late-ms=N): each from when a tick was due to when it ran, on the sampler's clock
 * (performance.now()), oldest first. `nowMs` is that clock as the answer was made, so a caller
 * places the intervals on a clock of its own from the moment it got the answer.
 */
export interface LateIntervals {
  /** null: not recording (the last reset did not ask for it). */
  thresholdMs: number | null;
  nowMs: number;
  intervals: [number, number][];
  /** Intervals recorded and since overwritten: the ring keeps the latest LATE_CAPACITY. */
  dropped: number;
}

/**
 * A late tick comes at least threshold + interval after the one before, so at a 10 ms tick and a
 * 10 ms threshold at most 50 intervals a second: 4,096 hold well over a minute, in 64 KiB.
 */
export const LATE_CAPACITY = 4096;

/**
 * Event-loop lag, measured the same way on every runtime (their built-in monitors differ):
 * a short setInterval whose lateness is recorded. When a handler blocks the loop for 50 ms, the
 * next tick comes ~50 ms late, and that lateness lands in the histogram.
 */
export class LagSampler {
  private readonly histogram: Histogram;
  private timer: ReturnType<typeof setInterval> | undefined;
  private last = 0;
  private readonly intervalMs: number;
  private readonly now: () => number;
  /** While recording: the threshold, and a ring of [due, ran] pairs. */
  private late: { thresholdMs: number; ring: Float64Array; count: number } | undefined;

  constructor(intervalMs: number, now: () => number = () => performance.now()) {
    this.intervalMs = intervalMs;
    this.now = now;
    // Microseconds, 1 µs to 10 min, 3 significant digits.
    this.histogram = int32Histogram(1, 600_000_000, 3);
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.last = this.now();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Records one tick's lateness; exposed so tests can drive the clock. */
  tick(): void {
    const now = this.now();
    const due = this.last + this.intervalMs;
    const lateMs = Math.max(0, now - due);
    this.last = now;
    this.histogram.recordValue(Math.max(1, Math.round(lateMs * 1000)));
    const late = this.late;
    if (late !== undefined && lateMs > late.thresholdMs) {
      const at = (late.count % LATE_CAPACITY) * 2;
      late.ring[at] = due;
      late.ring[at + 1] = now;
      late.count++;
    }
  }

  /**
   * From now on, also keeps each interval the loop was late by more than `thresholdMs`
   * (undefined: keeps none). Off by default: only a profiled server is asked to, and a measured
   * one pays nothing for it.
   */
  recordLate(thresholdMs: number | undefined): void {
    this.late =
      thresholdMs === undefined ? undefined : { thresholdMs, ring: this.late?.ring ?? new Float64Array(LATE_CAPACITY * 2), count: 0 };
  }

  lateIntervals(): LateIntervals {
    const nowMs = this.now();
    const late = this.late;
    if (late === undefined) return { thresholdMs: null, nowMs, intervals: [], dropped: 0 };
    const kept = Math.min(late.count, LATE_CAPACITY);
    const intervals: [number, number][] = [];
    for (let i = late.count - kept; i < late.count; i++) {
      const at = (i % LATE_CAPACITY) * 2;
      intervals.push([late.ring[at] ?? 0, late.ring[at + 1] ?? 0]);
    }
    return { thresholdMs: late.thresholdMs, nowMs, intervals, dropped: late.count - kept };
  }

  reset(): void {
    this.histogram.reset();
    this.last = this.now();
  }

  summary(): LagSummary {
    const samples = this.histogram.totalCount;
    if (samples === 0) return { p50: 0, p99: 0, max: 0, samples };
    const ms = (us: number) => Math.round(us) / 1000;
    return {
      p50: ms(this.histogram.getValueAtPercentile(50)),
      p99: ms(this.histogram.getValueAtPercentile(99)),
      max: ms(this.histogram.maxValue),
      samples,
    };
  }
}
