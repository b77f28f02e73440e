import { build, type Histogram } from 'hdr-histogram-js';

export interface LagSummary {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

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

  constructor(intervalMs: number, now: () => number = () => performance.now()) {
    this.intervalMs = intervalMs;
    this.now = now;
    // Microseconds, 1 µs to 10 min, 3 significant digits.
    this.histogram = build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
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
    const lateMs = Math.max(0, now - this.last - this.intervalMs);
    this.last = now;
    this.histogram.recordValue(Math.max(1, Math.round(lateMs * 1000)));
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
