// The open-loop curve's pieces: arrivals, the ladder and its queueing theory, steps, the plan.
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
import { conditionsLabel } from '../src/curve/render-text.ts';
import { generatorBound, toStep } from '../src/curve/step.ts';
import { decide } from '../src/stats/step-decision.ts';
import { decisionOptions, stepCapSec } from '../src/curve/cell-search.ts';
import { FlagError } from '../src/cli/flags.ts';

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
