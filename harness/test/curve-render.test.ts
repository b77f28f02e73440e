// The open-loop curve's reports: capacity tables and brackets in every renderer, two curve reports compared, the machine-speed row.
import { describe, expect, it } from 'vitest';
import { renderCurveHtml } from '../src/curve/render-html.ts';
import { capacitySentences, formatCapacity, renderCurveConsole, renderCurveMarkdown } from '../src/curve/render-text.ts';
import { decide } from '../src/stats/step-decision.ts';
import { compareCurves, renderCurveComparison } from '../src/curve/capacity-changes.ts';
import { CURVE_REPORT } from './fixtures/curve-report.ts';

describe('curve rendering', () => {
  it('capacity: "≥" when the top step met the target, "-" for a failed cell', () => {
    expect(CURVE_REPORT.curves.map(formatCapacity)).toEqual(['≥ 420', '40.0', '-']);
  });
  it('says what async bought in capacity, per scenario and runtime', () => {
    expect(capacitySentences(CURVE_REPORT)).toEqual([
      'sleep on node: sync 40.0 req/s, async ≥ 420 req/s at p99 ≤ 100 ms, constant arrivals (async 10.5x sync)',
    ]);
  });
  it('Markdown and console carry the capacity table; HTML one curve chart per scenario with the report embedded', () => {
    const md = renderCurveMarkdown(CURVE_REPORT);
    expect(md).toContain('capacity req/s at p99 ≤ 100 ms');
    expect(md).toContain('capacity req/s at p99 ≤ 100 ms (constant arrivals)');
    expect(md).toMatch(/\| sleep +\| node +\| sync +\| 45\.0 +\| 40\.0 +\| +\| 4\.50 +\| stopped early/);
    expect(md).toContain('failed: server died');
    expect(renderCurveConsole(CURVE_REPORT)).toContain('≥ 420');
    const html = renderCurveHtml(CURVE_REPORT, { chartJs: '/* chart */' });
    expect(html.match(/<canvas[^>]*data-chart="curve"/g)).toHaveLength(2);
    expect(html).toContain('id="report-data"');
    expect(html).toContain('"kind":"curve"');
  });
});

/** A curve report with brackets (Poisson, decided steps): node sleep sync 23.5–37 and async ≥ 705 (generator-bound). */
function bracketReport(syncBracket: [number | null, number | null] = [23.5, 37]) {
  const report = structuredClone(CURVE_REPORT);
  report.parameters = {
    ...report.parameters,
    arrivals: 'poisson',
    percentile: 99,
    confidence: 0.95,
    resolution: 0.05,
    maxUndecided: 2,
    startShare: 0.5,
  };
  const verdict = (rate: number, requests: number, over: number) => ({
    ...decide(requests, over, { percentile: 99, confidence: 0.95 }),
    stoppedAtSec: requests / rate,
    capSec: 20,
  });
  const [sync, async] = [report.curves.find((c) => c.mode === 'sync'), report.curves.find((c) => c.mode === 'async')];
  if (sync === undefined || async === undefined) throw new Error('fixture');
  sync.steps = [
    {
      ...sync.steps[0],
      offeredPerSec: 23.5,
      decision: verdict(23.5, 310, 0),
      phase: 'bracket',
      meetsTarget: true,
    } as (typeof sync.steps)[0],
    { ...sync.steps[1], offeredPerSec: 37, decision: verdict(37, 40, 9), phase: 'bracket', meetsTarget: false } as (typeof sync.steps)[0],
    {
      ...sync.steps[1],
      offeredPerSec: 29.5,
      decision: verdict(29.5, 590, 8),
      phase: 'bisect',
      meetsTarget: false,
    } as (typeof sync.steps)[0],
  ];
  sync.capacity = {
    passPerSec: syncBracket[0],
    failPerSec: syncBracket[1],
    passStep: syncBracket[0] === null ? null : 0,
    failStep: syncBracket[1] === null ? null : 1,
    percentile: 99,
    confidence: 0.95,
    end: 'undecided-limit',
    searchedBetween: [23.5, 29.5],
  };
  sync.capacityPerSec = syncBracket[0];
  async.capacity = {
    passPerSec: 705,
    failPerSec: null,
    passStep: 1,
    failStep: null,
    percentile: 99,
    confidence: 0.95,
    end: 'generator-bound',
    searchedBetween: [705, null],
  };
  async.capacityPerSec = 705;
  async.steps = [
    async.steps[0] as (typeof async.steps)[0],
    { ...(async.steps[1] as (typeof async.steps)[0]), offeredPerSec: 705, decision: verdict(705, 700, 0) },
  ];
  return report;
}

