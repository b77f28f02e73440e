import type { PoolSize, Pools } from './pool-size.ts';
import type { ServerOptions } from './server-args.ts';

/** The scenario worker pool (/<name>/worker) as parseServerArgs sized it. */
export function workersPool(options: ServerOptions): PoolSize {
  return {
    size: options.app.workerPoolSize,
    source: options.workersSource,
    what: 'scenario worker threads per process, serving every /<name>/worker (--workers, else BENCH_WORKERS; default one per CPU share of the process)',
  };
}

export function pools(options: ServerOptions, threadpool: PoolSize): Pools {
  return { threadpool, workers: workersPool(options) };
}

/** Environment name through which a supervisor tells its children where a pool size came from. */
export const THREADPOOL_SOURCE_ENV = 'BENCH_THREADPOOL_SOURCE';
