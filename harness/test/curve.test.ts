import { describe, expect, it } from 'vitest';
import { arrivalOffsets, seededRandom, stepSeed } from '../src/load/arrivals.ts';
import { CURVE_FULL, CURVE_QUICK, parseCurvePlan } from '../src/curve/curve-plan.ts';
import {
  clearlyPast,
  lindleyLatenciesMs,
  lindleyMeanMs,
  md1CapacityPerSec,
  md1MeanMs,
  shouldStop,
  summarizeCurve,
} from '../src/curve/ladder.ts';
import { renderCurveHtml } from '../src/curve/render-html.ts';
import { capacitySentences, conditionsLabel, formatCapacity, renderCurveConsole, renderCurveMarkdown } from '../src/curve/render-text.ts';
import { generatorBound, toStep } from '../src/curve/step.ts';
import { decide } from '../src/stats/step-decision.ts';
import { decisionOptions, stepCapSec } from '../src/curve/cell-search.ts';
import { FlagError } from '../src/cli/flags.ts';
import { compareCurves, renderCurveComparison } from '../src/curve/capacity-changes.ts';
import { CURVE_REPORT } from './fixtures/curve-report.ts';

describe('arrivals', () => {
  it('constant spacing: rate x duration requests, evenly spaced', () => {
    const due = arrivalOffsets(40, 2, 'constant', 1);
    expect(due).toHaveLength(80);
    expect(due[1]).toBeCloseTo(25);
    expect(due.at(-1)).toBeCloseTo(1975);
  });

  it('Poisson: the same seed gives the same schedule, with the right mean gap and exponential spread', () => {
    const a = arrivalOffsets(100, 100, 'poisson', 7);
    expect(arrivalOffsets(100, 100, 'poisson', 7)).toEqual(a);
    expect(arrivalOffsets(100, 100, 'poisson', 8)).not.toEqual(a);
    // 10,000 expected; the count of a Poisson process has sd 100.
    expect(Math.abs(a.length - 10_000)).toBeLessThan(400);
    const gaps = a.slice(1).map((t, i) => t - (a[i] ?? 0));
    const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
    expect(mean).toBeCloseTo(10, 0);
    // Exponential: the share of gaps above the mean is e^-1.
    expect(gaps.filter((g) => g > 10).length / gaps.length).toBeCloseTo(Math.exp(-1), 1);
  });

  it("each step's schedule comes from the seed and its rate: one rate, one schedule; other rates, independent draws", () => {
    expect(stepSeed(1, 26.4)).toBe(stepSeed(1, 26.4));
    expect(new Set([stepSeed(1, 26.4), stepSeed(1, 26.5), stepSeed(2, 26.4), stepSeed(1, 52.8)]).size).toBe(4);
    // The gaps in units of the mean gap: with one seed for every step they were the same draw at
    // every rate (what the old schedule did); drawn per rate they are not.
    const shape = (rate: number, seed: number) =>
      arrivalOffsets(rate, 20, 'poisson', seed)
        .slice(0, 50)
        .map((t) => Math.round((t * rate) / 10));
    expect(shape(20, 1)).toEqual(shape(40, 1));
    expect(shape(20, stepSeed(1, 20))).not.toEqual(shape(40, stepSeed(1, 40)));
    expect(parseCurvePlan([]).stepSeeds).toBe('per-rate');
  });

  it('--design-effect: steps count requests by their design effect, and every capacity label says so', () => {
    expect(parseCurvePlan([]).designEffect).toBe(false);
    expect(decisionOptions(parseCurvePlan([]))).not.toHaveProperty('designEffect');
    const plan = parseCurvePlan(['--design-effect']);
    expect(decisionOptions(plan)).toMatchObject({ designEffect: true });
    expect(conditionsLabel({ ...plan, arrivals: 'poisson' })).toBe(
      '95 % confidence (requests counted by their design effect), poisson arrivals (seed 1)',
    );
    expect(conditionsLabel({ ...parseCurvePlan([]) })).toBe('95 % confidence, poisson arrivals (seed 1)');
  });

  it('the seeded generator is uniform on [0, 1)', () => {
    const random = seededRandom(42);
    const xs = Array.from({ length: 20_000 }, random);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
  });
});

