/**
 * One cell's steps and capacity bracket, given a way to measure one rate (the caller owns the
 * server and the generator): the capacity search (capacity-search.ts) from the closed-loop
 * figure, or a --rates list as given. Knows nothing of servers, so the server's lifecycle (local
 * or remote) stays in sweep.ts.
 */
import { nextRate, searchBounds, type SearchEnd, type SearchStep } from './capacity-search.ts';
import type { CurvePlan } from './curve-plan.ts';
import { MAX_SEARCH_STEPS, START_SHARE } from './curve-plan.ts';
import type { CapacityBracket, CurveStep } from './curve-types.ts';
import type { StepDecisionOptions } from '../load/generator-types.ts';
import { shouldStop } from './ladder.ts';
import { GENERATOR_BUSY_PERCENT } from './step.ts';
import { requestsToPass } from '../stats/step-decision.ts';

export type MeasureRate = (
  rate: number,
  options: { durationSec: number; decide: StepDecisionOptions; phase: NonNullable<CurveStep['phase']> },
) => Promise<CurveStep>;

/**
 * Looks at the counts this often: few looks (each one a chance of a wrong early stop), yet a
 * failing rate stops within half a second; more often only when steps may pass sooner than
 * that (--step-sec under 0.5 s, as with --quick), so a step is looked at when it may first stop.
 */
const CHECK_EVERY_MS = 500;
export const checkEveryMs = (plan: Pick<CurvePlan, 'stepSec'>) => Math.min(CHECK_EVERY_MS, plan.stepSec * 1000);

export const planPercentile = (plan: Pick<CurvePlan, 'percentile'>) => plan.percentile ?? 99;
export const planConfidence = (plan: Pick<CurvePlan, 'confidence'>) => plan.confidence ?? 0.95;

/** The coarse bracket's factor between rungs: the old ladder's (1.57 with 7 rungs from 10 % to 150 %). */
export function rungFactor(plan: Pick<CurvePlan, 'ladderSteps' | 'ladderShares'>): number {
  const [lo, hi] = plan.ladderShares;
  return plan.ladderSteps <= 1 ? 1.5 : (hi / lo) ** (1 / (plan.ladderSteps - 1));
}

/**
 * A step's time cap: long enough for twice the requests a pass needs with none over (so a rate
 * well inside the capacity can pass), at least stepSec, at most maxStepSec.
 */
export function stepCapSec(
  plan: Pick<CurvePlan, 'stepSec' | 'maxStepSec' | 'percentile' | 'confidence' | 'designEffect'>,
  rate: number,
): number {
  // Counted by their design effect, a pass needs that many times the requests, unknown before
  // the step: it may run to maxStepSec (it still stops at its first decisive look).
  if (plan.designEffect === true) return Math.max(plan.stepSec, plan.maxStepSec);
  const needed = requestsToPass({ percentile: planPercentile(plan), confidence: planConfidence(plan) });
  return Math.min(plan.maxStepSec, Math.max(plan.stepSec, (2 * needed) / rate));
}

export function decisionOptions(plan: CurvePlan): StepDecisionOptions {
  return {
    targetMs: plan.sloMs,
    percentile: planPercentile(plan),
    confidence: planConfidence(plan),
    minSec: plan.stepSec,
    checkEveryMs: checkEveryMs(plan),
    ...(plan.designEffect === true ? { designEffect: true } : {}),
  };
}

const toSearchStep =
  (sloMs: number) =>
  (s: CurveStep): SearchStep => ({
    offeredPerSec: s.offeredPerSec,
    // A step the server did not keep up with fails, whatever its percentile said.
    outcome:
      s.decision === undefined
        ? s.meetsTarget
          ? 'pass'
          : 'fail'
        : s.meetsTarget
          ? 'pass'
          : s.decision.outcome === 'pass'
            ? 'fail'
            : s.decision.outcome,
    leansWithin:
      s.decision === undefined
        ? s.meetsTarget
        : s.decision.requests > 0 && s.decision.overTarget / s.decision.requests <= s.decision.allowedShare,
    generatorBound: generatorLimited(s, sloMs),
  });

