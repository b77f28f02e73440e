import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../src/config.ts';
import { parseServerArgs, workerPoolSizeFor } from '../src/server-args.ts';

const identity = { runtime: 'node' as const, version: '20', pid: 1, defaultDataDir: '/tmp' };

describe('worker pool size from the CPUs the server may use', () => {
  it('is one worker per CPU, from 1 up to the cap of 64', () => {
    expect([1, 2, 4, 16, 64, 128].map(workerPoolSizeFor)).toEqual([1, 2, 4, 16, 64, 64]);
    expect(workerPoolSizeFor(0)).toBe(1);
  });

  it('falls back to the fixed default when the CPU count is unknown', () => {
    expect(workerPoolSizeFor(undefined)).toBe(DEFAULTS.workerPoolSize);
    expect(parseServerArgs([], identity).app.workerPoolSize).toBe(DEFAULTS.workerPoolSize);
  });

  it('takes the default from the identity, and --workers still overrides it', () => {
    expect(parseServerArgs([], { ...identity, cpus: 16 }).app.workerPoolSize).toBe(16);
    expect(parseServerArgs(['--workers', '3'], { ...identity, cpus: 16 }).app.workerPoolSize).toBe(3);
    expect(() => parseServerArgs(['--workers', '65'], identity)).toThrow(/--workers must be an integer from 1 to 64/);
  });
});
