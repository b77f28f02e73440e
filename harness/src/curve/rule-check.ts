/**
 * How sure a step's verdict really is: the step rule (StepTally, decide and shouldStopStep, the
 * very code the generator runs) replayed over many simulated Poisson schedules whose latencies
 * come from a model, counting how often it passes, fails or stays undecided at a rate. The
 * Clopper-Pearson bound assumes requests miss the target independently; in a queue they do not
 * (one long busy period makes a run of misses), so its stated confidence is checked here against
 * a model whose truth is known: M/D/1 by Lindley's recursion, and independent misses as the
 * rule's own assumption. Pure: no I/O, no clock.
 */
import { arrivalOffsets, seededRandom } from '../load/arrivals.ts';
import { lindleyLatenciesMs } from './ladder.ts';
import { shouldStopStep, StepTally, type DecisionRule, type StepOutcome } from '../stats/step-decision.ts';

/** Latency (ms) of each request of a schedule, given its due times (ms from the step's start). */
export type LatencyModel = (dueMs: readonly number[], trial: number) => number[];

/** One server, one request at a time, a fixed service time: M/D/1 by Lindley's recursion, from an empty queue as a step starts. */
export const queueModel =
  (serviceMs: number): LatencyModel =>
  (dueMs) =>
    lindleyLatenciesMs(dueMs, serviceMs);

/** Each request over the target with probability `shareOver`, independently of the others: the binomial's own assumption. */
export const independentModel =
  (shareOver: number, targetMs: number): LatencyModel =>
  (dueMs, trial) => {
    const random = seededRandom(0x9e3779b9 ^ trial);
    return dueMs.map(() => (random() < shareOver ? 2 * targetMs : targetMs / 2));
  };

export interface StepRule {
  targetMs: number;
  rule: DecisionRule;
  /** The shortest a passing step runs, and its time cap (seconds). */
  minSec: number;
  capSec: number;
  checkEveryMs: number;
  /** Count requests by their design effect (`--design-effect`); absent: as independent, the default. */
  designEffect?: boolean;
}

/** One step as the generator runs it: looks every checkEveryMs, stops at a decisive look, the verdict over everything sent. */
export function simulateStep(dueMs: readonly number[], latenciesMs: readonly number[], step: StepRule): StepOutcome {
  const tally = new StepTally(dueMs, step.targetMs, step.designEffect === true);
  for (const [index, latency] of latenciesMs.entries()) tally.settle(index, latency <= step.targetMs, latency);
  let issued = dueMs.length;
  for (let t = step.checkEveryMs; t < step.capSec * 1000; t += step.checkEveryMs) {
    const sent = dueMs.findIndex((due) => due > t);
    tally.advance(t, sent === -1 ? dueMs.length : sent);
    const verdict = tally.verdict(step.rule);
    if (shouldStopStep(verdict, t / 1000, step.minSec)) {
      issued = sent === -1 ? dueMs.length : sent;
      break;
    }
  }
  tally.advance(Number.POSITIVE_INFINITY, issued);
  return tally.verdict(step.rule).outcome;
}

export interface OutcomeShares {
  pass: number;
  fail: number;
  undecided: number;
  /** Variance of the count over the target across trials, over the binomial's at its mean share (1: independent misses). */
  overDispersion: number;
}

/** The rule's outcomes at one rate over `trials` seeded Poisson schedules of the step's cap. */
export function ruleOutcomes(model: LatencyModel, ratePerSec: number, step: StepRule, trials: number, seed = 1): OutcomeShares {
  const counts = { pass: 0, fail: 0, undecided: 0 };
  const overs: number[] = [];
  const sizes: number[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const due = arrivalOffsets(ratePerSec, step.capSec, 'poisson', (seed * 1_000_003 + trial) >>> 0);
    const latencies = model(due, trial);
    counts[simulateStep(due, latencies, step)]++;
    overs.push(latencies.filter((l) => l > step.targetMs).length);
    sizes.push(due.length);
  }
  const n = sizes.reduce((a, b) => a + b, 0) / trials;
  const mean = overs.reduce((a, b) => a + b, 0) / trials;
  const variance = overs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, trials - 1);
  const share = mean / n;
  const binomial = n * share * (1 - share);
  return {
    pass: counts.pass / trials,
    fail: counts.fail / trials,
    undecided: counts.undecided / trials,
    overDispersion: binomial > 0 ? variance / binomial : 1,
  };
}
