import { describe, expect, it } from 'vitest';
import { cellRatios, comparisons, roundRatio, withRatioToFastest } from '../src/report/mode-ratios.ts';
import { makeCell } from './fixtures.ts';

describe('cellRatios', () => {
  it('divides async by sync for throughput, p99 and probe p99', () => {
    const sync = makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync' }, { rps: 1000, p99: 200, probeP99: 180 });
    const async = makeCell({ runtime: 'node', scenario: 'hash', mode: 'async' }, { rps: 2410, p99: 104, probeP99: 9 });
    expect(cellRatios(async, sync)).toEqual({ throughput: 2.41, p99: 0.52, probeP99: 0.05 });
  });

  it('is null where a side is missing, failed or zero', () => {
    const sync = makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync' }, { rps: 1000, probeP99: 0 });
    const failed = makeCell({ runtime: 'node', scenario: 'hash', mode: 'async', status: 'failed' });
    const allNull = { throughput: null, p99: null, probeP99: null };
    expect(cellRatios(undefined, sync)).toEqual(allNull);
    expect(cellRatios(failed, sync)).toEqual(allNull);
    const async = makeCell({ runtime: 'node', scenario: 'hash', mode: 'async' }, { rps: 1500, p99: 6, probeP99: 1 });
    expect(cellRatios(async, sync)).toEqual({ throughput: 1.5, p99: 0.5, probeP99: null });
  });

  it('rounds to 4 significant digits', () => {
    expect(roundRatio(2 / 3)).toBe(0.6667);
    expect(roundRatio(1234.5678)).toBe(1235);
  });
});

describe('comparisons', () => {
  const results = [
    makeCell({ runtime: 'node', scenario: 'hello', mode: 'baseline' }, { rps: 40_000, p99: 6, probeP99: 3 }),
    makeCell({ runtime: 'node', scenario: 'hello', mode: 'raw' }, { rps: 50_000, p99: 5, probeP99: 2 }),
    makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' }, { rps: 100, p99: 400, probeP99: 400 }),
    makeCell({ runtime: 'node', scenario: 'fib', mode: 'async' }, { rps: 90, p99: 440, probeP99: 420 }),
    makeCell({ runtime: 'node', scenario: 'fib', mode: 'worker' }, { rps: 300, p99: 100, probeP99: 4 }),
    makeCell({ runtime: 'bun', scenario: 'sleep', mode: 'sync' }, { rps: 50, p99: 2000, probeP99: 2000 }),
    makeCell({ runtime: 'bun', scenario: 'sleep', mode: 'async' }, { rps: 5000, p99: 20, probeP99: 1 }),
  ];

  it('gives hono over raw for hello only, async and worker over sync where they exist', () => {
    expect(comparisons(results, false)).toEqual([
      { runtime: 'node', scenario: 'hello', honoOverRaw: { throughput: 0.8, p99: 1.2, probeP99: 1.5 } },
      {
        runtime: 'node',
        scenario: 'fib',
        asyncOverSync: { throughput: 0.9, p99: 1.1, probeP99: 1.05 },
        workerOverSync: { throughput: 3, p99: 0.25, probeP99: 0.01 },
      },
      { runtime: 'bun', scenario: 'sleep', asyncOverSync: { throughput: 100, p99: 0.01, probeP99: 0.0005 } },
    ]);
  });

  it('keeps a pair with null ratios when one side is missing', () => {
    const onlySync = [makeCell({ runtime: 'deno', scenario: 'hash', mode: 'sync' })];
    expect(comparisons(onlySync, false)).toEqual([
      { runtime: 'deno', scenario: 'hash', asyncOverSync: { throughput: null, p99: null, probeP99: null } },
    ]);
  });
});

describe('withRatioToFastest', () => {
  const results = [
    makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync' }, { rps: 500 }),
    makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync' }, { rps: 800 }),
    makeCell({ runtime: 'deno', scenario: 'hash', mode: 'sync', status: 'invalid', reason: '1 error over 3 runs' }, { rps: 2000 }),
    makeCell({ runtime: 'node', scenario: 'hash', mode: 'async' }, { rps: 1000 }),
  ];

  it('divides by the fastest ok runtime in the same scenario and mode', () => {
    const ratios = withRatioToFastest(results).map((c) => c.ratioToFastest);
    // deno is faster but invalid, so bun is the reference; node async is alone in its mode.
    expect(ratios).toEqual([0.625, 1, undefined, 1]);
  });

  it('leaves the input untouched and drops a stale ratio from a cell that is no longer ok', () => {
    const stale = makeCell({ runtime: 'bun', scenario: 'file', mode: 'sync', status: 'failed', ratioToFastest: 1 });
    const [out] = withRatioToFastest([stale]);
    expect(out).not.toHaveProperty('ratioToFastest');
    expect(stale.ratioToFastest).toBe(1);
    expect(results[0]).not.toHaveProperty('ratioToFastest');
  });
});