describe('capacity brackets in the renderers', () => {
  const report = bracketReport();
  it('a bracket, "≥ x (generator-bound)", and the steps that decided each end', () => {
    expect(report.curves.map(formatCapacity)).toEqual(['≥ 705 (generator-bound)', '23.5–37.0', '-']);
    const md = renderCurveMarkdown(report);
    expect(md).toContain('## Capacity at p99 ≤ 100 ms, 95 % confidence, poisson arrivals (seed 1)');
    expect(md).toContain('pass 23.5: 310 req, 0 over (share ≤ 0.96 %); fail 37.0: 40 req, 9 over');
    // An undecided step says how far its counts got (what a --quick step can say).
    expect(md).toMatch(/undecided at 29\.5 \(590 req, 8 over: \d\d(\.\d)? % sure over\)/);
    expect(md).toContain("search stopped by the generator's ceiling");
    expect(md).toContain('## Steps (poisson arrivals, in the order run)');
    expect(capacitySentences(report)).toEqual([
      'sleep on node: sync 23.5–37.0 req/s, async ≥ 705 (generator-bound) req/s at p99 ≤ 100 ms, 95 % confidence, poisson arrivals (seed 1) (async faster: ≥ 19x sync)',
    ]);
    expect(renderCurveConsole(report)).toContain('(poisson arrivals)');
    const html = renderCurveHtml(report, { chartJs: '' });
    expect(html).toContain('<title>Load curves, poisson arrivals');
    expect(html).toContain("' arrivals' }");
  });
});

describe('a bracket end failed for not keeping up', () => {
  it('says so, with the rate the server answered, instead of a bound on a share that passed', () => {
    const report = bracketReport();
    const sync = report.curves.find((c) => c.mode === 'sync');
    const failed = sync?.steps[1];
    if (sync === undefined || failed === undefined) throw new Error('fixture');
    sync.steps[1] = {
      ...failed,
      achievedPerSec: 33,
      meetsTarget: false,
      decision: { ...decide(400, 0, { percentile: 99, confidence: 0.95 }), stoppedAtSec: 10.8, capSec: 20 },
    };
    const md = renderCurveMarkdown(report);
    expect(md).toContain('fail 37.0: not kept up (answered 33.0 req/s), 400 req, 0 over');
    expect(md).not.toContain('0 over (share ≥');
  });
  it('an undecided step states the confidence its counts reached, rounded down (160 requests, none over: 79.9 %, short of 80 %)', () => {
    const report = bracketReport();
    const sync = report.curves.find((c) => c.mode === 'sync');
    const undecided = sync?.steps[2];
    if (sync === undefined || undecided === undefined) throw new Error('fixture');
    sync.steps[2] = { ...undecided, decision: { ...decide(160, 0, { percentile: 99, confidence: 0.8 }), stoppedAtSec: 1, capSec: 1 } };
    expect(sync.steps[2].decision?.outcome).toBe('undecided');
    expect(renderCurveMarkdown(report)).toContain('undecided at 29.5 (160 req, 0 over: 79.9 % sure within)');
  });
});

