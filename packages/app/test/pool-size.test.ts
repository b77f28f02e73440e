import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../src/config.ts';
import { cpusPerProcess, parseProcesses, parseServerArgs, threadpoolSizeFor, workerPoolSizeFor } from '../src/server-args.ts';

const identity = { runtime: 'node' as const, version: '20', pid: 1, defaultDataDir: '/tmp' };
const { threadpoolFor } = createRequire(import.meta.url)('../../../runtimes/node/threadpool-size.cjs') as {
  threadpoolFor(argv: string[], env: Record<string, string | undefined>, cpus: number): { size: number; source: string };
};

describe('worker pool size from the CPUs the server may use', () => {
  it('is one worker per CPU, from 1 up to the cap of 64', () => {
    expect([1, 2, 4, 16, 64, 128].map((n) => workerPoolSizeFor(n))).toEqual([1, 2, 4, 16, 64, 64]);
    expect(workerPoolSizeFor(0)).toBe(1);
  });

  it('falls back to the fixed default when the CPU count is unknown', () => {
    expect(workerPoolSizeFor(undefined)).toBe(DEFAULTS.workerPoolSize);
    expect(parseServerArgs([], identity).app.workerPoolSize).toBe(DEFAULTS.workerPoolSize);
  });

  it('reads --scenarios as names, none as no module, and no flag as every module', () => {
    expect(parseServerArgs(['--scenarios', 'hash,sleep'], identity).app.scenarios).toEqual(['hash', 'sleep']);
    expect(parseServerArgs(['--scenarios', 'none'], identity).app.scenarios).toEqual([]);
    expect(parseServerArgs([], identity).app.scenarios).toBeUndefined();
  });

  it('takes the default from the identity, and --workers still overrides it', () => {
    expect(parseServerArgs([], { ...identity, cpus: 16 }).app.workerPoolSize).toBe(16);
    expect(parseServerArgs(['--workers', '3'], { ...identity, cpus: 16 }).app.workerPoolSize).toBe(3);
    expect(parseServerArgs(['--workers', '3'], identity).workersSource).toBe('flag');
    expect(parseServerArgs([], identity).workersSource).toBe('default');
  });

  it('takes BENCH_WORKERS (the identity carries it) when --workers is not given, and checks it as the flag', () => {
    expect(parseServerArgs([], { ...identity, cpus: 16, workersEnv: '3' }).app.workerPoolSize).toBe(3);
    expect(parseServerArgs([], { ...identity, workersEnv: '3' }).workersSource).toBe('env');
    expect(parseServerArgs(['--workers', '5'], { ...identity, workersEnv: '3' })).toMatchObject({
      workersSource: 'flag',
      app: { workerPoolSize: 5 },
    });
    expect(parseServerArgs([], { ...identity, cpus: 4, workersEnv: '' })).toMatchObject({
      workersSource: 'default',
      app: { workerPoolSize: 4 },
    });
    expect(() => parseServerArgs([], { ...identity, workersEnv: 'many' })).toThrow(
      /^BENCH_WORKERS must be an integer from 1 to 64, got "many"$/,
    );
    expect(() => parseServerArgs(['--workers', '65'], identity)).toThrow(/--workers must be an integer from 1 to 64/);
  });

  it('splits the CPUs among --processes: each process sizes its pools from its share', () => {
    expect([2, 4, 16, 64].map((n) => cpusPerProcess(n, 1))).toEqual([2, 4, 16, 64]);
    expect([2, 4, 16, 64].map((n) => cpusPerProcess(n, 2))).toEqual([1, 2, 8, 32]);
    expect([2, 4, 16, 64].map((n) => cpusPerProcess(n, n))).toEqual([1, 1, 1, 1]);
    expect(cpusPerProcess(16, 3)).toBe(6);
    expect(parseServerArgs(['--processes', '4'], { ...identity, cpus: 16 }).app.workerPoolSize).toBe(4);
    expect(parseServerArgs(['--processes', 'auto'], { ...identity, cpus: 16 }).app.workerPoolSize).toBe(1);
  });
});

describe('--processes', () => {
  it('is 1 by default, auto = the CPUs, or a count from 1 to 256', () => {
    expect(parseProcesses(undefined, 16)).toBe(1);
    expect([2, 4, 16, 64].map((n) => parseProcesses('auto', n))).toEqual([2, 4, 16, 64]);
    expect(parseProcesses('3', 2)).toBe(3);
    expect(() => parseProcesses('0', 2)).toThrow(/--processes must be "auto" or an integer from 1 to 256/);
    expect(() => parseProcesses('two', 2)).toThrow(/--processes/);
  });
});

describe("Node's thread pool (libuv) size", () => {
  it('is one thread per CPU share, never below libuv default 4, at most 1024', () => {
    expect([2, 4, 16, 64].map((n) => threadpoolSizeFor(n))).toEqual([4, 4, 16, 64]);
    expect([2, 4, 16, 64].map((n) => threadpoolSizeFor(n, 2))).toEqual([4, 4, 8, 32]);
    expect(threadpoolSizeFor(4096)).toBe(1024);
    expect(threadpoolSizeFor(undefined)).toBe(4);
  });

  it('the Node preload (plain CommonJS) computes the same sizes, and says where they came from', () => {
    for (const cpus of [2, 4, 16, 64]) {
      for (const processes of [1, 2, cpus]) {
        expect(threadpoolFor(['--processes', String(processes)], {}, cpus)).toEqual({
          size: threadpoolSizeFor(cpus, processes),
          source: 'default',
        });
      }
      expect(threadpoolFor(['--processes', 'auto'], {}, cpus).size).toBe(threadpoolSizeFor(cpus, cpus));
    }
    expect(threadpoolFor(['--threadpool', '7'], { UV_THREADPOOL_SIZE: '9' }, 16)).toEqual({ size: 7, source: 'flag' });
    expect(threadpoolFor([], { UV_THREADPOOL_SIZE: '9' }, 16)).toEqual({ size: 9, source: 'env' });
    // A cluster worker inherits the primary's decision, source included.
    expect(threadpoolFor([], { UV_THREADPOOL_SIZE: '16', BENCH_THREADPOOL_SOURCE: 'default' }, 16)).toEqual({
      size: 16,
      source: 'default',
    });
  });
});
