import { describe, expect, it } from 'vitest';
import { mergeReport, type MergeInput } from '../src/report/merge.ts';
import { withFeatures } from '../src/model/section.ts';
import { versionFeatures } from '../src/versions/versions-section.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import type { CellResult } from '../src/model/cell.ts';
import type { RuntimeEntry } from '../src/model/report.ts';
import { compareInstallations, versionBaselines } from '../src/versions/version-changes.ts';
import { environment, makeCell, makeRun, parameters } from './fixtures.ts';

/** As bench-cli does: merge, then what the versions feature derives. */
const merged = (input: MergeInput) => withFeatures(mergeReport(input), versionFeatures);
const markdownOf = (report: ReturnType<typeof merged>) => renderMarkdown(report, versionFeatures.sections?.(report));

const entry = (label: string, version: string, name: RuntimeEntry['name'] = 'node'): RuntimeEntry => ({
  name,
  version,
  status: 'ok',
  label,
});

/** A cell of one installation whose runs have these requests/s (p99 and probe p99 follow 1/rps). */
function cell(label: string, version: string, rps: number[], mode: CellResult['mode'] = 'sync'): CellResult {
  const runs = rps.map((r) =>
    makeRun({
      requestsPerSec: r,
      latencyMs: { p50: 1, p90: 2, p99: 10_000 / r, p999: 1, max: 1 },
      probeLatencyMs: { p50: 1, p99: 5_000 / r, max: 1, count: 10 },
    }),
  );
  const median = [...rps].sort((a, b) => a - b)[Math.floor(rps.length / 2)]!;
  return {
    ...makeCell(
      { runtime: label.startsWith('bun') ? 'bun' : 'node', scenario: 'fib', mode, runtimeLabel: label, runtimeVersion: version },
      { rps: median, p99: 10_000 / median, probeP99: 5_000 / median },
    ),
    requestsPerSec: { median, ci95: [median, median], cv: 0, runs: rps },
    runDetails: runs,
  };
}

describe('versions of one runtime compared', () => {
  it('the baseline is the oldest version unless --baseline names one; a runtime with one installation has none', () => {
    const entries = [entry('node@24', '24.21.0'), entry('node@20', '20.20.2'), entry('node@22', '22.23.3'), entry('bun', '1.4.5', 'bun')];
    expect(versionBaselines(entries)).toEqual({ node: 'node@20' });
    expect(versionBaselines(entries, 'node@24')).toEqual({ node: 'node@24' });
    expect(versionBaselines(entries.slice(3))).toEqual({});
  });

  it('finds a real 20 % gain significant and calls noise unchanged, with Welch p-values', () => {
    const results = [
      cell('node@22', '22.23.3', [100, 102, 98]),
      cell('node@24', '24.21.0', [120, 122, 118]),
      cell('node@22', '22.23.3', [100, 110, 90], 'async'),
      cell('node@24', '24.21.0', [104, 94, 112], 'async'),
    ];
    const v = compareInstallations(results, [entry('node@22', '22.23.3'), entry('node@24', '24.21.0')])!;
    expect(v.changes).toHaveLength(2);
    const [sync, async] = v.changes;
    expect(sync).toMatchObject({
      baseline: { label: 'node@22', version: '22.23.3' },
      current: { label: 'node@24', version: '24.21.0' },
      verdict: 'improved',
    });
    expect(sync!.throughput!.ratio).toBeCloseTo(1.2, 5);
    expect(sync!.throughput!.test!.p).toBeLessThan(0.01);
    expect(sync!.probeP99!.verdict).toBe('improved');
    expect(async!.verdict).toBe('unchanged');
    expect(async!.throughput!.test!.p).toBeGreaterThan(0.5);
  });

  it('a failed side is named instead of compared', () => {
    const failed = { ...cell('node@24', '24.21.0', []), status: 'failed' as const };
    const v = compareInstallations(
      [cell('node@22', '22.23.3', [100, 101]), failed],
      [entry('node@22', '22.23.3'), entry('node@24', '24.21.0')],
    )!;
    expect(v.changes[0]).toMatchObject({ reason: 'node@24 failed' });
    expect(v.changes[0]!.throughput).toBeUndefined();
  });

  it('lands in the merged report and its Markdown; reports without versions get neither', () => {
    const runtimes = [entry('node@22', '22.23.3'), entry('node@24', '24.21.0')];
    const report = merged({
      createdAt: '2026-11-23T00:00:00Z',
      status: 'complete',
      environment,
      parameters: { ...parameters, versionBaseline: 'node@24' },
      runtimes,
      results: [cell('node@22', '22.23.3', [100, 102, 98]), cell('node@24', '24.21.0', [120, 122, 118])],
    });
    expect(report.versions?.baselines).toEqual({ node: 'node@24' });
    expect(report.versions?.changes[0]).toMatchObject({ current: { label: 'node@22' }, verdict: 'regressed' });
    const md = markdownOf(report);
    expect(md).toContain('## Versions compared');
    expect(md).toMatch(/\| node@22 \(22\.23\.3\) vs node@24 \(24\.21\.0\) \| 120 → 100 \| -16\.7 % \|/);
    // In the words every change is said in (bench:ab, bench:compare): "regressed", never "worse".
    expect(md).toMatch(/\| ✗ regressed \|$/m);
    expect(md).not.toMatch(/worse|better|no significant change/);
    const plain = merged({
      createdAt: '2026-11-23T00:00:00Z',
      status: 'complete',
      environment,
      parameters,
      runtimes: [{ name: 'node', version: '24.21.0', status: 'ok' }],
      results: [makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' })],
    });
    expect(plain.versions).toBeUndefined();
    expect(markdownOf(plain)).not.toContain('Versions compared');
  });
});

describe('bench:compare between two reports of several versions', () => {
  it('pairs each installation with itself, not with another version of its runtime', async () => {
    const { compareReports } = await import('../src/compare/compare.ts');
    const runtimes = [entry('node@22', '22.23.3'), entry('node@24', '24.21.0')];
    const make = (r22: number[], r24: number[]) =>
      mergeReport({
        createdAt: '2026-11-23T00:00:00Z',
        status: 'complete',
        environment,
        parameters,
        runtimes,
        results: [cell('node@22', '22.23.3', r22), cell('node@24', '24.21.0', r24)],
      });
    const c = compareReports(make([100, 101, 99], [200, 201, 199]), make([100, 102, 98], [150, 151, 149]), { threshold: 0.05 });
    expect(c.cells.map((x) => [x.runtimeLabel, x.kind === 'compared' ? x.verdict : x.kind])).toEqual([
      ['node@22', 'unchanged'],
      ['node@24', 'regressed'],
    ]);
  });
});
