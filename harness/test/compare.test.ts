import { describe, expect, it } from 'vitest';
import { compareReports, CompareError } from '../src/compare/compare.ts';
import type { CellComparison, ComparedCell, ReportComparison } from '../src/compare/compare.ts';
import type { Report } from '../src/model/report.ts';
import { welchTTest } from '../src/stats/t-distribution.ts';
import { environment, makeReport, parameters, runtimes } from './fixtures.ts';
import { cellOf, FIB_WORKER, HASH_ASYNC, HASH_SYNC, HELLO_RAW } from './fixtures/compare/reports.ts';

const OPTIONS = { threshold: 0.05 };

function compared(cell: CellComparison | undefined): ComparedCell {
  if (cell?.kind !== 'compared') throw new Error(`expected a compared cell, got ${cell?.kind}`);
  return cell;
}

/** Compares one cell measured with the given runs before and after. */
function compareOne(before: number[], after: number[], p99s: { before?: number[]; after?: number[] } = {}): ReportComparison {
  return compareReports(makeReport([cellOf(HASH_SYNC, before, p99s.before)]), makeReport([cellOf(HASH_SYNC, after, p99s.after)]), OPTIONS);
}

describe('welchTTest', () => {
  it("matches scipy's ttest_ind(equal_var=False), including the fractional df", () => {
    const test = welchTTest([980, 1003, 950], [1000, 1030, 990, 1005]);
    expect(test?.t).toBeCloseTo(1.6291090373, 9);
    expect(test?.df).toBeCloseTo(3.2163090437, 9);
    expect(test?.p).toBeCloseTo(0.1956550635, 8);
  });

  it('needs 2 runs on each side', () => {
    expect(welchTTest([1000], [800, 810])).toBeNull();
  });

  it('gives p = 1 for identical runs and p = 0 for an exact shift without spread', () => {
    expect(welchTTest([5, 5, 5], [5, 5, 5])?.p).toBe(1);
    expect(welchTTest([5, 5, 5], [6, 6, 6])).toMatchObject({ t: Number.POSITIVE_INFINITY, p: 0 });
  });
});

describe('compareReports: throughput', () => {
  it('finds no change between identical runs, and nothing to fail on', () => {
    const c = compareOne([1000, 1010, 990], [1000, 1010, 990]);
    const cell = compared(c.cells[0]);
    expect(cell.verdict).toBe('unchanged');
    expect(cell.throughput).toMatchObject({ baseline: 1000, current: 1000, ratio: 1, change: 0 });
    expect(cell.throughput.test?.p).toBe(1);
    expect(c.hasRegression).toBe(false);
    expect(c.counts).toMatchObject({ regressed: 0, improved: 0, unchanged: 1 });
  });

  it('detects a 20 % drop over 3 runs with a small p', () => {
    const c = compareOne([1000, 1010, 990], [800, 810, 790]);
    const cell = compared(c.cells[0]);
    expect(cell.verdict).toBe('regressed');
    expect(cell.throughput.verdict).toBe('regressed');
    expect(cell.throughput.change).toBeCloseTo(-0.2, 12);
    expect(cell.throughput.test?.t).toBeCloseTo(-24.4949, 3);
    expect(cell.throughput.test?.df).toBeCloseTo(4, 9);
    expect(cell.throughput.test?.p).toBeCloseTo(1.6483e-5, 8);
    expect(c.hasRegression).toBe(true);
    expect(c.counts.regressed).toBe(1);
  });

  it('does not call a change within the noise a regression', () => {
    const cell = compared(compareOne([1000, 1150, 880], [930, 1080, 860]).cells[0]);
    expect(cell.throughput.change).toBeLessThan(-0.05);
    expect(cell.throughput.test?.p).toBeGreaterThan(0.05);
    expect(cell.verdict).toBe('unchanged');
  });

  it('does not call a significant change below the threshold a regression', () => {
    const cell = compared(compareOne([1000, 1001, 999], [980, 981, 979]).cells[0]);
    expect(cell.throughput.test?.p).toBeLessThan(0.001);
    expect(cell.verdict).toBe('unchanged');
  });

  it('reports an improvement without failing', () => {
    const c = compareOne([800, 810, 790], [1000, 1010, 990]);
    expect(compared(c.cells[0]).verdict).toBe('improved');
    expect(c.counts.improved).toBe(1);
    expect(c.hasRegression).toBe(false);
  });

  it('calls a big change with only 1 run "not testable", never a regression', () => {
    const c = compareOne([1000], [500]);
    const cell = compared(c.cells[0]);
    expect(cell.verdict).toBe('not-testable');
    expect(cell.throughput.test).toBeNull();
    expect(cell.throughput.change).toBeCloseTo(-0.5, 12);
    expect(cell.runs).toEqual({ baseline: 1, current: 1 });
    expect(c.counts.notTestable).toBe(1);
    expect(c.hasRegression).toBe(false);
  });

  it('honours a larger threshold and a stricter alpha', () => {
    const before = makeReport([cellOf(HASH_SYNC, [1000, 1010, 990])]);
    const after = makeReport([cellOf(HASH_SYNC, [800, 810, 790])]);
    expect(compareReports(before, after, { threshold: 0.25 }).hasRegression).toBe(false);
    expect(compareReports(before, after, { threshold: 0.05, alpha: 1e-6 }).hasRegression).toBe(false);
  });
});

