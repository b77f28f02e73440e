// A scenario module of your own: count the primes below n. It needs nothing from this project;
// run it with `pnpm bench:all --scenario-file docs/examples/primes.ts` (docs/your-own-code.md).

/** The route prefix: /primes/sync, /primes/async, /primes/worker. */
export const name = 'primes';
/** One line, shown in the report beside the scenario's figures. */
export const description = 'count the primes below n with a sieve: on the loop, chunked with awaits, in a worker';

interface Input {
  n: number;
}

/** The largest n a request may ask for: about 30 ms of work on one core, far below a second. */
const MAX_N = 5_000_000;

/** The input from the query string; a RangeError names the bound and becomes a 400. */
export function input(query: URLSearchParams): Input {
  const raw = query.get('n') ?? '200000';
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 2 || n > MAX_N) throw new RangeError(`n must be an integer from 2 to ${MAX_N}, got "${raw}"`);
  return { n };
}

/** The work on the calling thread: the loop for /primes/sync, a pool thread for /primes/worker. */
export function sync({ n }: Input): { n: number; primes: number } {
  const composite = new Uint8Array(n);
  let primes = 0;
  for (let i = 2; i < n; i++) {
    if (composite[i] === 1) continue;
    primes++;
    for (let j = i * i; j < n; j += i) composite[j] = 1;
  }
  return { n, primes };
}

/**
 * The same answer, the work cut into slices with a timer between them so other requests get a
 * turn: what "async" can mean for CPU work when the runtime has no non-blocking API for it.
 */
export async function async({ n }: Input): Promise<{ n: number; primes: number }> {
  const composite = new Uint8Array(n);
  let primes = 0;
  for (let i = 2; i < n; i++) {
    if (i % 65_536 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    if (composite[i] === 1) continue;
    primes++;
    for (let j = i * i; j < n; j += i) composite[j] = 1;
  }
  return { n, primes };
}
