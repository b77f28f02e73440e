/**
 * How the open-loop generator waits for its next send. Each way of waiting costs something:
 * - the worker thread's wake-up (precise-wake.ts) sleeps without CPU but costs tens of
 *   microseconds per send (a futex, a message, an event-loop turn), which made the generator a
 *   whole core at ~16,000 req/s; worth it only when the gap is long;
 * - a nap on the main thread (Atomics.wait: a futex with a nanosecond timeout, no CPU) delays the
 *   reading of answers that arrive meanwhile by at most the nap, so naps are kept short; and it
 *   idles the vCPU, whose wake-up on a VM can come late;
 * - an event-loop turn (setImmediate) reads answers and costs a few microseconds, but a loop of
 *   turns is a busy core, and a real-time process that never sleeps is throttled by the kernel.
 * So: gaps over WAKE_GAP_MS go to the worker; gaps over SPIN_GAP_MS nap in slices of at most
 * NAP_MS, with a turn between slices so answers are read; shorter gaps are turns, unless the
 * generator has slept less than MIN_ASLEEP_SHARE of late, when they are napped too.
 */
export const WAKE_GAP_MS = 1;
/** The worker's wake-up is asked for this long before the due time, to cover its own delay. */
export const WAKE_EARLY_MS = 0.1;
/** Longest nap: an answer waits at most this long to be read (its latency is read this late). */
export const NAP_MS = 0.05;
/** Below this a nap's own cost (two syscalls) is more than it saves: a turn instead. */
export const MIN_NAP_MS = 0.005;
/**
 * Gaps shorter than this are waited out in turns, not naps: a nap idles the vCPU, and on a VM
 * whose idle is a plain HLT (cpuidle driver "none") its wake-up can come milliseconds late; with
 * naps on every gap 8,000 req/s missed a lateness p99 of 1 ms that turns held at 12,000.
 */
export const SPIN_GAP_MS = 0.2;
/**
 * But a real-time process must sleep: past 95 % of a second on the CPU the kernel stops it for
 * the rest (a 50 ms stall: hundreds of requests dropped). So while the share of time asleep of
 * late is under this, short gaps are napped too.
 */
export const MIN_ASLEEP_SHARE = 0.1;

export type Pace = { kind: 'wake'; atMs: number } | { kind: 'nap'; ms: number } | { kind: 'turn' };

/**
 * How to wait for a send due at `dueAt` when it is `now` (both performance.now() times), given
 * the share of recent time the generator spent asleep (AsleepShare).
 */
export function pace(dueAt: number, now: number, asleepShare = 1): Pace {
  const gap = dueAt - now;
  if (gap > WAKE_GAP_MS) return { kind: 'wake', atMs: dueAt - WAKE_EARLY_MS };
  if (gap > SPIN_GAP_MS || (asleepShare < MIN_ASLEEP_SHARE && gap > MIN_NAP_MS)) return { kind: 'nap', ms: Math.min(gap, NAP_MS) };
  return { kind: 'turn' };
}

/** The share of time asleep over windows of `windowMs`: the last full window's share. */
export class AsleepShare {
  private readonly windowMs: number;
  private start = Number.NaN;
  private asleep = 0;
  /** The last full window's share (1 before the first: nothing forces a nap at the start). */
  share = 1;

  constructor(windowMs = 20) {
    this.windowMs = windowMs;
  }

  /** `ms` asleep, ending at `now`. */
  slept(ms: number, now: number): void {
    this.asleep += ms;
    this.tick(now);
  }

  tick(now: number): void {
    if (Number.isNaN(this.start)) this.start = now;
    const span = now - this.start;
    if (span < this.windowMs) return;
    this.share = Math.min(1, this.asleep / span);
    this.start = now;
    this.asleep = 0;
  }
}
