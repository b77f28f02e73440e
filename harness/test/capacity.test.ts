// The statistics and the search behind a capacity figure, on fixed inputs: exact binomial bounds
// against known values, the step's running tally, and the bracket-then-bisection search.
import { describe, expect, it } from 'vitest';
import { nextRate, searchBounds, type SearchOptions, type SearchStep } from '../src/curve/capacity-search.ts';
import { seededRandom } from '../src/load/arrivals.ts';
import {
  clopperPearson,
  confidenceWithin,
  decide,
  designEffect,
  requestsToPass,
  shouldStopStep,
  StepTally,
} from '../src/stats/step-decision.ts';

describe('Clopper-Pearson bounds', () => {
  it('0 over of 299: upper bound just under 1 % at 95 % (docs/design.md: 299 with none over, 473 with one)', () => {
    expect(clopperPearson(0, 299, 0.95).upper).toBeLessThan(0.01);
    expect(clopperPearson(0, 298, 0.95).upper).toBeGreaterThan(0.01);
    // The closed form for none over: 1 - (1 - c)^(1/n).
    expect(clopperPearson(0, 299, 0.95).upper).toBeCloseTo(1 - 0.05 ** (1 / 299), 9);
    expect(clopperPearson(1, 473, 0.95).upper).toBeLessThan(0.01);
    expect(clopperPearson(1, 472, 0.95).upper).toBeGreaterThan(0.01);
    expect(requestsToPass({ percentile: 99, confidence: 0.95 })).toBe(299);
    // MLPerf LoadGen's early stopping: 459 at 99 % with none over.
    expect(requestsToPass({ percentile: 99, confidence: 0.99 })).toBe(459);
  });

  it('known two-sided values: 5 of 20 at 97.5 % each side is [0.0866, 0.4910]', () => {
    const { lower, upper } = clopperPearson(5, 20, 0.975);
    expect(lower).toBeCloseTo(0.0866, 4);
    expect(upper).toBeCloseTo(0.491, 3);
    expect(clopperPearson(0, 0, 0.95)).toEqual({ lower: 0, upper: 1 });
    expect(clopperPearson(10, 10, 0.95).upper).toBe(1);
  });

  it('decides pass, fail or undecided, and says what confidence the counts reached', () => {
    const rule = { percentile: 99, confidence: 0.95 };
    expect(decide(299, 0, rule)).toMatchObject({
      outcome: 'pass',
      requests: 299,
      overTarget: 0,
      allowedShare: 0.01,
      reached: { side: 'within' },
    });
    expect(decide(100, 0, rule)).toMatchObject({ outcome: 'undecided', reached: { side: 'within' } });
    // 100 with none over: 1 - 0.99^100 = 63 % sure the share is within 1 %.
    expect(decide(100, 0, rule).reached.confidence).toBeCloseTo(1 - 0.99 ** 100, 6);
    expect(confidenceWithin(0, 299, 0.01)).toBeGreaterThan(0.95);
    expect(decide(50, 5, rule)).toMatchObject({ outcome: 'fail', reached: { side: 'over' } });
    expect(decide(50, 5, rule).lowerBound).toBeGreaterThan(0.01);
    expect(decide(0, 0, rule).outcome).toBe('undecided');
    // p90: 10 % allowed.
    expect(decide(29, 0, { percentile: 90, confidence: 0.95 }).outcome).toBe('pass');
  });

  it('stops a step early only on a pass after minSec, or a fail with at least three over', () => {
    expect(shouldStopStep({ outcome: 'pass', overTarget: 0 }, 0.5, 1)).toBe(false);
    expect(shouldStopStep({ outcome: 'pass', overTarget: 0 }, 1, 1)).toBe(true);
    expect(shouldStopStep({ outcome: 'fail', overTarget: 2 }, 0.5, 1)).toBe(false);
    expect(shouldStopStep({ outcome: 'fail', overTarget: 3 }, 0.5, 1)).toBe(true);
    expect(shouldStopStep({ outcome: 'undecided', overTarget: 0 }, 9, 1)).toBe(false);
  });
});