describe('compareCurves with brackets', () => {
  it('overlapping brackets could not tell; apart and lower is a regression', () => {
    const base = bracketReport([23.5, 37]);
    const same = compareCurves(base, bracketReport([29.5, 46]), 0.05);
    expect(same.changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({ verdict: 'could not tell', regressed: false });
    const lower = compareCurves(base, bracketReport([14, 22]), 0.05);
    expect(lower.changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({ verdict: 'lower', regressed: true });
    expect(lower.hasRegression).toBe(true);
    expect(compareCurves(base, bracketReport([40, 60]), 0.05).changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({
      verdict: 'higher',
      regressed: false,
    });
    // "< 37" against "23.5–37": [0, 37] overlaps.
    expect(compareCurves(base, bracketReport([null, 37]), 0.05).changes.find((c) => c.cell === 'node sleep/sync')?.verdict).toBe(
      'could not tell',
    );
    expect(renderCurveComparison(lower, 100)).toContain('| lower: the brackets are apart');
    // The vocabulary of every report: an overlap is "could not tell", never "no difference".
    expect(renderCurveComparison(same, 100)).toContain('| could not tell: the brackets overlap');
    expect(renderCurveComparison(same, 100)).not.toMatch(/no (measurable )?difference/);
  });
});

describe('compareCurves', () => {
  const worse = structuredClone(CURVE_REPORT);
  const sync = worse.curves.find((c) => c.mode === 'sync');
  if (sync !== undefined) sync.capacityPerSec = 4.5;
  it('a capacity drop past the threshold, down to the next lower ladder rate, is a regression', () => {
    const result = compareCurves(CURVE_REPORT, worse, 0.05);
    expect(result.hasRegression).toBe(true);
    expect(result.changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({ ratio: 0.113, regressed: true });
    expect(result.changes.find((c) => c.cell === 'node sleep/async')).toMatchObject({ ratio: 1, regressed: false });
    expect(renderCurveComparison(result, 100)).toContain('REGRESSED');
    expect(compareCurves(CURVE_REPORT, CURVE_REPORT, 0.05).hasRegression).toBe(false);
  });
});

describe('curve report: machine speed', () => {
  const report = {
    ...CURVE_REPORT,
    environment: {
      ...CURVE_REPORT.environment,
      machineSpeed: { vcpus: 2, pinned: true, intervalMs: 250, coresWorth: { min: 1.23, max: 1.94 }, overheadPercent: 0.12, samples: 40 },
    },
  };

  it("says how many cores' worth the machine gave during the run, as bench does", () => {
    expect(renderCurveMarkdown(report)).toContain("machine speed: 2 vCPUs, 1.2 to 1.9 cores' worth during this run");
    expect(renderCurveHtml(report, { chartJs: '' })).toMatch(
      /data-machine-speed>machine speed: 2 vCPUs, 1\.2 to 1\.9 cores&#39; worth during this run|data-machine-speed>machine speed: 2 vCPUs, 1\.2 to 1\.9 cores' worth during this run/,
    );
  });

  it('says nothing about speed when no sampler ran', () => {
    expect(renderCurveMarkdown(CURVE_REPORT)).not.toContain('machine speed');
    expect(renderCurveHtml(CURVE_REPORT, { chartJs: '' })).not.toContain('data-machine-speed');
  });
});

describe("the capacity sentences' ratios", () => {
  it('read the range the two brackets allow in the words of every report: a side of 1, no gain within ±10 %, could not tell past it', async () => {
    const { capacitySentences } = await import('../src/curve/render-text.ts');
    const with2 = (sync: [number, number], async: [number, number]) => {
      const report = bracketReport(sync);
      const base = report.curves.find((c) => c.mode === 'sync');
      if (base === undefined) throw new Error('no sync curve');
      const other = structuredClone(base);
      other.mode = 'async';
      other.capacity = { ...base.capacity!, passPerSec: async[0], failPerSec: async[1] };
      other.capacityPerSec = async[0];
      report.curves = [base, other];
      return capacitySentences(report)[0] ?? '';
    };
    expect(with2([100, 105], [140, 150])).toContain('(async faster: 1.33–1.50x sync)');
    expect(with2([100, 105], [101, 104])).toContain('(async no gain: 0.96–1.04x sync)');
    expect(with2([100, 130], [90, 140])).toContain('(async could not tell: 0.69–1.40x sync)');
    expect(with2([100, 105], [30, 40])).toContain('(async slower: 0.29–0.40x sync)');
  });
});
