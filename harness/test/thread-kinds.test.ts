/**
 * A server's threads told apart by name (the loop, the pool and workers, the engine's helpers),
 * the CPU a request cost on each, a process's CPU affinity, and the cost clause beside a ratio:
 * all on fixed inputs.
 */
import { describe, expect, it } from 'vitest';
import { costsText, modeCosts } from '../src/report/cpu-costs.ts';
import { countCpuList } from '../src/system/proc.ts';
import { cpuByKind, cpuPerRequest, threadKind } from '../src/system/thread-kinds.ts';
import type { ThreadsSnapshot } from '../src/system/threads.ts';

const snapshot = (runNs: number, threads: [number, string, number][]): ThreadsSnapshot => ({
  atMs: 0,
  main: { runNs, waitNs: 0, slices: 0 },
  threads: new Map(threads.map(([tid, name, cpuMs]) => [tid, { name, cpuMs }])),
});

describe('thread kinds', () => {
  it('names the main thread the loop, the engines’ GC and compiler threads helpers, and the rest the pool', () => {
    expect(threadKind('node', 100, 100)).toBe('loop');
    expect(threadKind('libuv-worker', 101, 100)).toBe('pool');
    expect(threadKind('V8 DefaultWorke', 102, 100)).toBe('helper');
    expect(threadKind('HeapHelper', 103, 100)).toBe('helper');
    expect(threadKind('JITWorker', 104, 100)).toBe('helper');
    // As Node 24, Bun 1.4 and Deno 2.9 name them (read from their servers under load).
    for (const helper of ['V8Worker', 'DelayedTaskSche', 'JSCWarmUp']) expect(threadKind(helper, 106, 100)).toBe('helper');
    for (const pool of ['WorkerThread', 'Bun Pool 0', 'Worker', 'worker-1']) expect(threadKind(pool, 107, 100)).toBe('pool');
    expect(threadKind('tokio-runtime-w', 105, 100)).toBe('pool');
  });

  it('sums the CPU each kind used between two snapshots, a thread started in between from zero, and divides it by the requests', () => {
    const before = snapshot(1_000_000_000, [
      [100, 'node', 1000],
      [101, 'libuv-worker', 200],
      [102, 'V8 DefaultWorke', 50],
    ]);
    const after = snapshot(1_400_000_000, [
      [100, 'node', 1400],
      [101, 'libuv-worker', 600],
      [102, 'V8 DefaultWorke', 70],
      [103, 'libuv-worker', 100],
    ]);
    const byKind = cpuByKind(before, after, 100);
    expect(byKind).toEqual({ loop: 400, pool: 500, helper: 20 });
    expect(cpuPerRequest(byKind, 200)).toEqual({ loopMs: 2, poolMs: 2.5, helperMs: 0.1 });
    expect(cpuPerRequest(byKind, 0)).toBeUndefined();
  });

  it('counts the CPUs of an affinity list', () => {
    expect(countCpuList('0-1')).toBe(2);
    expect(countCpuList('0-3,6,8-9\n')).toBe(7);
    expect(countCpuList('1')).toBe(1);
    expect(countCpuList('x')).toBeUndefined();
  });
});

describe('the cost clause beside a ratio', () => {
  const sync = { mode: 'sync', status: 'ok', serverCpus: 2, cpuPerRequestMs: { loopMs: 5.2, poolMs: 0, helperMs: 0.1 } } as const;
  const worker = { mode: 'worker', status: 'ok', serverCpus: 2, cpuPerRequestMs: { loopMs: 0.3, poolMs: 5.3, helperMs: 0.2 } } as const;

  it('states the ceiling, the CPU a request costs against sync, and a worker’s hop', () => {
    const costs = modeCosts(worker, sync);
    expect(costs?.cpuRatio).toBeCloseTo(5.8 / 5.3, 6);
    expect(costs?.hopMs).toBeCloseTo(0.5, 6);
    expect(costsText(costs ?? {})).toBe(
      'at most ~2x with 2 CPUs; each request costs 9 % more CPU (1.09x: on the loop 5.2 ms → 0.3 ms, off it 0.1 ms → 5.5 ms; the hop 0.5 ms)',
    );
  });

  it('gives no ceiling where sync was waiting rather than computing on its loop (a blocking sleep)', () => {
    // 0.5 ms of CPU a request at 48 requests/s: the loop computed 2 % of the time.
    const sleepSync = {
      mode: 'sync',
      status: 'ok',
      serverCpus: 2,
      requestsPerSec: { median: 48 },
      cpuPerRequestMs: { loopMs: 0.5, poolMs: 0, helperMs: 0 },
    } as const;
    const sleepAsync = { mode: 'async', status: 'ok', serverCpus: 2, cpuPerRequestMs: { loopMs: 0.2, poolMs: 0, helperMs: 0 } } as const;
    expect(costsText(modeCosts(sleepAsync, sleepSync) ?? {})).toMatch(/^each request costs 60 % less CPU \(0\.40x/);
    // The same CPU at 190 requests/s of a 5 ms computation: the loop was the bottleneck.
    const busy = { ...sync, requestsPerSec: { median: 190 } };
    expect(costsText(modeCosts(worker, busy) ?? {})).toMatch(/^at most ~2x with 2 CPUs; /);
  });

  it('gives the ceiling alone without thread figures, and nothing for a failed cell', () => {
    const bare = { mode: 'async', status: 'ok', serverCpus: 1 } as const;
    expect(costsText(modeCosts(bare, { mode: 'sync', status: 'ok' }) ?? {})).toBe('at most ~1x with 1 CPU');
    expect(modeCosts({ ...worker, status: 'failed' }, sync)).toBeUndefined();
  });
});
