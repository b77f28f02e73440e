import type { ClusterInfo } from './cluster.ts';
import type { Pools } from './pool-size.ts';
import type { FibVariant } from './workloads/fib.ts';

export type RuntimeName = 'node' | 'bun' | 'deno';
export type ServerKind = 'hono' | 'raw';

/** Everything the app needs from its runtime, passed in so the app reads no runtime globals. */
export interface AppConfig {
  runtime: RuntimeName;
  /** Exact runtime version, e.g. "20.20.2" (no leading "v"). */
  version: string;
  pid: number;
  /** Folder holding manifest.json and the generated files (see data-files.ts). */
  dataDir: string;
  /** bcrypt cost factor for /hash/*. */
  hashCost: number;
  /** Defaults for /fib/* when the query leaves them out. */
  fibN: number;
  fibVariant: FibVariant;
  /** Exponent of the busy loop in the `busy` variant: n ** busyExponent iterations. */
  busyExponent: number;
  /** Levels of recursion that /fib/async runs as async functions; below them it recurses plainly. */
  asyncDepth: number;
  /** Default wait for /sleep/* in ms. */
  sleepMs: number;
  /** Threads in the scenario worker pool (/<name>/worker), started once with the app. */
  workerPoolSize: number;
  /** Period of the event-loop lag sampler in ms. */
  lagIntervalMs: number;
  /**
   * Entry module of each worker-pool thread. Runtimes that load the app's TypeScript worker
   * directly leave it out; Node under tsx passes a JavaScript entry that registers tsx first.
   */
  workerUrl?: URL;
  /** The user's own scenario modules (--scenario-file), absolute paths, served beside the built-ins. */
  scenarioFiles?: string[];
  /**
   * The scenario modules to load and set up, by name (--scenarios): a run that measures two of them
   * does not pay the others' setup (sqlite builds 5x10^5 rows in every thread, about a second
   * each). Every module when absent.
   */
  scenarios?: string[];
  /**
   * The client port of the connection a request came on, from the runtime's own handle on it
   * (Hono's `c.env` and the raw Request): how /stats counts answers per connection, so the
   * harness can tell how evenly a server served its connections. Left out: not counted.
   */
  peerPort?: (env: unknown, request: Request) => number | undefined;
  /** Set when this process is one of several serving one port (--processes N > 1). */
  cluster?: ClusterInfo;
  /** The pools' sizes and where they came from, for /health and the report. */
  pools?: Pools;
}

export const DEFAULTS = {
  hashCost: 10,
  fibN: 28,
  fibVariant: 'plain',
  busyExponent: 4,
  asyncDepth: 8,
  sleepMs: 20,
  workerPoolSize: 2,
  lagIntervalMs: 10,
} as const satisfies Partial<AppConfig>;

/** Documented bounds on query parameters (README, "Endpoints"). */
export const BOUNDS = {
  /** plain and busy recursion grow as ~1.6^n: fib(32) is ~25 ms on the loop, fib(40) would be ~1 s. */
  fibN: { min: 0, max: 32 },
  /** memo is linear; fib(78) is the largest below Number.MAX_SAFE_INTEGER. */
  fibMemoN: { min: 0, max: 78 },
  sleepMs: { min: 0, max: 1000 },
  /** Each step doubles bcrypt's work: cost 13 is ~0.45 s of CPU here, 15 was ~1.8 s. */
  hashCost: { min: 4, max: 13 },
  busyExponent: { min: 0, max: 6 },
  asyncDepth: { min: 0, max: 32 },
  /**
   * Joint bounds on one /fib request, so none costs more than ~1 s of CPU on any runtime (the
   * single bounds above allowed 20-25 s): the async calls fibAsync makes for (n, variant, depth)
   * (workloads/fib.ts asyncCalls; fib(25) async all the way down is 242785 of them) and the busy
   * spin's n ** exp iterations (~3.5 ns each, so 32 ** 6 was ~3.7 s).
   */
  fibAsyncCalls: { min: 0, max: 250_000 },
  busyIterations: { min: 0, max: 100_000_000 },
} as const;
