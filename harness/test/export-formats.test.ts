// The exports checked against each format's published shape: Bencher's BMF JSON schema
// (https://bencher.dev/bmf.json: an object of benchmarks, each an object of measures, each with a
// number `value` and optional number `lower_value`/`upper_value`) and github-action-benchmark's
// BenchmarkResult, which its customBiggerIsBetter/customSmallerIsBetter tools read (an array of
// { name: string, value: number, unit: string, range?: string, extra?: string }).
import { describe, expect, it } from 'vitest';
import { exportReport } from '../src/report/export-formats.ts';
import type { AbComparison } from '../src/model/ab.ts';
import { cellOf, HASH_ASYNC, HASH_SYNC } from './fixtures/compare/reports.ts';
import { makeReport } from './fixtures.ts';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The BMF schema's rules, as bmf.json states them (draft-07: patternProperties ".+", required ["value"]). */
function bmfViolations(json: unknown): string[] {
  if (!isObject(json)) return ['not an object'];
  const out: string[] = [];
  for (const [benchmark, measures] of Object.entries(json)) {
    if (benchmark === '') out.push('empty benchmark name');
    if (!isObject(measures)) {
      out.push(`${benchmark}: not an object`);
      continue;
    }
    for (const [measure, metric] of Object.entries(measures)) {
      if (!isObject(metric) || typeof metric.value !== 'number') out.push(`${benchmark}/${measure}: no number value`);
      else
        for (const key of ['lower_value', 'upper_value'])
          if (key in metric && typeof metric[key] !== 'number') out.push(`${benchmark}/${measure}: ${key} not a number`);
      if (measure.length > 64) out.push(`${measure}: a measure slug is at most 64 characters`);
    }
  }
  return out;
}

function actionViolations(json: unknown): string[] {
  if (!Array.isArray(json)) return ['not an array'];
  return json.flatMap((entry, i) => {
    if (!isObject(entry)) return [`${i}: not an object`];
    const bad: string[] = [];
    if (typeof entry.name !== 'string' || entry.name === '') bad.push(`${i}: name`);
    if (typeof entry.value !== 'number' || !Number.isFinite(entry.value)) bad.push(`${i}: value`);
    if (typeof entry.unit !== 'string') bad.push(`${i}: unit`);
    for (const key of ['range', 'extra']) if (key in entry && typeof entry[key] !== 'string') bad.push(`${i}: ${key}`);
    for (const key of Object.keys(entry)) if (!['name', 'value', 'unit', 'range', 'extra'].includes(key)) bad.push(`${i}: unknown ${key}`);
    return bad;
  });
}

const failed = { ...cellOf(HASH_ASYNC, [1, 2, 3]), status: 'failed' as const };
// Skewed runs: median 1010, mean 1036.67, so a value taken from the wrong statistic shows.
const report = makeReport([cellOf(HASH_SYNC, [1000, 1010, 1100]), failed]);
// Two runs: too few for an interval, so the report's ci95 collapsed to the median and says why.
const twoRuns = makeReport([cellOf(HASH_SYNC, [1000, 1100])]);
const MEAN = 1036.67;

const ab: AbComparison = {
  cells: [
    {
      runtime: 'node',
      scenario: 'hash',
      mode: 'sync',
      verdict: 'regressed',
      ratio: 0.95,
      ci95: [0.93, 0.97],
      pairs: 8,
      processPairs: 8,
      margin: 0.05,
      detectable: 0.025,
    },
    {
      runtime: 'node',
      scenario: 'hash',
      mode: 'async',
      verdict: 'inconclusive',
      pairs: 1,
      margin: 0.05,
      detectable: null,
      reason: 'x',
    },
  ],
  counts: { regressed: 1, improved: 0, unchanged: 0, inconclusive: 1 },
};
const abReport = { ...report, ab };

