import { describe, expect, it } from 'vitest';
import { processComparisons } from '../src/report/process-ratios.ts';
import { mergeReport } from '../src/report/merge.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { parsePlan, processList } from '../src/bench/plan.ts';
import { environment, makeCell, parameters, runtimes } from './fixtures.ts';

const sleep = (mode: 'sync' | 'async', processes: number, rps: number, rssMB: number, probeP99 = 2) =>
  makeCell({ runtime: 'node', scenario: 'sleep', mode, processes, server: { cpuPercent: 10, rssMB } }, { rps, probeP99 });

describe('--processes in the plan', () => {
  it('takes "auto" and counts, without repeats, and refuses anything else with one line', () => {
    expect(processList('1,auto,1,4')).toEqual([1, 'auto', 4]);
    expect(processList(undefined)).toBeUndefined();
    expect(() => processList('1,0')).toThrow(/--processes takes "auto" or integers from 1 to 256/);
    expect(parsePlan(['--processes', '1,auto']).processes).toEqual([1, 'auto']);
    expect(parsePlan([]).processes).toBeUndefined();
    expect(parsePlan(['--client-cpus', '3']).clientCpus).toBe(3);
  });
});

describe('processComparisons', () => {
  it('sync xN over sync x1, async x1 over sync xN, async xN over async x1, each with total RSS', () => {
    const cells = [sleep('sync', 1, 50, 60, 900), sleep('sync', 2, 100, 130, 400), sleep('async', 1, 480, 62), sleep('async', 2, 470, 128)];
    const [c] = processComparisons(cells);
    expect(c).toMatchObject({ runtime: 'node', scenario: 'sleep', processes: 2 });
    expect(c?.syncNOverSync1).toMatchObject({ throughput: 2, probeP99: 0.4444, rss: 2.167, overRssMB: 130, baseRssMB: 60 });
    expect(c?.async1OverSyncN).toMatchObject({ throughput: 4.8, rss: 0.4769 });
    expect(c?.asyncNOverAsync1?.throughput).toBe(0.9792);
  });

  it('needs the 1-process cells to compare with, and a failed side gives null ratios', () => {
    expect(processComparisons([sleep('sync', 2, 100, 130)])).toEqual([]);
    const failed = { ...sleep('sync', 2, 0, 0), status: 'failed' as const };
    const [c] = processComparisons([sleep('sync', 1, 50, 60), failed]);
    expect(c?.syncNOverSync1).toMatchObject({ throughput: null, rss: null });
  });
});

describe('the report with process counts', () => {
  it('keeps x1 and x2 cells apart, compares modes within a count, and renders both new sections', () => {
    const pools = {
      threadpool: { size: 4, source: 'default' as const, what: "libuv's thread pool" },
      workers: { size: 2, source: 'default' as const, what: 'fib workers' },
    };
    const results = [sleep('sync', 1, 50, 60), sleep('sync', 2, 100, 130), sleep('async', 1, 480, 62), sleep('async', 2, 470, 128)].map(
      (c) => ({ ...c, pools }),
    );
    const report = mergeReport({ createdAt: '2026-11-23T00:00:00Z', status: 'complete', environment, parameters, runtimes, results });
    expect(report.results).toHaveLength(4);
    expect(report.comparisons.map((c) => [c.processes, c.asyncOverSync?.throughput])).toEqual([
      [1, 9.6],
      [2, 4.7],
    ]);
    expect(report.processComparisons).toHaveLength(1);
    const md = renderMarkdown(report);
    expect(md).toContain('## Processes');
    expect(md).toMatch(/\| node +\| sleep +\| sync x2 \/ sync x1 +\| +2\.00× \|/);
    expect(md).toContain('node x2: async vs sync, requests/s: 4.70x');
    expect(md).toMatch(/## Pools[\s\S]*\| node x1 +\| +4 \(default\) \|/);
    const html = renderHtml(report, { chartJs: '', errorBarsJs: '' });
    expect(html).toContain('<section id="processes">');
    expect(html).toContain('<td>sync x2 / sync x1</td><td>2.00×</td>');
    expect(html).toContain('<td>node x2</td><td>4 (default)</td>');
  });

  it('leaves a report without process counts as it was', () => {
    const report = mergeReport({
      createdAt: '2026-11-23T00:00:00Z',
      status: 'complete',
      environment,
      parameters,
      runtimes,
      results: [makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync' })],
    });
    expect(report.processComparisons).toBeUndefined();
    expect(renderMarkdown(report)).not.toContain('## Processes');
  });
});
