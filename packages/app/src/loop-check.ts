// Does a mode leave the event loop? A 1 ms interval timer counts how often the loop got to run
// timers while the mode's calls were in hand, against how often it does when idle. A call that
// holds the thread (sync, or an "async" API that does its work on the main thread) lets no tick
// through; one that waits elsewhere (a thread pool, a worker, the OS) lets nearly all through.

/** The interval of the ticker, ms: the finest every runtime's timers honour. */
const TICK_MS = 1;
/** Calls are started one after another until this much time has passed. */
const MIN_CHECK_MS = 50;
/** The idle reference window: long enough for ~50 ticks, short enough to be cheap. */
const IDLE_MS = 50;
/** A call of microseconds would otherwise be repeated tens of thousands of times. */
const MAX_CALLS = 2000;

export interface LoopCheckAnswer {
  mode: string;
  /** Calls made, one after another. */
  calls: number;
  /** How long they took together, ms. */
  elapsedMs: number;
  /** Timer ticks the loop ran meanwhile. */
  ticks: number;
  /** The idle reference measured right before: how many ticks the loop runs in idleMs with nothing to do. */
  idleMs: number;
  idleTicks: number;
  /** ticks over the ticks an idle loop runs in elapsedMs: 0 = the calls held the loop throughout, ~1 = it stayed free. */
  ticksShare: number;
}

/** Runs `body` with the ticker going; the ticks it let through and how long it took. */
async function ticked<T>(body: () => Promise<T>): Promise<{ value: T; ticks: number; elapsedMs: number }> {
  let ticks = 0;
  const timer = setInterval(() => {
    ticks++;
  }, TICK_MS);
  const start = performance.now();
  try {
    const value = await body();
    return { value, ticks, elapsedMs: performance.now() - start };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The idle reference, then `call` repeated one call at a time until MIN_CHECK_MS have passed
 * (a single call longer than that is one call). Awaiting a plain value only queues a microtask,
 * so a synchronous call lets no timer run between calls either.
 */
export async function checkLoop(mode: string, call: () => unknown): Promise<LoopCheckAnswer> {
  const idle = await ticked(() => new Promise<void>((resolve) => setTimeout(resolve, IDLE_MS)));
  const busy = await ticked(async () => {
    let calls = 0;
    const start = performance.now();
    do {
      await call();
      calls++;
    } while (performance.now() - start < MIN_CHECK_MS && calls < MAX_CALLS);
    return calls;
  });
  const idleRate = idle.ticks / idle.elapsedMs;
  const expected = idleRate * busy.elapsedMs;
  return {
    mode,
    calls: busy.value,
    elapsedMs: round(busy.elapsedMs),
    ticks: busy.ticks,
    idleMs: round(idle.elapsedMs),
    idleTicks: idle.ticks,
    ticksShare: expected > 0 ? round(busy.ticks / expected) : 0,
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
