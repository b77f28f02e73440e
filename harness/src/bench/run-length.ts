/**
 * How long to warm up and how long to run, from what the server showed in its warm-up. Pure.
 *
 * A fixed duration serves light and heavy cells badly at once: 0.5 s holds 20,000 hello
 * requests but seven bcrypt hashes, and 0.1 s of warm-up leaves V8 still optimising the hello
 * path (Node's quick hello cells had CVs of 52 to 65 %). So the warm-up goes on in short slices
 * until two in a row agree, and a run goes on past --duration until it holds --min-requests.
 */
import type { Pools } from '@bench/app';

/**
 * Completed requests a run should hold. A serial server's count is off by at most one request
 * at each edge of the run, a pooled one by about one per busy thread (2 to 4 here), so 20
 * requests keep that edge error near 5 to 10 %: enough for a bcrypt cell in --quick to carry a
 * figure, and cheap (about 1.3 s of cost-10 hashing).
 */
export const DEFAULT_MIN_REQUESTS = 20;
/**
 * --quick's minimum: a smoke run, not a measurement to quote. Ten requests keep the edge error
 * near 10 to 20 % (its CVs show it) and halve the bcrypt cells' runs, the largest share of a
 * quick run's time (about 0.65 s a run at cost 10 instead of 1.3 s).
 */
export const QUICK_MIN_REQUESTS = 10;

/** Two warm-up slices whose rates differ by less than this fraction count as steady. */
export const STEADY_TOLERANCE = 0.1;

/** A run is lengthened to at most this many times --duration (and at least this many seconds). */
export const MAX_STRETCH = 4;
export const MIN_CAP_SEC = 3;

/** The longest a run may be stretched to reach --min-requests. */
export function runCapSec(durationSec: number): number {
  return Math.max(durationSec * MAX_STRETCH, MIN_CAP_SEC);
}

/**
 * A warm-up slice long enough for about ten requests on each connection at the last rate, from 0.2
 * to 1 s. Ten in all, one a connection, made a slice of a 50 req/s cell 0.2 s long, and with one
 * request's counting error allowed per slice two such slices agreed within 20 %: Node's file cells
 * were called steady at 50 to 65 req/s, a second into a ramp that ended near 170, and their first
 * runs served 0.46 to 0.78x the rest.
 */
export function warmupSliceSec(rate: number, connections = 1): number {
  if (!(rate > 0)) return 1;
  return Math.min(1, Math.max(0.2, (10 * Math.max(1, connections)) / rate));
}

/**
 * Whether the last two warm-up slices agree within the tolerance (and both finished something).
 * With the slices' lengths, one request's worth of counting error per slice is allowed on top:
 * a bcrypt cell serves 5 to 7 requests a 1 s slice, so 6 against 7 (14 %) is one request, not a
 * JIT still settling, and without that allowance those cells warmed up to --warmup-max every
 * time (2.1 to 3 s for each hash and sleep/sync cell, about 25 s of the default run's 47 s of
 * warm-ups; docs/methodology.md).
 */
export function isSteady(rates: readonly number[], slicesSec: readonly number[] = []): boolean {
  const last = rates.at(-1);
  const before = rates.at(-2);
  if (last === undefined || before === undefined || last <= 0 || before <= 0) return false;
  const shortest = Math.min(slicesSec.at(-1) ?? Infinity, slicesSec.at(-2) ?? Infinity);
  const counting = Number.isFinite(shortest) && shortest > 0 ? 1 / shortest : 0;
  return Math.abs(last - before) < STEADY_TOLERANCE * Math.max(last, before) + counting;
}

/** What a warm-up's slices showed, and whether it may end. */
export interface WarmupWatch {
  /** Each closed slice's rate (requests/s) and length (s), in order. */
  readonly rates: readonly number[];
  readonly slices: readonly number[];
  /**
   * Given the responses so far and the seconds since the load began: true once the last two
   * slices agree and `requests` have been served, or once the next slice would pass `maxSec`.
   */
  observe(responses: number, elapsedSec: number): boolean;
  /**
   * Once steady: the requests served when the rate was first at speed, at the start of the
   * earlier of the two slices that agreed (0 when that was the first slice). Undefined while unsteady.
   */
  atSpeedAfter(): number | undefined;
}

/**
 * The warm-up's stop rule over one unbroken load, cut into slices as it goes: the first
 * `minSec` long, each next one warmupSliceSec of the last rate. One load rather than a load per
 * slice: a new load starts behind the requests the last one left in flight (ten bcrypt hashes,
 * 0.7 s), so its slice read 5 to 6 hashes a second where the server served 14, bcrypt and
 * sleep/sync cells compared that backlog instead of the server and ran to 2.5 s or to their cap.
 */
export function warmupWatch(options: { minSec: number; maxSec: number; connections: number; requests: number }): WarmupWatch {
  const rates: number[] = [];
  const slices: number[] = [];
  // Requests served by the end of each slice.
  const ends: number[] = [];
  let from = 0;
  let counted = 0;
  let next = options.minSec;
  let done = false;
  return {
    rates,
    slices,
    observe(responses, elapsedSec) {
      if (done) return true;
      if (elapsedSec < next) return false;
      const slice = elapsedSec - from;
      const rate = (responses - counted) / slice;
      rates.push(rate);
      slices.push(slice);
      ends.push(responses);
      from = elapsedSec;
      counted = responses;
      // Nothing finished yet (a bcrypt cell's first 0.1 s): the rest of the budget in one slice.
      const length = rate > 0 ? warmupSliceSec(rate, options.connections) : options.maxSec - elapsedSec;
      next = elapsedSec + length;
      done = (isSteady(rates, slices) && responses >= options.requests) || length <= 0.05 || next > options.maxSec + 1e-9;
      return done;
    },
    atSpeedAfter() {
      return isSteady(rates, slices) ? (ends.at(-3) ?? 0) : undefined;
    },
  };
}

/**
 * Requests each thread that runs a cell's JavaScript should have run before the warm-up may end,
 * however soon its slices agreed: each event loop and each worker thread has a JIT of its own,
 * and one fib(28) request alone calls the function some 300,000 times, so ten leave every such
 * thread's hot path compiled.
 */
const WARMUP_REQUESTS_PER_THREAD = 10;

/**
 * The requests a cell's warm-up must serve: ten for each thread that runs its JavaScript (each
 * process's loop, or each worker in worker mode), and one for each thread of a runtime's pool in
 * async mode. That pool runs native code (bcrypt, file reads) with nothing to compile: one
 * request starts a thread. Ten a pool thread too held Node's and Deno's hash/async warm-ups (4
 * threads at 14 hashes a second) near 3 s on every server process.
 */
export function warmupRequests(mode: string, pools: Pools | undefined, processes: number): number {
  if (mode === 'worker') return servingThreads(mode, pools, processes) * WARMUP_REQUESTS_PER_THREAD;
  const poolThreads = mode === 'async' ? Math.max(0, pools?.threadpool.size ?? 0) : 0;
  return Math.max(1, processes) * (WARMUP_REQUESTS_PER_THREAD + poolThreads);
}

/**
 * The threads that serve a cell's requests, over all serving processes: the worker pool for
 * worker, the thread pool for async (where the runtime says its size), else each event loop.
 */
export function servingThreads(mode: string, pools: Pools | undefined, processes: number): number {
  const pool = mode === 'worker' ? pools?.workers.size : mode === 'async' ? pools?.threadpool.size : undefined;
  return Math.max(1, pool ?? 1) * Math.max(1, processes);
}
