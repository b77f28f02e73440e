import { describe, expect, it } from 'vitest';
import type { CellResult } from '../src/model/cell.ts';
import { mergeReport } from '../src/report/merge.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { reportParameters } from '../src/bench/settings.ts';
import { connectionsSwept } from '../src/model/parameters.ts';
import { environment, makeCell, parameters, runtimes } from './fixtures.ts';

describe('--connections as a list (closed-loop concurrency sweep)', () => {
  it('a list is a sweep; one number is not', () => {
    const swept = (plan: ReturnType<typeof parsePlan>) =>
      connectionsSwept({ parameters: reportParameters(plan, { cold: undefined, noWrk: undefined }) });
    const sweep = parsePlan(['--connections', '1,10,100,1000']);
    expect(sweep.connections).toEqual([1, 10, 100, 1000]);
    expect(swept(sweep)).toBe(true);
    const one = parsePlan(['--connections', '100']);
    expect(one.connections).toEqual([100]);
    expect(swept(one)).toBe(false);
    // Repeats are dropped: a list that comes down to one count is one count, not a sweep.
    expect(swept(parsePlan(['--connections', '10,10']))).toBe(false);
    expect(() => parsePlan(['--connections', '1,0'])).toThrow(/--connections must be an integer from 1/);
  });

  const cells = [1, 10, 100].flatMap((connections) => [
    {
      ...makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync' }),
      connections,
      requestsPerSec: { median: 45, ci95: [44, 46] as [number, number], cv: 0.01, runs: [45, 45, 45] },
    },
    {
      ...makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async' }),
      connections,
      requestsPerSec: { median: 45 * connections, ci95: [1, 2] as [number, number], cv: 0.01, runs: [1, 1, 1] },
    },
  ]);
  const report = mergeReport({
    createdAt: '2026-11-23T00:00:00Z',
    status: 'complete',
    environment,
    parameters: { ...parameters, connectionsSweep: [1, 10, 100] },
    runtimes,
    results: cells,
  });

  it('cells at different counts stay apart, in count order, each compared with its own count', () => {
    expect(report.results).toHaveLength(6);
    expect(report.results.filter((c) => c.mode === 'async').map((c) => c.connections)).toEqual([1, 10, 100]);
    expect(report.comparisons.map((c) => [c.connections, c.asyncOverSync?.throughput])).toEqual([
      [1, 1],
      [10, 10],
      [100, 100],
    ]);
  });

  it('Markdown gets a sweep table (req/s · p99 per count) and labels modes with their count; HTML a chart per scenario', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('## Concurrency sweep (closed loop)');
    expect(md).toMatch(/\| sleep +\| node +\| async +\| 45\.0 · [^|]+\| 450 · [^|]+\| 4,500 · /);
    expect(md).toContain('sync @100');
    expect(md).toContain('node @10 conns: async vs sync, requests/s: 10.00x');
    const html = renderHtml(report, { chartJs: '', errorBarsJs: '' });
    expect(html.match(/<canvas[^>]*data-chart="concurrency"/g)).toHaveLength(1);
  });

  it('without a sweep every cell still carries its count, and nothing names it: renders as a report from before cells carried one', () => {
    const atTen = cells.filter((c) => c.connections === 10);
    const merge = (results: CellResult[]) =>
      mergeReport({ createdAt: '2026-11-23T00:00:00Z', status: 'complete', environment, parameters, runtimes, results });
    const current = merge(atTen);
    const older = merge(atTen.map(({ connections: _, ...cell }) => cell));
    expect(current.results.map((c) => c.connections)).toEqual([10, 10]);
    expect(current.comparisons).toHaveLength(1);
    expect(current.comparisons[0]).not.toHaveProperty('connections');
    const md = renderMarkdown(current);
    expect(md).not.toContain('@10');
    expect(md).not.toContain('Concurrency sweep');
    expect(md).toBe(renderMarkdown(older));
    const html = renderHtml(current, { chartJs: '', errorBarsJs: '' });
    expect(html).not.toContain('data-chart="concurrency"');
    // The embedded report.json differs (the cells' counts); everything drawn from it does not.
    const drawn = (page: string) => page.replace(/<script type="application\/json" id="report-data">.*?<\/script>/s, '');
    expect(drawn(html)).toBe(drawn(renderHtml(older, { chartJs: '', errorBarsJs: '' })));
  });
});