describe('ladder', () => {
  it('stops after two steps clearly past saturation (achieved < 0.8 x offered, or p99 > 10 x target)', () => {
    const ok = { offeredPerSec: 40, achievedPerSec: 40, p99Ms: 30 };
    const slow = { offeredPerSec: 60, achievedPerSec: 50, p99Ms: 2000 };
    const short = { offeredPerSec: 100, achievedPerSec: 50, p99Ms: 500 };
    expect(clearlyPast(ok, 100)).toBe(false);
    expect(clearlyPast(slow, 100)).toBe(true);
    expect(clearlyPast(short, 100)).toBe(true);
    expect(shouldStop([ok, slow], 100)).toBe(false);
    expect(shouldStop([ok, slow, short], 100)).toBe(true);
  });

  it('capacity is the highest rate meeting the target; a generator-bound step that met it counts', () => {
    const step = (offeredPerSec: number, p99Ms: number, achievedPerSec = offeredPerSec, generatorBound = false) => ({
      offeredPerSec,
      achievedPerSec,
      p99Ms,
      generatorBound,
    });
    const steps = [step(5, 21), step(10, 22), step(20, 25), step(40, 80), step(60, 900, 50)];
    expect(summarizeCurve(steps, 100)).toEqual({ capacityPerSec: 40, capacityAtLeast: false, kneePerSec: 20 });
    // Tighter target, smaller capacity.
    expect(summarizeCurve(steps, 30).capacityPerSec).toBe(20);
    // Latency runs from the scheduled time: a late generator only made the step look worse.
    expect(summarizeCurve([step(5, 21), step(10, 22, 10, true)], 100)).toEqual({
      capacityPerSec: 10,
      capacityAtLeast: true,
      kneePerSec: 10,
    });
    // p99 within target but not keeping up: not capacity.
    expect(summarizeCurve([step(5, 21), step(10, 50, 9)], 100).capacityPerSec).toBe(5);
    expect(summarizeCurve([step(5, 500)], 100)).toEqual({ capacityPerSec: null, capacityAtLeast: false, kneePerSec: 5 });
  });

  it("M/D/1: 20 ms service at 40 req/s waits 60 ms on average (the issue's figure)", () => {
    expect(md1MeanMs(40, 20)).toBeCloseTo(60, 6);
    expect(md1MeanMs(50, 20)).toBe(Number.POSITIVE_INFINITY);
    // Lindley on a long Poisson schedule converges to the formula.
    const due = arrivalOffsets(40, 2000, 'poisson', 3);
    expect(lindleyMeanMs(due, 20) / 60).toBeGreaterThan(0.9);
    expect(lindleyMeanMs(due, 20) / 60).toBeLessThan(1.1);
    expect(lindleyLatenciesMs([0, 5, 100], 20)).toEqual([20, 35, 20]);
    // Constant spacing below capacity never queues.
    expect(lindleyMeanMs(arrivalOffsets(40, 10, 'constant', 1), 20)).toBeCloseTo(20);
  });
});

describe('M/D/1 capacity at a percentile', () => {
  it("20.5 ms service, p99 ≤ 100 ms: about 27 req/s (the issue's figure), falling with the service time", () => {
    const at205 = md1CapacityPerSec(20.5, 100);
    expect(at205).toBeGreaterThan(25.5);
    expect(at205).toBeLessThan(28);
    expect(md1CapacityPerSec(22, 100)).toBeLessThan(at205);
    // A looser percentile holds more; a service slower than the target holds nothing.
    expect(md1CapacityPerSec(20.5, 100, 90)).toBeGreaterThan(at205);
    expect(md1CapacityPerSec(120, 100)).toBe(0);
  });
});

