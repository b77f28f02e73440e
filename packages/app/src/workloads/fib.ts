/**
 * Recursive Fibonacci in the shapes the /fib routes compare. All of them return fib(n); they
 * differ in how the work is spread over the event loop (they are pure, so workers can run them).
 */

export const FIB_VARIANTS = ['plain', 'busy', 'memo', 'memo-late'] as const;
export type FibVariant = (typeof FIB_VARIANTS)[number];

export interface FibJob {
  n: number;
  variant: FibVariant;
  busyExponent: number;
  /** Only for fibAsync: how many levels of recursion are async functions. */
  asyncDepth: number;
}

export function fibPlain(n: number): number {
  return n < 2 ? n : fibPlain(n - 1) + fibPlain(n - 2);
}

/**
 * A pure CPU spin of n ** exponent iterations, as in the "n^9 loop" explorations of async in
 * the browser. The accumulator is returned so the engine cannot drop the loop.
 */
export function spin(n: number, exponent: number): number {
  const iterations = n ** exponent;
  let acc = 0;
  for (let i = 0; i < iterations; i++) acc = (acc + i) % 1_000_003;
  return acc;
}

/** Memo table per call: a shared cache would turn every request after the first into a lookup. */
export function fibMemo(n: number, memo: Map<number, number> = new Map()): number {
  if (n < 2) return n;
  const known = memo.get(n);
  if (known !== undefined) return known;
  const value = fibMemo(n - 1, memo) + fibMemo(n - 2, memo);
  memo.set(n, value);
  return value;
}

export function fibSync(job: FibJob): number {
  switch (job.variant) {
    case 'plain':
      return fibPlain(job.n);
    case 'busy':
      // `spin` returns below 1_000_003, so `* 0` keeps its result observable but out of the value.
      return fibPlain(job.n) + spin(job.n, job.busyExponent) * 0;
    case 'memo':
    case 'memo-late':
      // Sync, storing after the recursion is as good as before it: the source's syncMemoFib is O(n).
      return fibMemo(job.n);
  }
}

/**
 * The top `depth` levels of the recursion are async functions awaiting Promise.all of both
 * branches; below them it is the plain recursion. It still runs to the end on the one thread:
 * promise callbacks are microtasks, which drain before the loop takes the next I/O event, so
 * this frees the loop no sooner than fibSync. (Async all the way down costs hundreds of times more,
 * a promise per call, so a bounded depth keeps the same n comparable across modes.)
 */
export async function fibAsyncPlain(n: number, depth: number): Promise<number> {
  if (n < 2) return n;
  if (depth <= 0) return fibPlain(n);
  const [a, b] = await Promise.all([fibAsyncPlain(n - 1, depth - 1), fibAsyncPlain(n - 2, depth - 1)]);
  return a + b;
}

async function fibAsyncMemo(n: number, memo: Map<number, Promise<number>>): Promise<number> {
  if (n < 2) return n;
  let pending = memo.get(n);
  if (pending === undefined) {
    pending = Promise.all([fibAsyncMemo(n - 1, memo), fibAsyncMemo(n - 2, memo)]).then(([a, b]) => a + b);
    memo.set(n, pending);
  }
  return pending;
}

/**
 * Seed 002's asyncMemoFib as it was written: the value is stored only after the await. Both
 * branches are started before any of them settles (the whole call tree unfolds synchronously,
 * microtasks wait), so no call ever finds its memo: exponential like plain async, which is what
 * the source measured and could not explain.
 */
async function fibAsyncMemoLate(n: number, memo: Map<number, number>): Promise<number> {
  if (n < 2) return n;
  const known = memo.get(n);
  if (known !== undefined) return known;
  const [a, b] = await Promise.all([fibAsyncMemoLate(n - 1, memo), fibAsyncMemoLate(n - 2, memo)]);
  memo.set(n, a + b);
  return a + b;
}

/**
 * The async function calls fibAsync makes for a job, the cost that grows fastest: every call is
 * a promise kept alive until the whole tree settles (it unfolds before any await resolves), so
 * a call costs ~1 to 3.5 µs, more as the tree grows. plain and busy are async only in the top
 * `asyncDepth` levels; memo-late, as written, all the way down; memo stores each promise, so at
 * most two calls per value.
 */
export function asyncCalls(job: Pick<FibJob, 'n' | 'variant' | 'asyncDepth'>): number {
  switch (job.variant) {
    case 'memo':
      return 2 * job.n + 1;
    case 'memo-late':
      return treeCalls(job.n, job.n, new Map());
    default:
      return treeCalls(job.n, job.asyncDepth, new Map());
  }
}

/** Calls of a recursion that is async in its top `depth` levels (a leaf call is one call too). */
function treeCalls(n: number, depth: number, memo: Map<number, number>): number {
  if (n < 2 || depth <= 0) return 1;
  // Levels below n are never reached, so depth beyond n counts as n: the memo stays small.
  const key = n * 128 + Math.min(depth, n);
  let calls = memo.get(key);
  if (calls === undefined) {
    calls = 1 + treeCalls(n - 1, depth - 1, memo) + treeCalls(n - 2, depth - 1, memo);
    memo.set(key, calls);
  }
  return calls;
}

/** Iterations of the busy variant's spin (none in the others). */
export function spinIterations(job: Pick<FibJob, 'n' | 'variant' | 'busyExponent'>): number {
  return job.variant === 'busy' ? job.n ** job.busyExponent : 0;
}

export async function fibAsync(job: FibJob): Promise<number> {
  switch (job.variant) {
    case 'plain':
      return fibAsyncPlain(job.n, job.asyncDepth);
    case 'busy': {
      const spun = await Promise.resolve().then(() => spin(job.n, job.busyExponent));
      return (await fibAsyncPlain(job.n, job.asyncDepth)) + spun * 0;
    }
    case 'memo':
      return fibAsyncMemo(job.n, new Map());
    case 'memo-late':
      return fibAsyncMemoLate(job.n, new Map());
  }
}
