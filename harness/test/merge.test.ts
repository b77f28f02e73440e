import { describe, expect, it } from 'vitest';
import { mergeReport } from '../src/report/merge.ts';
import type { CellResult } from '../src/model/cell.ts';
import { environment, makeCell, parameters, runtimes } from './fixtures.ts';

const label = (c: CellResult) => `${c.runtime}/${c.scenario}/${c.mode}`;

function merge(results: CellResult[]) {
  return mergeReport({ createdAt: '2025-01-02T03:04:05.000Z', status: 'complete', environment, parameters, runtimes, results });
}

describe('mergeReport', () => {
  it('sorts by the given runtime order, then scenario, then mode', () => {
    const report = merge([
      makeCell({ runtime: 'bun', scenario: 'hash', mode: 'async' }),
      makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync' }),
      makeCell({ runtime: 'node', scenario: 'fib', mode: 'worker' }),
      makeCell({ runtime: 'bun', scenario: 'hello', mode: 'raw' }),
      makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' }),
      makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync' }),
      makeCell({ runtime: 'node', scenario: 'file', mode: 'async' }),
      makeCell({ runtime: 'bun', scenario: 'hello', mode: 'baseline' }),
      makeCell({ runtime: 'node', scenario: 'fib', mode: 'async' }),
    ]);
    expect(report.results.map(label)).toEqual([
      'node/file/async',
      'node/fib/sync',
      'node/fib/async',
      'node/fib/worker',
      'node/sleep/sync',
      'bun/hello/baseline',
      'bun/hello/raw',
      'bun/hash/sync',
      'bun/hash/async',
    ]);
  });

  it('keeps the later of two results for the same cell (a re-run)', () => {
    const report = merge([
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync', status: 'failed', reason: 'server died' }),
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'async' }, { rps: 3000 }),
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync' }, { rps: 1500 }),
    ]);
    expect(report.results.map(label)).toEqual(['node/hash/sync', 'node/hash/async']);
    expect(report.results[0]?.status).toBe('ok');
    expect(report.results[0]?.requestsPerSec.median).toBe(1500);
    expect(report.comparisons[0]?.asyncOverSync?.throughput).toBe(2);
  });

  it('sets the schema version, passes the context through and adds ratios to the fastest', () => {
    const report = merge([
      makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync' }, { rps: 800 }),
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync' }, { rps: 400 }),
    ]);
    expect(report.schemaVersion).toBe(1);
    expect(report.createdAt).toBe('2025-01-02T03:04:05.000Z');
    expect(report.status).toBe('complete');
    expect(report.environment).toBe(environment);
    expect(report.parameters).toBe(parameters);
    expect(report.runtimes).toBe(runtimes);
    expect(report.results.map((c) => c.ratioToFastest)).toEqual([0.5, 1]);
  });
});