describe('steps', () => {
  const measurement = {
    scheduled: 80,
    sent: 80,
    dropped: 0,
    completed: 80,
    errors: 0,
    timeouts: 0,
    achievedPerSec: 40,
    elapsedSec: 2,
    latencyMs: { p50: 21, p90: 22, p99: 30, p999: 31, max: 31, mean: 21.5 },
    latenessMs: { p50: 0.01, p99: 0.2, max: 0.4 },
    cpuPercent: 8,
    busyPercent: 4,
  };
  it('flags generator-bound on lateness p99 past 1 ms and a tenth of the p50 latency, or a busy core', () => {
    expect(generatorBound(measurement)).toBe(false);
    expect(generatorBound({ ...measurement, latenessMs: { p50: 0, p99: 2.5, max: 3 } })).toBe(true);
    // 1.5 ms late against a 21 ms median: under a tenth of it, the latency is still the server's.
    expect(generatorBound({ ...measurement, latenessMs: { p50: 0, p99: 1.5, max: 3 } })).toBe(false);
    // Against a 1 ms answer, 1.5 ms late is most of it.
    expect(
      generatorBound({ ...measurement, latenessMs: { p50: 0, p99: 1.5, max: 3 }, latencyMs: { ...measurement.latencyMs, p50: 1 } }),
    ).toBe(true);
    expect(generatorBound({ ...measurement, busyPercent: 95 })).toBe(true);
  });
  it('flags saturation, errors, and whether the step meets the target', () => {
    expect(toStep(40, measurement, { cpuPercent: 5 }, 100)).toMatchObject({ flags: [], meetsTarget: true });
    const behind = toStep(
      60,
      { ...measurement, achievedPerSec: 50, latencyMs: { ...measurement.latencyMs, p99: 400 }, timeouts: 1 },
      { cpuPercent: 5 },
      100,
    );
    expect(behind).toMatchObject({ flags: ['saturated', 'errors'], meetsTarget: false });
    expect(toStep(100, { ...measurement, achievedPerSec: 50 }, { cpuPercent: 5 }, 100).flags).toEqual(['saturated', 'past-saturation']);
  });
  it("a step's cap: time for twice the requests a pass needs (2 x 299 at p99, 95 %), at least stepSec, at most maxStepSec", () => {
    const plan = { ...CURVE_FULL, percentile: 99 };
    expect(stepCapSec(plan, 1000)).toBe(CURVE_FULL.stepSec);
    expect(stepCapSec(plan, 59.8)).toBeCloseTo(10, 6);
    expect(stepCapSec(plan, 5)).toBe(CURVE_FULL.maxStepSec);
    // Counted by their design effect a pass needs an unknown multiple of that: up to the cap.
    expect(stepCapSec({ ...plan, designEffect: true }, 1000)).toBe(CURVE_FULL.maxStepSec);
  });
  it('the counts are looked at every 0.5 s, or every --step-sec where a step may pass sooner', () => {
    expect(decisionOptions(parseCurvePlan([]))).toMatchObject({ checkEveryMs: 500, minSec: 1 });
    expect(decisionOptions(parseCurvePlan(['--quick']))).toMatchObject({ checkEveryMs: 500, minSec: CURVE_QUICK.stepSec });
    expect(decisionOptions(parseCurvePlan(['--quick', '--step-sec', '0.25']))).toMatchObject({ checkEveryMs: 250, minSec: 0.25 });
    expect(decisionOptions(parseCurvePlan(['--step-sec', '2'])).checkEveryMs).toBe(500);
    expect(decisionOptions(parseCurvePlan(['--step-sec', '0.1'])).checkEveryMs).toBe(100);
  });
  it('keeping up is held against the rate the schedule actually offered (Poisson steps hold more or fewer)', () => {
    // 40 req/s for 1.5 s scheduled only 54 (36 req/s); 35 answered per second keeps up with that.
    const m = {
      ...measurement,
      scheduled: 54,
      achievedPerSec: 35,
      stoppedAtSec: 1.5,
      verdict: decide(54, 0, { percentile: 99, confidence: 0.95 }),
    };
    expect(toStep(40, m, { cpuPercent: 5 }, 100).flags).not.toContain('saturated');
    expect(toStep(40, { ...m, achievedPerSec: 30 }, { cpuPercent: 5 }, 100).flags).toContain('saturated');
    // The decision carried into the step; undecided is never a pass.
    expect(toStep(40, m, { cpuPercent: 5 }, 100, { capSec: 2, phase: 'bracket' })).toMatchObject({
      meetsTarget: false,
      phase: 'bracket',
      decision: { outcome: 'undecided', requests: 54, capSec: 2, stoppedAtSec: 1.5 },
    });
    const passed = { ...m, verdict: decide(400, 0, { percentile: 99, confidence: 0.95 }) };
    expect(toStep(40, passed, { cpuPercent: 5 }, 100).meetsTarget).toBe(true);
  });
});