describe('--format bmf', () => {
  it("follows Bencher's schema: each measured cell with its mean requests/s inside its 95 % interval of the mean, and p99", () => {
    expect(report.results[0]?.requestsPerSec.median).toBe(1010);
    const json = JSON.parse(exportReport(report, 'bmf')) as Record<string, Record<string, { value: number }>>;
    expect(bmfViolations(json)).toEqual([]);
    expect(Object.keys(json)).toEqual(['node hash/sync']);
    const throughput = json['node hash/sync']?.throughput as { value: number; lower_value: number; upper_value: number };
    expect(throughput.value).toBeCloseTo(MEAN, 2);
    const [low, high] = report.results[0]?.requestsPerSec.ci95 ?? [0, 0];
    expect(throughput.lower_value).toBeCloseTo(low, 1);
    expect(throughput.upper_value).toBeCloseTo(high, 1);
    expect(throughput.lower_value).toBeLessThan(throughput.value);
    expect(throughput.upper_value).toBeGreaterThan(throughput.value);
    // The report's t-interval is centred on the mean: the value sits in its middle.
    expect((throughput.lower_value + throughput.upper_value) / 2).toBeCloseTo(throughput.value, 1);
    expect(json['node hash/sync']?.['p99-latency-ms']?.value).toBeTypeOf('number');
  });

  it('gives no bounds where the interval collapsed for too few runs', () => {
    expect(twoRuns.results[0]?.requestsPerSec.intervalNote).toBeDefined();
    const json = JSON.parse(exportReport(twoRuns, 'bmf')) as unknown;
    expect(bmfViolations(json)).toEqual([]);
    expect((json as Record<string, Record<string, unknown>>)['node hash/sync']?.throughput).toEqual({ value: 1050 });
  });

  it("adds an A/B report's ratios B/A with the 95 % interval of their geometric mean", () => {
    const json = JSON.parse(exportReport(abReport, 'bmf')) as unknown;
    expect(bmfViolations(json)).toEqual([]);
    expect((json as Record<string, unknown>)['node hash/sync B/A']).toEqual({
      ratio: { value: 0.95, lower_value: 0.93, upper_value: 0.97 },
    });
    expect(Object.keys(json as object)).not.toContain('node hash/async B/A');
  });
});

describe('--format github-action-benchmark', () => {
  it('is an array of BenchmarkResult for customBiggerIsBetter: mean requests/s with its half-interval, said in extra', () => {
    const json = JSON.parse(exportReport(report, 'github-action-benchmark')) as Array<Record<string, unknown>>;
    expect(actionViolations(json)).toEqual([]);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ name: 'node hash/sync', unit: 'req/s' });
    expect(json[0]?.value).toBeCloseTo(MEAN, 2);
    const [low, high] = report.results[0]?.requestsPerSec.ci95 ?? [0, 0];
    const half = Number(/^± ([\d.]+)$/.exec(String(json[0]?.range))?.[1]);
    expect(half).toBeCloseTo(high - MEAN, 1);
    expect(half).toBeCloseTo(MEAN - low, 1);
    expect(json[0]?.extra).toContain('mean of 3 runs');
    const said = /95 % CI of the mean ([\d.]+)-([\d.]+) req\/s/.exec(String(json[0]?.extra));
    expect(Number(said?.[1])).toBeCloseTo(low, 1);
    expect(Number(said?.[2])).toBeCloseTo(high, 1);
  });

  it('gives no range where the interval collapsed for too few runs, and says why', () => {
    const json = JSON.parse(exportReport(twoRuns, 'github-action-benchmark')) as Array<Record<string, unknown>>;
    expect(actionViolations(json)).toEqual([]);
    expect(json[0]).toMatchObject({ name: 'node hash/sync', unit: 'req/s', value: 1050 });
    expect(json[0]).not.toHaveProperty('range');
    expect(json[0]?.extra).toContain('mean of 2 runs; 2 runs: too few for an interval');
  });

  it("adds an A/B report's ratios B/A with their interval, verdict and what the pair could see", () => {
    const json = JSON.parse(exportReport(abReport, 'github-action-benchmark')) as Array<Record<string, unknown>>;
    expect(actionViolations(json)).toEqual([]);
    expect(json.map((e) => e.name)).toEqual(['node hash/sync', 'node hash/sync B/A']);
    expect(json[1]).toMatchObject({ unit: 'B/A', value: 0.95, range: '0.93-0.97' });
    expect(json[1]?.extra).toContain('regressed');
    expect(json[1]?.extra).toContain('could see 2.5 %');
    expect(json[1]?.extra).toContain('geometric mean B/A over 8 process pairs, 95 % CI 0.93-0.97');
  });

  it('gives p99 in ms for customSmallerIsBetter, without the B/A of requests/s', () => {
    const json = JSON.parse(exportReport(abReport, 'github-action-benchmark-p99')) as Array<Record<string, unknown>>;
    expect(actionViolations(json)).toEqual([]);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ name: 'node hash/sync p99', unit: 'ms' });
  });
});
