// A --sweep end to end on one runtime: sized cells measured, the crossover stated, the hop timed.
// Two sizes and sub-second runs: it checks the shape of what a sweep reports, never its timings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/bench/plan.ts';
import { writeBenchReport } from '../../src/report/bench-files.ts';
import { sweepFeatures } from '../../src/report/sweep-section.ts';
import { recordingProgress } from './helpers.ts';
import { benchRun, type BenchOutcome } from './bench-run.ts';

let tmp: string;
let outcome: BenchOutcome;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-sweep-'));
  const argv = ['--quick', '--runtimes', 'node', '--sweep', 'json:kb=4,64', '--runs', '3', '--duration', '0.2', '--warmup', '0.1'];
  const data = ['--data-dir', join(tmp, 'data'), '--file-count', '1', '--file-size', '1024', '--out', join(tmp, 'run')];
  outcome = await benchRun(parsePlan([...argv, ...data]), { progress: recordingProgress() });
  writeBenchReport(outcome.runDir, outcome.report, sweepFeatures);
}, 60_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench --sweep json:kb=4,64 on node', () => {
  it('measures sync and worker at each size, each cell carrying its query', () => {
    const cells = outcome.report.results.map((c) => `${c.mode} ${c.query ?? ''} ${c.status}`);
    expect(cells.sort()).toEqual(['sync kb=4 ok', 'sync kb=64 ok', 'worker kb=4 ok', 'worker kb=64 ok']);
    expect(outcome.report.results.find((c) => c.mode === 'worker' && c.query === 'kb=64')?.path).toBe('/json/worker?kb=64');
    expect(outcome.report.parameters.sweep).toEqual({ scenario: 'json', parameter: 'kb', values: ['4', '64'] });
  });

  it('states a crossover and a hop cost per size in report.json and report.md', () => {
    const node = outcome.report.sweep?.runtimes.find((r) => r.runtime === 'node');
    expect(node?.points.map((p) => p.value)).toEqual(['4', '64']);
    expect(['every', 'from', 'never', 'no-crossover']).toContain(node?.throughput.kind);
    for (const point of node?.points ?? []) {
      expect(point.throughput.ratio?.pairs ?? 0, point.throughput.note).toBeGreaterThanOrEqual(3);
      expect(point.hopMs?.pairs ?? 0).toBeGreaterThanOrEqual(6);
      expect(point.hopMs?.ci95).toHaveLength(2);
    }
    const md = readFileSync(join(outcome.runDir, 'report.md'), 'utf8');
    expect(md).toContain('## Where offloading starts to pay: json by kb');
    expect(md).toMatch(/- node: (the worker serves more requests\/s than sync|the worker did not win at any kb|the worker won at)/);
    expect(md).toMatch(/- node: the hop \(input and answer between threads, apart from the work\) -?[\d.]+ ms \(/);
    expect(readFileSync(join(outcome.runDir, 'report.html'), 'utf8')).toContain('<section id="sweep">');
  });
});
