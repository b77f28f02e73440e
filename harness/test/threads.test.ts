import { describe, expect, it } from 'vitest';
import { parseThreadStat, snapshotThreads, threadUse, type ThreadsSnapshot } from '../src/system/threads.ts';
import { threadSummary } from '../src/bench/cell.ts';
import type { RunResult, ThreadUse } from '../src/model/cell.ts';

const snapshot = (atMs: number, main: ThreadsSnapshot['main'], threads: [number, string, number][]): ThreadsSnapshot => ({
  atMs,
  main,
  threads: new Map(threads.map(([tid, name, cpuMs]) => [tid, { name, cpuMs }])),
});

describe('server threads from /proc', () => {
  it('reads a thread name with spaces and parentheses, and its CPU time in ticks', () => {
    const line = '4242 (Bun Pool (0)) S 1 2 3 0 -1 4194304 100 0 0 0 150 25 0 0 20 0 12 0 1000 0 0';
    expect(parseThreadStat(line)).toEqual({ name: 'Bun Pool (0)', cpuMs: 1750 });
    expect(parseThreadStat('garbage')).toBeUndefined();
  });

  it('charges the loop thread from schedstat and counts the other threads that used at least 5 % of a core', () => {
    const pid = 100;
    const before = snapshot(0, { runNs: 0, waitNs: 0, slices: 0 }, [
      [100, 'deno', 0],
      [101, 'tokio-runtime-w', 0],
      [102, 'tokio-runtime-w', 0],
    ]);
    // Over 2 s: the loop ran 60 ms and waited 900 ms for a CPU over 300 wakes; thread 101
    // used 400 ms, 102 only 50 ms, and 103 started during the run and used 300 ms.
    const after = snapshot(2_000, { runNs: 60e6, waitNs: 900e6, slices: 300 }, [
      [100, 'deno', 60],
      [101, 'tokio-runtime-w', 400],
      [102, 'tokio-runtime-w', 50],
      [103, 'tokio-runtime-w', 300],
    ]);
    expect(threadUse(before, after, pid)).toEqual({
      mainCpuPercent: 3,
      mainWaitMsPerSec: 450,
      mainWaitPerSliceMs: 3,
      busyThreads: 2,
      othersCpuPercent: 37.5,
      busiest: [
        { name: 'tokio-runtime-w', cpuPercent: 20 },
        { name: 'tokio-runtime-w', cpuPercent: 15 },
        { name: 'tokio-runtime-w', cpuPercent: 2.5 },
      ],
    });
    expect(threadUse(after, after, pid)).toBeUndefined();
  });

  it('summarises runs by medians, the busiest list from the median run', () => {
    const use = (wait: number, name: string): ThreadUse => ({
      mainCpuPercent: wait / 10,
      mainWaitMsPerSec: wait,
      mainWaitPerSliceMs: 1,
      busyThreads: 2,
      othersCpuPercent: 150,
      busiest: [{ name, cpuPercent: 70 }],
    });
    const runs = [use(300, 'c'), use(100, 'a'), use(200, 'b')].map((threads) => ({ threads }) as RunResult);
    const summary = threadSummary([...runs, {} as RunResult]);
    expect(summary).toMatchObject({ mainWaitMsPerSec: 200, mainCpuPercent: 20, busyThreads: 2, busiest: [{ name: 'b', cpuPercent: 70 }] });
    expect(threadSummary([{} as RunResult])).toBeUndefined();
  });

  it('sees this process: its main thread and a busy one of its own', () => {
    const first = snapshotThreads(process.pid);
    expect(first?.threads.get(process.pid)).toBeDefined();
    const end = performance.now() + 200;
    while (performance.now() < end) {
      // spin: the main thread works for 200 ms
    }
    const use = threadUse(first!, snapshotThreads(process.pid)!, process.pid)!;
    // A spinning thread is runnable throughout: on a CPU, or in the run queue waiting for one
    // while other test files hold the cores. How the 200 ms split between the two is the load's.
    expect(use.mainCpuPercent).toBeGreaterThan(0);
    expect(use.mainCpuPercent + use.mainWaitMsPerSec / 10).toBeGreaterThan(80);
    expect(snapshotThreads(2 ** 30)).toBeUndefined();
  });
});
