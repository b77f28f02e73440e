// The step rule's stated confidence held against models whose truth is known: with independent
// misses (the binomial's own assumption) a step passes a share over the target about as rarely as
// its confidence says; in a queue misses cluster, and the same count of requests carries less.
import { describe, expect, it } from 'vitest';
import { md1CapacityPerSec } from '../src/curve/ladder.ts';
import { independentModel, queueModel, ruleOutcomes, simulateStep, type StepRule } from '../src/curve/rule-check.ts';

const STEP: StepRule = { targetMs: 100, rule: { percentile: 99, confidence: 0.95 }, minSec: 1, capSec: 4, checkEveryMs: 500 };

describe('the step rule replayed over simulated schedules', () => {
  it('one step as the generator runs it: none over passes once enough are counted, many over fails at the first look', () => {
    const due = Array.from({ length: 400 }, (_, i) => i * 10);
    expect(
      simulateStep(
        due,
        due.map(() => 5),
        STEP,
      ),
    ).toBe('pass');
    expect(
      simulateStep(
        due,
        due.map((_, i) => (i % 5 === 0 ? 300 : 5)),
        STEP,
      ),
    ).toBe('fail');
    // 40 requests over 4 s: too few to show p99 at 95 % either way.
    expect(
      simulateStep(
        due.slice(0, 40).map((d) => d * 10),
        due.slice(0, 40).map(() => 5),
        STEP,
      ),
    ).toBe('undecided');
  });

  it('independent misses: a share 1.5x the allowed one passes at most about 1 - confidence of the time, a clean server nearly always', () => {
    const over = ruleOutcomes(independentModel(0.015, 100), 250, STEP, 300);
    expect(over.overDispersion).toBeGreaterThan(0.7);
    expect(over.overDispersion).toBeLessThan(1.3);
    expect(over.pass).toBeLessThanOrEqual(0.07);
    expect(ruleOutcomes(independentModel(0, 100), 250, STEP, 50).pass).toBe(1);
  });

  it('in a queue (M/D/1, 20.5 ms) misses cluster: the count over the target varies several times more than the binomial says', () => {
    const capacity = md1CapacityPerSec(20.5, 100, 99);
    const atCapacity = ruleOutcomes(queueModel(20.5), capacity, { ...STEP, capSec: 15 }, 200);
    expect(atCapacity.overDispersion).toBeGreaterThan(3);
  });

  it('a queue at 1.1x its capacity: taken as independent a step passes far more often than 5 %; counted by their design effect, at most 5 %', () => {
    // 4 ms of service (a fib-like cell at about 230 req/s): misses are rare, huge clusters.
    const capacity = md1CapacityPerSec(4, 100, 99);
    const step = { ...STEP, capSec: 15 };
    const independent = ruleOutcomes(queueModel(4), capacity * 1.1, step, 100);
    const clustered = ruleOutcomes(queueModel(4), capacity * 1.1, { ...step, designEffect: true }, 100);
    expect(independent.pass).toBeGreaterThan(0.2);
    expect(clustered.pass).toBeLessThanOrEqual(0.05);
    // Well inside the capacity it still passes most steps.
    expect(ruleOutcomes(queueModel(4), capacity * 0.6, { ...step, designEffect: true }, 100).pass).toBeGreaterThan(0.5);
  });
});