/** Lateness at or above this share of the target could by itself put requests over it. */
export const GENERATOR_LIMIT_SHARE = 0.5;

/** The step's misses may be the generator's (see SearchStep.generatorBound), not just flagged generator-bound. */
export function generatorLimited(s: Pick<CurveStep, 'flags' | 'generator' | 'latenessMs'>, sloMs: number): boolean {
  if (!s.flags.includes('generator-bound')) return false;
  return s.generator.busyPercent >= GENERATOR_BUSY_PERCENT || s.latenessMs.p99 >= GENERATOR_LIMIT_SHARE * sloMs;
}

/** The bracket the steps prove: each end with the index of the step that decided it. */
export function capacityBracket(steps: readonly CurveStep[], plan: CurvePlan, end: CapacityBracket['end']): CapacityBracket {
  const search = steps.map(toSearchStep(plan.sloMs));
  const { pass, fail, lo, hi } = searchBounds(search);
  const index = (rate: number | undefined, outcome: string) =>
    rate === undefined ? null : search.findIndex((s) => s.offeredPerSec === rate && s.outcome === outcome);
  return {
    passPerSec: pass ?? null,
    failPerSec: fail ?? null,
    passStep: index(pass, 'pass'),
    failStep: index(fail, 'fail'),
    percentile: planPercentile(plan),
    confidence: planConfidence(plan),
    end,
    searchedBetween: [lo ?? null, hi ?? null],
  };
}

export interface CellSearch {
  steps: CurveStep[];
  capacity: CapacityBracket;
  stoppedEarly: boolean;
}

/** Runs the search (or the --rates list); `onStep` sees each step as it is decided (the progress line). */
export async function searchCell(
  plan: CurvePlan,
  closedLoopPerSec: number,
  measure: MeasureRate,
  onStep: (step: CurveStep, where: string) => void,
  aborted: () => boolean,
): Promise<CellSearch> {
  const steps: CurveStep[] = [];
  const decide = decisionOptions(plan);
  if (plan.rates !== undefined) {
    for (const rate of plan.rates) {
      if (aborted()) break;
      const step = await measure(rate, { durationSec: stepCapSec(plan, rate), decide, phase: 'rates' });
      steps.push(step);
      onStep(step, '');
      if (
        shouldStop(
          steps.map((s) => ({ offeredPerSec: s.offeredPerSec, achievedPerSec: s.achievedPerSec, p99Ms: s.latencyMs.p99 })),
          plan.sloMs,
        )
      )
        break;
    }
    return { steps, capacity: capacityBracket(steps, plan, 'rates'), stoppedEarly: steps.length < plan.rates.length };
  }
  const options = {
    startPerSec: closedLoopPerSec * (plan.startShare ?? START_SHARE),
    factor: rungFactor(plan),
    resolution: plan.resolution ?? 0.05,
    maxUndecided: plan.maxUndecided ?? 2,
    maxSteps: MAX_SEARCH_STEPS,
    // A tenth of the closed-loop figure (the old ladder's lowest rung), and never under 0.5 req/s.
    floorPerSec: Math.max(0.5, closedLoopPerSec * plan.ladderShares[0]),
  };
  let end: SearchEnd = 'step-limit';
  for (;;) {
    if (aborted()) break;
    const search = steps.map(toSearchStep(plan.sloMs));
    const next = nextRate(search, options);
    if ('done' in next) {
      end = next.done;
      break;
    }
    const { hi, lo } = searchBounds(search);
    const phase = hi === undefined || lo === undefined ? 'bracket' : 'bisect';
    const step = await measure(next.rate, { durationSec: stepCapSec(plan, next.rate), decide, phase });
    steps.push(step);
    const b = searchBounds(steps.map(toSearchStep(plan.sloMs)));
    onStep(step, `bracket [${b.pass ?? '-'}, ${b.fail ?? '-'}] req/s, searching [${b.lo ?? '-'}, ${b.hi ?? '-'}]`);
  }
  return { steps, capacity: capacityBracket(steps, plan, end), stoppedEarly: false };
}
