// A first run well below the cell's others is called out, with what the harness can tell of why;
// the warm-up asks every thread that serves a cell for its share of requests.
import { describe, expect, it } from 'vitest';
import { slowFirstRun } from '../src/bench/first-run.ts';
import { servingThreads, warmupRequests } from '../src/bench/run-length.ts';
import { cellRemarks } from '../src/report/flags.ts';
import type { Warmup } from '../src/model/cell.ts';
import { makeRun } from './fixtures.ts';

const runs = (rates: number[], speeds?: number[]) =>
  rates.map((rps, i) =>
    makeRun({
      requestsPerSec: rps,
      round: i + 1,
      ...(speeds ? { machine: { coresWorth: speeds[i] ?? 0, min: 0, max: 0, ticks: 10 } } : {}),
    }),
  );
const steady: Warmup = { sec: 0.9, steady: true, requestsPerSec: 400, connections: 10, requests: 360, servingThreads: 2 };

describe('slowFirstRun', () => {
  it('is silent when the first run is at 0.8x the median or more', () => {
    expect(slowFirstRun(runs([330, 400, 410, 405, 395, 402]), steady)).toBeUndefined();
  });

  it('names a server still speeding up after a steady warm-up, with what the warm-up served', () => {
    expect(slowFirstRun(runs([450, 451, 780, 800, 818, 751]), steady)).toEqual({
      ratio: 0.588,
      reason: 'the server was still speeding up after a steady warm-up (0.9 s, 360 requests over 10 connections, 180 per serving thread)',
    });
  });

  it('names the machine when it was a tenth or more slower in that run', () => {
    const found = slowFirstRun(runs([300, 420, 430, 425], [1.2, 1.8, 1.8, 1.7]), steady);
    expect(found?.reason).toBe("the machine was slower in that run (1.20 cores' worth against 1.75)");
  });

  it('names a warm-up cut at its cap', () => {
    expect(slowFirstRun(runs([100, 200, 210, 205]), { ...steady, steady: false, sec: 3 })?.reason).toMatch(
      /^its warm-up stopped at its cap unsteady \(3 s/,
    );
  });

  it('takes the first round, whatever order the runs come in, and needs three runs', () => {
    const shuffled = runs([450, 780, 800, 818]).reverse();
    expect(slowFirstRun(shuffled, steady)?.ratio).toBe(0.57);
    expect(slowFirstRun(runs([100, 400]), steady)).toBeUndefined();
  });

  it('is shown in the cell notes', () => {
    expect(cellRemarks({ slowFirstRun: { ratio: 0.58, reason: 'why' } })).toContain('⚠ first run 0.58x the median: why');
  });
});

const pools = {
  threadpool: { size: 4, source: 'default' as const, what: 'libuv' },
  workers: { size: 2, source: 'default' as const, what: 'fib' },
};

describe('servingThreads', () => {
  it('counts the worker pool for worker, the thread pool for async, the loop otherwise, on every process', () => {
    expect(servingThreads('worker', pools, 1)).toBe(2);
    expect(servingThreads('async', pools, 1)).toBe(4);
    expect(servingThreads('sync', pools, 1)).toBe(1);
    expect(servingThreads('worker', pools, 3)).toBe(6);
    expect(servingThreads('async', { ...pools, threadpool: { size: null, source: 'cannot be set', what: 'bun' } }, 1)).toBe(1);
    expect(servingThreads('worker', undefined, 1)).toBe(1);
  });
});

describe('warmupRequests', () => {
  it("ten for each thread running the cell's JavaScript, one for each native pool thread", () => {
    expect(warmupRequests('sync', pools, 1)).toBe(10);
    expect(warmupRequests('worker', pools, 1)).toBe(20);
    expect(warmupRequests('worker', pools, 3)).toBe(60);
    // The loop's JavaScript and a start for each of the 4 pool threads, not 40.
    expect(warmupRequests('async', pools, 1)).toBe(14);
    expect(warmupRequests('async', pools, 2)).toBe(28);
    expect(warmupRequests('async', { ...pools, threadpool: { size: null, source: 'cannot be set', what: 'bun' } }, 1)).toBe(10);
  });
});