describe('compareReports: p99 latency', () => {
  it('detects a p99 rise as a regression even when throughput holds', () => {
    const cell = compared(compareOne([1000, 1010, 990], [1000, 1010, 990], { before: [10, 11, 10], after: [20, 21, 20] }).cells[0]);
    expect(cell.p99).toMatchObject({ baseline: 10, current: 20, verdict: 'regressed' });
    expect(cell.throughput.verdict).toBe('unchanged');
    expect(cell.verdict).toBe('regressed');
  });

  it('ignores a 1 ms step, the resolution of autocannon', () => {
    const cell = compared(compareOne([1000, 1000, 1000], [1000, 1000, 1000], { before: [1, 1, 1], after: [2, 2, 2] }).cells[0]);
    expect(cell.p99.test?.p).toBe(0);
    expect(cell.p99.verdict).toBe('unchanged');
  });

  it('uses the median of the per-run p99s', () => {
    const cell = compared(compareOne([1000, 1000, 1000], [1000, 1000, 1000], { before: [10, 30, 12], after: [11, 11, 50] }).cells[0]);
    expect(cell.p99.baseline).toBe(12);
    expect(cell.p99.current).toBe(11);
  });
});

describe('compareReports: cells that cannot be compared', () => {
  it('lists cells that are not ok on either side, with their status, and never counts them', () => {
    const before = makeReport([cellOf(HASH_SYNC, [1000, 1000, 1000])]);
    const after = makeReport([cellOf(HASH_SYNC, [10, 10, 10], undefined, { status: 'invalid', reason: '3 errors over 3 runs' })]);
    const c = compareReports(before, after, OPTIONS);
    expect(c.cells[0]).toMatchObject({
      kind: 'not-compared',
      baseline: { status: 'ok' },
      current: { status: 'invalid', reason: '3 errors over 3 runs' },
    });
    expect(c.counts.notCompared).toBe(1);
    expect(c.hasRegression).toBe(false);
  });

  it('lists cells present in only one report on both sides', () => {
    const before = makeReport([cellOf(HASH_SYNC, [1000, 1000]), cellOf(FIB_WORKER, [500, 500])]);
    const after = makeReport([cellOf(HASH_SYNC, [1000, 1000]), cellOf(HASH_ASYNC, [2000, 2000]), cellOf(HELLO_RAW, [9000, 9000])]);
    const c = compareReports(before, after, OPTIONS);
    expect(c.cells).toHaveLength(1);
    expect(c.removed).toEqual([FIB_WORKER]);
    expect(c.added).toEqual([HASH_ASYNC, HELLO_RAW]);
    expect(c.counts).toMatchObject({ added: 2, removed: 1 });
  });
});

