import type { AppConfig } from '../src/index.ts';

/**
 * The app as the tests start it: small workloads (these tests are about behaviour, not cost), two
 * worker threads, and the worker entry that loads .ts modules under tsx.
 */
export function testAppConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    runtime: 'node',
    version: '20.0.0-test',
    pid: 4242,
    dataDir,
    hashCost: 4,
    fibN: 20,
    fibVariant: 'plain',
    busyExponent: 2,
    asyncDepth: 4,
    sleepMs: 5,
    workerPoolSize: 2,
    lagIntervalMs: 10,
    workerUrl: new URL('./scenario-worker-tsx.mjs', import.meta.url),
    ...overrides,
  };
}
