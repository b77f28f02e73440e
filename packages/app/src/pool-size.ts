// The pools behind the async and worker modes, as types only: config.ts and identity.ts both
// need them, and keeping them here keeps those two from importing each other.

/** Where a pool's size came from. */
export type PoolSource = 'default' | 'flag' | 'env' | 'cannot be set';

export interface PoolSize {
  /** Threads; null where the runtime does not say (a pool that grows on demand). */
  size: number | null;
  source: PoolSource;
  /** What the pool is and how it is set, e.g. "libuv thread pool (UV_THREADPOOL_SIZE)". */
  what: string;
}

/** The pools behind the async and worker modes, as the server sized them. */
export interface Pools {
  /** The thread pool running Node-API async work (bcrypt's async hash). */
  threadpool: PoolSize;
  /** The scenario worker pool behind every /<name>/worker (--workers). */
  workers: PoolSize;
}
