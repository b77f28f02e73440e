/**
 * How the open-loop generator waits for its next send. Each way of waiting costs something:
 * - the worker thread's wake-up (precise-wake.ts) sleeps without CPU but costs tens of
 *   microseconds per send (a futex, a message, an event-loop turn), which made the generator a
 *   whole core at ~16,000 req/s; worth it only when the gap is long;
 * - an event-loop turn (setImmediate) reads answers and costs a few microseconds, but a loop of
 *   turns is a busy core, and a real-time process that never sleeps is throttled by the kernel
 *   (50 ms of every second) - a 20-40 ms stall in the middle of a step;
 * - a nap on the main thread (Atomics.wait: a futex with a nanosecond timeout, no CPU) delays the
 *   reading of answers that arrive meanwhile by at most the nap, so naps are kept short.
 * So: gaps over WAKE_GAP_MS go to the worker; shorter ones nap in slices of at most NAP_MS, with
 * a turn between slices so answers are read; the last few microseconds are turns.
 */
export const WAKE_GAP_MS = 1;
/** The worker's wake-up is asked for this long before the due time, to cover its own delay. */
export const WAKE_EARLY_MS = 0.1;
/** Longest nap: an answer waits at most this long to be read (its latency is read this late). */
export const NAP_MS = 0.05;
/** Below this a nap's own cost (two syscalls) is more than it saves: a turn instead. */
export const MIN_NAP_MS = 0.005;

export type Pace = { kind: 'wake'; atMs: number } | { kind: 'nap'; ms: number } | { kind: 'turn' };

/** How to wait for a send due at `dueAt` when it is `now` (both performance.now() times). */
export function pace(dueAt: number, now: number): Pace {
  const gap = dueAt - now;
  if (gap > WAKE_GAP_MS) return { kind: 'wake', atMs: dueAt - WAKE_EARLY_MS };
  if (gap > MIN_NAP_MS) return { kind: 'nap', ms: Math.min(gap, NAP_MS) };
  return { kind: 'turn' };
}
