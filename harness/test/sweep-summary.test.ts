import { describe, expect, it } from 'vitest';
import { compareReports } from '../src/compare/compare.ts';
import { mergeReport } from '../src/report/merge.ts';
import { crossover, MIN_P99_SAMPLES, sweepPoint, sweepSummary, verdictOf } from '../src/report/sweep-summary.ts';
import { sweepSection } from '../src/report/sweep-section.ts';
import { crossoverSentence } from '../src/report/text/sweep.ts';
import { lowerRank, medianWithInterval } from '../src/stats/median-interval.ts';
import type { Crossover, SweepVerdict } from '../src/model/sweep.ts';
import type { CellResult } from '../src/model/cell.ts';
import { environment, makeCell, makeRun, parameters, runtimes } from './fixtures.ts';

const points = (...verdicts: SweepVerdict[]) => verdicts.map((verdict, i) => ({ value: String(16 * 4 ** i), verdict }));

describe('crossover', () => {
  it('the worker wins at every size', () => {
    expect(crossover(points('wins', 'wins', 'wins'))).toEqual({ kind: 'every', unknown: [] });
  });

  it('never wins', () => {
    expect(crossover(points('loses', 'no-difference', 'loses'))).toEqual({ kind: 'never', unknown: [] });
  });

  it('wins from a middle size on', () => {
    expect(crossover(points('loses', 'no-difference', 'wins', 'wins'))).toEqual({ kind: 'from', value: '256', unknown: [] });
  });

  it('a no-difference between wins moves the crossover past it', () => {
    expect(crossover(points('wins', 'no-difference', 'wins', 'wins'))).toEqual({ kind: 'from', value: '256', unknown: [] });
  });

  it('a win at a middle size but not at the largest is no crossover', () => {
    expect(crossover(points('loses', 'wins', 'no-difference'))).toEqual({ kind: 'no-crossover', unknown: [] });
  });

  it('a size without an interval breaks a run of wins and is named', () => {
    expect(crossover(points('wins', 'unknown', 'wins'))).toEqual({ kind: 'from', value: '256', unknown: ['64'] });
    expect(crossover(points('wins', 'wins', 'unknown'))).toEqual({ kind: 'no-crossover', unknown: ['256'] });
  });
});

describe('verdictOf', () => {
  it('reads an interval against 1 on the worker side: above for requests/s, below for p99', () => {
    expect(verdictOf([1.1, 1.3], 'above')).toBe('wins');
    expect(verdictOf([0.7, 0.9], 'above')).toBe('loses');
    expect(verdictOf([0.9, 1.1], 'above')).toBe('no-difference');
    expect(verdictOf([0.7, 0.9], 'below')).toBe('wins');
    expect(verdictOf([1.1, 1.3], 'below')).toBe('loses');
    expect(verdictOf([0.95, 1], 'below')).toBe('no-difference');
  });
});

/** A sized cell whose runs, round by round, serve `rps` requests/s with a probe p99 of `probeP99` ms. */
function sized(mode: 'sync' | 'worker', kb: string, rps: number[], probeP99: number[], probeCount = 400): CellResult {
  const runs = rps.map((r, i) =>
    makeRun({ requestsPerSec: r, round: i + 1, probeLatencyMs: { p50: 1, p99: probeP99[i] ?? 1, max: 9, count: probeCount } }),
  );
  return makeCell({ runtime: 'node', scenario: 'json', mode, query: `kb=${kb}`, runDetails: runs }, { rps: rps[0] });
}

describe('sweepPoint', () => {
  it('gives the paired ratios, their intervals and verdicts, and carries the hop', () => {
    const sync = sized('sync', '64', [100, 102, 98, 101], [50, 52, 49, 51]);
    const worker = {
      ...sized('worker', '64', [150, 149, 151, 152], [5, 5.2, 4.9, 5.1]),
      hopMs: { median: 0.2, ci95: [0.1, 0.3] as [number, number], pairs: 50 },
    };
    const point = sweepPoint('64', sync, worker);
    expect(point.throughput.verdict).toBe('wins');
    expect(point.throughput.ratio?.pairs).toBe(4);
    expect(point.throughput.ratio?.ratio).toBeCloseTo(1.5, 1);
    expect(point.probeP99.verdict).toBe('wins');
    expect(point.probeP99.ratio?.ratio).toBeCloseTo(0.1, 2);
    expect(point.hopMs?.median).toBe(0.2);
  });

  it('says "not enough samples" for a p99 from fewer probe answers than it needs', () => {
    const sync = sized('sync', '64', [100, 102, 98], [50, 52, 49], 40);
    const worker = sized('worker', '64', [150, 149, 151], [5, 5, 5], 40);
    const point = sweepPoint('64', sync, worker);
    expect(point.probeP99).toEqual({
      verdict: 'unknown',
      note: `not enough samples: a p99 needs ${MIN_P99_SAMPLES} probe answers a run, the runs had from 40`,
    });
    expect(point.throughput.verdict).toBe('wins');
  });

  it('has no figure when a side failed', () => {
    const sync = { ...sized('sync', '64', [100, 100, 100], [1, 1, 1]), status: 'failed' as const };
    expect(sweepPoint('64', sync, sized('worker', '64', [1, 1, 1], [1, 1, 1])).throughput).toEqual({
      verdict: 'unknown',
      note: 'sync cell not ok',
    });
  });
});

const sweepParameters = { ...parameters, sweep: { scenario: 'json', parameter: 'kb', values: ['16', '1024'] } };
const sweepCells = [
  sized('sync', '16', [1000, 1010, 990], [2, 2, 2]),
  sized('worker', '16', [700, 690, 705], [2, 2.1, 2]),
  sized('sync', '1024', [50, 51, 49], [40, 42, 41]),
  sized('worker', '1024', [90, 92, 91], [3, 3, 3]),
];

