import { THREADPOOL_SOURCE_ENV } from '@bench/app/pools';
import type { PoolSize } from '@bench/app/identity';

/**
 * Bun runs Node-API async work (bcrypt's async hash) on its own WorkPool: one thread per CPU of
 * its affinity, at least 2, or GOMAXPROCS when that is set. It reads GOMAXPROCS once, from the
 * environment the process started with (setting it from script does nothing), so a size other
 * than the default is applied by starting the serving process with it (the supervisor does).
 */
export const BUN_POOL_ENV = 'GOMAXPROCS';
const WHAT = "Bun's WorkPool (one thread per CPU, at least 2; GOMAXPROCS read at start)";

export function bunThreadpool(env: Record<string, string | undefined>, cpus: number): PoolSize {
  const raw = env[BUN_POOL_ENV];
  const value = raw === undefined ? NaN : Number(raw);
  if (Number.isInteger(value) && value > 0) {
    const source = env[THREADPOOL_SOURCE_ENV] === 'flag' ? 'flag' : env[THREADPOOL_SOURCE_ENV] === 'default' ? 'default' : 'env';
    return { size: Math.max(2, value), source, what: WHAT };
  }
  return { size: Math.max(2, cpus), source: 'default', what: WHAT };
}