describe('parseCurvePlan', () => {
  it('defaults: every runtime, the heavy scenarios, p99 ≤ 100 ms at 95 %, Poisson arrivals, 5 % resolution', () => {
    const plan = parseCurvePlan([]);
    expect(plan).toMatchObject({
      runtimes: ['node', 'bun', 'deno'],
      scenarios: ['hello', 'hash', 'file', 'fib', 'sleep'],
      sloMs: 100,
      percentile: 99,
      arrivals: 'poisson',
      seed: 1,
      ...CURVE_FULL,
    });
    expect(plan).toMatchObject({ confidence: 0.95, resolution: 0.05 });
    expect(parseCurvePlan(['--arrivals', 'constant']).arrivals).toBe('constant');
    expect(parseCurvePlan(['--quick'])).toMatchObject({ quick: true, ...CURVE_QUICK });
  });
  it('reads rates, arrivals, seed and target; rejects bad input with one line', () => {
    expect(parseCurvePlan(['--rates', '40,10,20,10', '--arrivals', 'poisson', '--seed', '9', '--slo-ms', '50'])).toMatchObject({
      rates: [10, 20, 40],
      arrivals: 'poisson',
      seed: 9,
      sloMs: 50,
    });
    expect(() => parseCurvePlan(['--rates', '10,x'])).toThrow(FlagError);
    expect(() => parseCurvePlan(['--arrivals', 'bursty'])).toThrow(/--arrivals: unknown "bursty"/);
    expect(() => parseCurvePlan(['--slo-ms', '0'])).toThrow(/--slo-ms/);
    expect(() => parseCurvePlan(['--scenarios', 'hello', '--modes', 'sync'])).toThrow(/selects no cell/);
    expect(parseCurvePlan(['--confidence', '0.99', '--percentile', '99.9', '--resolution', '0.1', '--max-step-sec', '30'])).toMatchObject({
      confidence: 0.99,
      percentile: 99.9,
      resolution: 0.1,
      maxStepSec: 30,
    });
    for (const [flag, value] of [
      ['resolution', '0'],
      ['resolution', '1'],
      ['confidence', '0.5'],
      ['confidence', '1'],
      ['percentile', '50'],
      ['percentile', '100'],
      ['percentile', 'x'],
    ]) {
      expect(() => parseCurvePlan([`--${flag}`, value as string])).toThrow(new RegExp(`^--${flag} must be a number between`));
    }
  });
});

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
      'sleep on node: sync 23.5–37.0 req/s, async ≥ 705 (generator-bound) req/s at p99 ≤ 100 ms, 95 % confidence, poisson arrivals (seed 1) (async ≥ 19.1x sync)',
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
  it('overlapping brackets are no measurable difference; apart and lower is a regression', () => {
    const base = bracketReport([23.5, 37]);
    const same = compareCurves(base, bracketReport([29.5, 46]), 0.05);
    expect(same.changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({ verdict: 'no measurable difference', regressed: false });
    const lower = compareCurves(base, bracketReport([14, 22]), 0.05);
    expect(lower.changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({ verdict: 'lower', regressed: true });
    expect(lower.hasRegression).toBe(true);
    expect(compareCurves(base, bracketReport([40, 60]), 0.05).changes.find((c) => c.cell === 'node sleep/sync')).toMatchObject({
      verdict: 'higher',
      regressed: false,
    });
    // "< 37" against "23.5–37": [0, 37] overlaps.
    expect(compareCurves(base, bracketReport([null, 37]), 0.05).changes.find((c) => c.cell === 'node sleep/sync')?.verdict).toBe(
      'no measurable difference',
    );
    expect(renderCurveComparison(lower, 100)).toContain('| lower');
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