describe('sweepSummary in the merged report', () => {
  const report = mergeReport({
    createdAt: '2026-11-25T20:00:00Z',
    status: 'complete',
    environment,
    parameters: sweepParameters,
    runtimes,
    results: sweepCells,
  });

  it('keeps the sizes apart and finds the crossover per runtime', () => {
    expect(report.results.map((c) => `${c.mode} ${c.query}`)).toEqual(['sync kb=16', 'sync kb=1024', 'worker kb=16', 'worker kb=1024']);
    expect(report.comparisons.map((c) => [c.query, c.workerOverSync?.throughput])).toEqual([
      ['kb=16', 0.7],
      ['kb=1024', 1.8],
    ]);
    const node = report.sweep?.runtimes[0];
    expect(node?.throughput).toEqual({ kind: 'from', value: '1024', unknown: [] });
    expect(node?.probeP99).toEqual({ kind: 'from', value: '1024', unknown: [] });
    expect(sweepSummary({ parameters, results: sweepCells })).toBeUndefined();
  });

  it('renders the crossover sentences in Markdown and HTML', () => {
    const section = sweepSection(report);
    expect(section?.markdown()).toContain('node: the worker serves more requests/s than sync from kb=1024 on');
    expect(section?.html()).toContain('<section id="sweep">');
    expect(section?.headlines[0]?.figure).toBe('kb=1024');
  });

  it('compare keeps a sized cell apart from an unsized one, and older reports still compare', () => {
    const unsized = mergeReport({
      createdAt: '2026-11-24T20:00:00Z',
      status: 'complete',
      environment,
      parameters,
      runtimes,
      results: [makeCell({ runtime: 'node', scenario: 'json', mode: 'sync' })],
    });
    const c = compareReports(unsized, report, { threshold: 0.05 });
    expect(c.cells).toEqual([]);
    expect(c.added.map((k) => k.query)).toEqual(['kb=16', 'kb=1024', 'kb=16', 'kb=1024']);
    expect(c.removed).toEqual([{ runtime: 'node', scenario: 'json', mode: 'sync' }]);
    expect(compareReports(unsized, unsized, { threshold: 0.05 }).cells).toHaveLength(1);
  });
});

describe('crossoverSentence', () => {
  it('says each outcome honestly', () => {
    const none: Crossover = { kind: 'never', unknown: [] };
    expect(crossoverSentence('bun', 'kb', none, 'throughput', [])).toBe('bun: the worker did not win at any kb measured on requests/s');
    expect(crossoverSentence('bun', 'kb', { kind: 'every', unknown: ['64'] }, 'probeP99', [])).toBe(
      "bun: the worker keeps the bystander's p99 below sync's at every kb measured (no interval at kb=64)",
    );
  });
});

describe('medianWithInterval', () => {
  it('uses the binomial order statistics and needs six values', () => {
    expect(lowerRank(5)).toBe(0);
    expect(lowerRank(6)).toBe(1);
    // n = 100: the textbook ranks 40 and 61.
    expect(lowerRank(100)).toBe(40);
    expect(medianWithInterval([3, 1, 2])).toEqual({ median: 2 });
    expect(medianWithInterval([1, 2, 3, 4, 5, 6])).toEqual({ median: 3.5, ci95: [1, 6] });
  });
});

describe("a sweep point's words", () => {
  const measure = (ratio: number, ci95: [number, number]) => ({ verdict: 'wins' as const, ratio: { ratio, ci95, pairs: 4 } });
  it('says requests/s in the words of every report: sized, unsized, no gain, could not tell', async () => {
    const { measureText } = await import('../src/report/text/sweep.ts');
    expect(measureText(measure(1.23, [1.1, 1.4]))).toBe('faster: 1.23x, 1.10–1.40x (4 pairs)');
    expect(measureText(measure(1.5, [1.1, 2.2]))).toBe('faster, by 10 to 120 % (too uncertain to size) (4 pairs)');
    expect(measureText({ ...measure(1.0, [0.97, 1.03]), verdict: 'no-difference' })).toBe('no gain: 1.00x, 0.97–1.03x (4 pairs)');
    expect(measureText({ ...measure(1.0, [0.8, 1.2]), verdict: 'no-difference' })).toBe('could not tell: 0.80–1.20x (4 pairs)');
  });

  it("says the bystander's p99 as waiting: below 1 the bystander waits less, above it longer", async () => {
    const { measureText } = await import('../src/report/text/sweep.ts');
    expect(measureText(measure(0.52, [0.45, 0.6]), 'probeP99')).toBe('waits less: 0.52x, 0.45–0.60x (4 pairs)');
    expect(measureText({ ...measure(1.3, [1.2, 1.4]), verdict: 'loses' }, 'probeP99')).toBe('waits longer: 1.30x, 1.20–1.40x (4 pairs)');
    expect(measureText(measure(0.3, [0.1, 0.9]), 'probeP99')).toBe('waits 1.1x to 10x less (too uncertain to size) (4 pairs)');
    expect(measureText(measure(0.004, [0.0026, 0.0057]), 'probeP99')).toBe('waits 175x to 385x less (too uncertain to size) (4 pairs)');
    expect(measureText({ ...measure(1.0, [0.7, 1.4]), verdict: 'no-difference' }, 'probeP99')).toBe('could not tell: 0.70–1.40x (4 pairs)');
    expect(measureText({ verdict: 'unknown', note: 'sync cell not ok' }, 'probeP99')).toBe('sync cell not ok');
  });
});