describe('compareReports: what else differs', () => {
  const cells = [cellOf(HASH_SYNC, [1000, 1000])];

  it('lists each differing parameter with both values, including one only one report has', () => {
    const after = makeReport(cells, {
      parameters: { ...parameters, connections: 50, fileCache: 'cold', newKnob: 3 } as Report['parameters'],
    });
    const c = compareReports(makeReport(cells), after, OPTIONS);
    expect(c.parameterDifferences).toEqual([
      { field: 'connections', baseline: 100, current: 50 },
      { field: 'fileCache', baseline: 'warm', current: 'cold' },
      { field: 'newKnob', baseline: null, current: 3 },
    ]);
  });

  it('finds nothing when the reports were made alike', () => {
    const c = compareReports(makeReport(cells), makeReport(cells), OPTIONS);
    expect(c.parameterDifferences).toEqual([]);
    expect(c.environmentDifferences).toEqual([]);
    expect(c.runtimeVersionDifferences).toEqual([]);
  });

  it('lists runtime versions and environment differences', () => {
    const after = makeReport(cells, {
      runtimes: [{ name: 'node', version: '22.1.0', status: 'ok' }, ...runtimes.slice(1, 2)],
      environment: { ...environment, kernel: '6.9.0', cpu: { model: 'AMD EPYC 7763', count: 8 }, commit: 'abc' },
    });
    const c = compareReports(makeReport(cells), after, OPTIONS);
    expect(c.runtimeVersionDifferences).toEqual([
      { runtime: 'node', baseline: '20.20.2', current: '22.1.0' },
      { runtime: 'deno', baseline: '', current: null },
    ]);
    expect(c.environmentDifferences.map((d) => d.field)).toEqual(['kernel', 'cpu count', 'commit']);
    expect(c.environmentDifferences[1]).toEqual({ field: 'cpu count', baseline: 4, current: 8 });
  });

  it('tells a run with the servers on another host from a local one', () => {
    const serverHost = {
      host: 'bench-2',
      os: 'Debian 12',
      kernel: '6.1',
      cpu: { model: 'EPYC', count: 8 },
      memoryBytes: 2 ** 34,
      dir: '/srv/bench',
      bind: '10.0.0.2',
      bindSource: 'flag' as const,
    };
    const remote = makeReport(cells, {
      environment: {
        ...environment,
        serverHost,
        network: { rttMs: { median: 0.2, min: 0.1, max: 0.3, samples: 20, runtime: 'node' }, mtu: {} },
      },
    });
    const c = compareReports(makeReport(cells), remote, OPTIONS);
    expect(c.environmentDifferences).toEqual([
      { field: 'server host', baseline: 'the load host', current: 'bench-2 (EPYC × 8)' },
      { field: 'HTTP round trip ms', baseline: null, current: 0.2 },
    ]);
  });

  it('refuses reports of different schema versions', () => {
    const other = { ...makeReport(cells), schemaVersion: 2 } as unknown as Report;
    expect(() => compareReports(makeReport(cells), other, OPTIONS)).toThrow(CompareError);
    expect(() => compareReports(makeReport(cells), other, OPTIONS)).toThrow(/schema versions differ \(baseline 1, current 2\)/);
    expect(() => compareReports(other, other, OPTIONS)).toThrow(/schema version 2 is not supported/);
  });

  it('refuses a negative threshold or an alpha outside (0, 1)', () => {
    expect(() => compareReports(makeReport(cells), makeReport(cells), { threshold: -0.1 })).toThrow(CompareError);
    expect(() => compareReports(makeReport(cells), makeReport(cells), { threshold: 0.05, alpha: 1 })).toThrow(CompareError);
  });
});