describe('the design effect of clustered misses', () => {
  // Standard normal draws from the seeded uniform generator (Box-Muller).
  const normals = (n: number, seed: number) => {
    const random = seededRandom(seed);
    return Array.from({ length: n }, () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  };

  it('batch means: about 1 for independent values, (1 + φ) / (1 − φ) for an AR(1) series, 1 where it cannot tell', () => {
    const independent = normals(10_000, 3);
    expect(designEffect(independent, independent.length)).toBeLessThan(1.5);
    // AR(1) with φ = 0.8: integrated autocorrelation time 9.
    const noise = normals(10_000, 5);
    const ar: number[] = [];
    for (const [i, e] of noise.entries()) ar.push(0.8 * (ar[i - 1] ?? 0) + e);
    const d = designEffect(ar, ar.length);
    expect(d).toBeGreaterThan(6);
    expect(d).toBeLessThan(12);
    expect(designEffect(new Array(1000).fill(5), 1000)).toBe(1);
    // Under eight batches of √n (40 requests: six of six): no estimate, taken as independent.
    expect(designEffect(ar, 40)).toBe(1);
  });

  it('decide divides both counts by it: 299 with none over pass at 1, not at 2; 598 do at 2', () => {
    const rule = { percentile: 99, confidence: 0.95 };
    expect(decide(299, 0, rule, 1)).not.toHaveProperty('designEffect');
    expect(decide(299, 0, rule, 2)).toMatchObject({ outcome: 'undecided', requests: 299, designEffect: 2 });
    expect(decide(598, 0, rule, 2).outcome).toBe('pass');
    expect(decide(598, 0, rule, 2).upperBound).toBeCloseTo(decide(299, 0, rule).upperBound, 6);
    // A fail needs the evidence of fewer requests too: 5 of 50 fails, 5 of 50 at 4 (1.25 of 12.5) does not.
    expect(decide(50, 5, rule, 4).outcome).toBe('undecided');
  });

  it("the tally keeps each counted request's latency, capped at twice the target (unanswered: the cap)", () => {
    const due = Array.from({ length: 400 }, (_, i) => i);
    const tally = new StepTally(due, 100, true);
    // Alternating runs of 50 fast and 50 slow answers: strongly clustered.
    for (let i = 0; i < due.length; i++) tally.settle(i, Math.floor(i / 50) % 2 === 0, Math.floor(i / 50) % 2 === 0 ? 5 : 500);
    tally.advance(1000, 400);
    expect([tally.requests, tally.over]).toEqual([400, 200]);
    expect(tally.designEffect()).toBeGreaterThan(10);
    expect(tally.verdict({ percentile: 99, confidence: 0.95 }).designEffect).toBeGreaterThan(10);
    // A tally taken as independent keeps no latencies and counts every request as one.
    const plain = new StepTally(due, 100);
    for (let i = 0; i < due.length; i++) plain.settle(i, Math.floor(i / 50) % 2 === 0, Math.floor(i / 50) % 2 === 0 ? 5 : 500);
    plain.advance(1000, 400);
    expect(plain.designEffect()).toBe(1);
    expect(plain.verdict({ percentile: 99, confidence: 0.95 })).not.toHaveProperty('designEffect');
  });
});

describe('StepTally', () => {
  it('counts a request only once its due time is a target in the past; unanswered ones count as over', () => {
    const tally = new StepTally([0, 10, 20, 30], 100);
    tally.settle(0, true);
    tally.settle(2, false);
    // At 105 ms only the request due at 0 is known.
    tally.advance(105, 4);
    expect([tally.requests, tally.over]).toEqual([1, 0]);
    // At 200 ms all four are: #1 and #3 still unanswered past the target, #2 failed.
    tally.settle(3, true);
    tally.advance(200, 4);
    expect([tally.requests, tally.over]).toEqual([4, 2]);
    // Only what was issued counts (the rest of the schedule was cut at a decision).
    const cut = new StepTally([0, 10, 20], 5);
    cut.advance(1000, 2);
    expect(cut.requests).toBe(2);
  });
});

describe('capacity search', () => {
  const options: SearchOptions = { startPerSec: 20, factor: 1.6, resolution: 0.05, maxUndecided: 2, maxSteps: 12, floorPerSec: 2 };
  const step = (
    offeredPerSec: number,
    outcome: SearchStep['outcome'],
    leansWithin = outcome === 'pass',
    generatorBound = false,
  ): SearchStep => ({ offeredPerSec, outcome, leansWithin, generatorBound });

  /** Runs the search against a server whose true capacity is `capacity`: pass below, fail above. */
  function simulate(capacity: number, opts = options): { rates: number[]; bounds: ReturnType<typeof searchBounds>; end: string } {
    const steps: SearchStep[] = [];
    for (;;) {
      const next = nextRate(steps, opts);
      if ('done' in next) return { rates: steps.map((s) => s.offeredPerSec), bounds: searchBounds(steps), end: next.done };
      steps.push(step(next.rate, next.rate <= capacity ? 'pass' : 'fail'));
    }
  }

  it('brackets upward past the start until a rate fails, then bisects to within 5 %', () => {
    const run = simulate(100);
    expect(run.rates.slice(0, 5)).toEqual([20, 32, 51.2, 81.9, 131]);
    expect(run.end).toBe('resolved');
    const { pass, fail } = run.bounds;
    expect(pass).toBeLessThanOrEqual(100);
    expect(fail).toBeGreaterThan(100);
    expect((fail ?? 0) / (pass ?? 1)).toBeLessThanOrEqual(1.05);
  });

  it('brackets downward when the start fails; below the floor the search gives up', () => {
    const run = simulate(7);
    expect(run.rates.slice(0, 3)).toEqual([20, 12.5, 7.81]);
    expect(run.bounds.pass).toBeLessThanOrEqual(7);
    expect(simulate(1).end).toBe('below-floor');
  });

  it('undecided steps are no bracket end, steer by their lean, and end the search at the limit', () => {
    const steps = [step(20, 'pass'), step(32, 'fail'), step(25.3, 'undecided', true)];
    expect(searchBounds(steps)).toEqual({ pass: 20, fail: 32, lo: 25.3, hi: 32 });
    expect(nextRate(steps, options)).toEqual({ rate: 28.5 });
    expect(nextRate([...steps, step(28.5, 'undecided', false)], options)).toEqual({ done: 'undecided-limit' });
  });

  it('a generator-bound step that did not pass stops the search: the capacity is "at least"', () => {
    const steps = [step(20, 'pass'), step(32, 'fail', false, true)];
    expect(nextRate(steps, options)).toEqual({ done: 'generator-bound' });
    expect(searchBounds(steps)).toEqual({ pass: 20, lo: 20 });
    // A generator-bound pass still counts, and the search goes on.
    expect(nextRate([step(20, 'pass', true, true)], options)).toEqual({ rate: 32 });
  });
});

describe('searchCell (the driver, with a fake server)', () => {
  it('steps decided by a fake M/D/1-like server give a bracket with its deciding steps, and the cap per rate', async () => {
    const { searchCell } = await import('../src/curve/cell-search.ts');
    const { parseCurvePlan } = await import('../src/curve/curve-plan.ts');
    const { toStep } = await import('../src/curve/step.ts');
    const plan = parseCurvePlan([]);
    const caps: number[] = [];
    // True capacity 100 req/s: below it 400 requests, none over; above, 20 requests, 10 over.
    const result = await searchCell(
      plan,
      150,
      async (rate, { durationSec, decide: rule, phase }) => {
        caps.push(durationSec);
        const [n, over] = rate <= 100 ? [400, 0] : [20, 10];
        const m = {
          scheduled: n,
          sent: n,
          dropped: 0,
          completed: n,
          errors: 0,
          timeouts: 0,
          achievedPerSec: rate,
          elapsedSec: 1,
          latencyMs: { p50: 10, p90: 20, p99: over > 0 ? 500 : 50, p999: 60, max: 70, mean: 12 },
          latenessMs: { p50: 0, p99: 0.1, max: 0.2 },
          cpuPercent: 5,
          busyPercent: 2,
          verdict: decide(n, over, rule),
          stoppedAtSec: n / rate,
        };
        return toStep(rate, m, { cpuPercent: 50 }, plan.sloMs, { capSec: durationSec, phase });
      },
      () => {},
      () => false,
    );
    expect(result.steps[0]).toMatchObject({ offeredPerSec: 75, phase: 'bracket', meetsTarget: true });
    expect(result.capacity).toMatchObject({ end: 'resolved', percentile: 99, confidence: 0.95 });
    const { passPerSec, failPerSec, passStep, failStep } = result.capacity;
    expect(passPerSec).toBeLessThanOrEqual(100);
    expect(failPerSec).toBeGreaterThan(100);
    expect((failPerSec ?? 0) / (passPerSec ?? 1)).toBeLessThanOrEqual(1.05);
    expect(result.steps[passStep ?? -1]?.offeredPerSec).toBe(passPerSec);
    expect(result.steps[failStep ?? -1]?.decision?.outcome).toBe('fail');
    // 2 x 299 requests at 75 req/s: 8 s, under the 15 s cap.
    expect(caps[0]).toBeCloseTo(598 / 75, 6);
  });
});

describe('generatorLimited', () => {
  it("a flagged step counts as the generator's only when it was saturated or late by half the target", async () => {
    const { generatorLimited } = await import('../src/curve/cell-search.ts');
    const s = (p99: number, busyPercent: number, flags: ('generator-bound' | 'saturated')[] = ['generator-bound']) => ({
      flags,
      generator: { cpuPercent: busyPercent, busyPercent },
      latenessMs: { p50: 0, p99, max: p99 },
    });
    expect(generatorLimited(s(5, 10), 100)).toBe(false);
    expect(generatorLimited(s(60, 10), 100)).toBe(true);
    expect(generatorLimited(s(1, 95), 100)).toBe(true);
    expect(generatorLimited(s(60, 10, ['saturated']), 100)).toBe(false);
  });
});
