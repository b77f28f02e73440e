/**
 * Whether one open-loop step meets "p`q` ≤ target" at a stated confidence: an exact binomial
 * (Clopper-Pearson) test of the share of requests slower than the target against 1 − q/100.
 * Pass when the upper bound on that share is within it, fail as soon as the lower bound is above
 * it; until then the step goes on (undecided if its time cap comes first). The reference is
 * MLPerf LoadGen's early stopping, which asks the same question of the same counts.
 *
 * Also the tally the generator keeps while a step runs (StepTally): a request is counted only once
 * its fate is known, i.e. once `target` ms have passed since it was due. Counting early answers
 * and leaving out the ones still in flight would favour the fast ones.
 */
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';

export type StepOutcome = 'pass' | 'fail' | 'undecided';

/** What a step's counts say, with the exact bounds on the share over the target. */
export interface StepVerdict {
  outcome: StepOutcome;
  /** Requests whose fate was known when the step ended (due at least `target` ms before). */
  requests: number;
  /** Of those: answered slower than the target, failed, timed out, dropped or still unanswered. */
  overTarget: number;
  /** The share over the target the percentile allows: 1 − q/100 (0.01 for p99). */
  allowedShare: number;
  /** One-sided Clopper-Pearson bounds on the true share over the target, at `confidence`. */
  lowerBound: number;
  upperBound: number;
  confidence: number;
  /**
   * The confidence the counts reached for the side they lean to: for "within" the largest level
   * whose upper bound is still within the allowed share, for "over" the same for the lower bound.
   * What a short (--quick) or undecided step can say.
   */
  reached: { side: 'within' | 'over'; confidence: number };
  /**
   * How many requests count as one independent one (≥ 1; designEffect): both counts were divided
   * by it before the bounds. Absent where requests were taken as independent (and in older
   * reports).
   */
  designEffect?: number;
}

export interface DecisionRule {
  /** The percentile q (99 = p99). */
  percentile: number;
  /** One-sided confidence of each bound, e.g. 0.95. */
  confidence: number;
}

/** One-sided exact bounds on a binomial share: `over` of `n`, at `confidence` each side. */
export function clopperPearson(over: number, n: number, confidence: number): { lower: number; upper: number } {
  if (n <= 0) return { lower: 0, upper: 1 };
  const lower = over <= 0 ? 0 : betaQuantile(1 - confidence, over, n - over + 1);
  const upper = over >= n ? 1 : betaQuantile(confidence, over + 1, n - over);
  return { lower, upper };
}

/**
 * The confidence at which the counts show the share within `p0` (the upper bound equals p0
 * there: P(Beta(k+1, n−k) ≤ p0)), and the one at which they show it over p0 (the lower bound
 * equals p0: 1 − P(Beta(k, n−k+1) ≤ p0)).
 */
export function confidenceWithin(over: number, n: number, p0: number): number {
  if (n <= 0 || over >= n) return 0;
  return betaCdf(p0, over + 1, n - over);
}
export function confidenceOver(over: number, n: number, p0: number): number {
  if (n <= 0 || over <= 0) return 0;
  return 1 - betaCdf(p0, over, n - over + 1);
}

/**
 * The verdict of `over` requests over the target out of `n` ("undecided": neither bound decides
 * yet). With a design effect d > 1 (clustered misses: designEffect), the bounds are those of
 * n / d requests with over / d over them (Kish's effective sample size): the same share, known
 * as well as d times fewer independent requests would know it.
 */
export function decide(n: number, over: number, rule: DecisionRule, designEffect = 1): StepVerdict {
  const allowedShare = Math.round((1 - rule.percentile / 100) * 1e9) / 1e9;
  const d = Math.max(1, designEffect);
  const [effN, effOver] = [n / d, over / d];
  const { lower, upper } = clopperPearson(effOver, effN, rule.confidence);
  const within = confidenceWithin(effOver, effN, allowedShare);
  const overConf = confidenceOver(effOver, effN, allowedShare);
  const outcome: StepOutcome = n > 0 && upper <= allowedShare ? 'pass' : n > 0 && lower > allowedShare ? 'fail' : 'undecided';
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    outcome,
    requests: n,
    overTarget: over,
    allowedShare,
    lowerBound: round(lower),
    upperBound: round(upper),
    confidence: rule.confidence,
    reached: within >= overConf ? { side: 'within', confidence: round(within) } : { side: 'over', confidence: round(overConf) },
    ...(designEffect > 1 ? { designEffect: Math.round(d * 100) / 100 } : {}),
  };
}

/** Batches needed before their spread says anything about the series' autocorrelation. */
const MIN_BATCHES = 8;

/**
 * How many consecutive requests of a step count as one independent one: Kish's design effect,
 * estimated by batch means on the first `n` values of a series in schedule order (each request's
 * latency, capped at twice the target). In a queue one long busy period delays a run of
 * neighbouring requests together, so misses cluster and a step's count of them varies several
 * times more than the binomial allows (docs/load-curves.md, "How sure a step really is"). With
 * b = √n requests a batch, d = b · Var(batch means) / Var(values): 1 for independent values, the
 * integrated autocorrelation time for a correlated series. 1 where there are too few requests
 * for eight batches, or no spread.
 */
export function designEffect(values: ArrayLike<number>, n: number): number {
  const b = Math.floor(Math.sqrt(n));
  const k = b === 0 ? 0 : Math.floor(n / b);
  if (k < MIN_BATCHES) return 1;
  const used = k * b;
  let sum = 0;
  for (let i = 0; i < used; i++) sum += values[i] ?? 0;
  const mean = sum / used;
  let ss = 0;
  let ssBatches = 0;
  for (let j = 0; j < k; j++) {
    let batch = 0;
    for (let i = j * b; i < (j + 1) * b; i++) {
      const v = values[i] ?? 0;
      batch += v;
      ss += (v - mean) ** 2;
    }
    ssBatches += (batch / b - mean) ** 2;
  }
  const variance = ss / (used - 1);
  if (!(variance > 0)) return 1;
  return Math.max(1, (b * (ssBatches / (k - 1))) / variance);
}

/**
 * Early stops need at least this many requests over the target to fail: a single hiccup (a GC
 * pause, a preemption on a shared core) makes neighbouring requests slow together, and the
 * binomial test assumes they are independent. Without the guard one or two slow requests among
 * a step's first few would fail it.
 */
export const MIN_OVER_TO_STOP = 3;

/** Whether a running step can stop now: failed (with MIN_OVER_TO_STOP over), or passed after minSec. */
export function shouldStopStep(verdict: Pick<StepVerdict, 'outcome' | 'overTarget'>, elapsedSec: number, minSec: number): boolean {
  if (verdict.outcome === 'fail') return verdict.overTarget >= MIN_OVER_TO_STOP;
  return verdict.outcome === 'pass' && elapsedSec >= minSec;
}

/** Requests needed with none over the target to pass: the smallest n with (1 − allowed)^n ≤ 1 − confidence. */
export function requestsToPass(rule: DecisionRule): number {
  const allowed = 1 - rule.percentile / 100;
  return Math.ceil(Math.log(1 - rule.confidence) / Math.log(1 - allowed) - 1e-9);
}

/**
 * The running count of a step, kept by the generator: each request by its index in the
 * schedule, its outcome recorded when it settles, and counted (in schedule order) once its due
 * time is `targetMs` in the past, when it is known: answered within the target, or not.
 */
export class StepTally {
  /** 0 pending, 1 within the target, 2 over it or failed. */
  private readonly state: Uint8Array;
  /**
   * With `clustered`: each request's latency capped at twice the target (failed or unanswered:
   * the cap), for designEffect. Without: not kept, so a step taken as independent pays nothing.
   */
  private readonly capped: Float64Array | undefined;
  private counted = 0;
  requests = 0;
  over = 0;

  private readonly dueMs: readonly number[];
  private readonly targetMs: number;

  /** `clustered`: the verdict counts requests by their design effect (`bench:curve --design-effect`). */
  constructor(dueMs: readonly number[], targetMs: number, clustered = false) {
    this.dueMs = dueMs;
    this.targetMs = targetMs;
    this.state = new Uint8Array(dueMs.length);
    this.capped = clustered ? new Float64Array(dueMs.length).fill(2 * targetMs) : undefined;
  }

  /**
   * Request `index` settled: ok within the target, or not (slow, error, timeout, dropped), with
   * its latency where it was answered (else it stays at the cap, twice the target).
   */
  settle(index: number, within: boolean, latencyMs?: number): void {
    this.state[index] = within ? 1 : 2;
    if (latencyMs !== undefined && this.capped !== undefined) this.capped[index] = Math.min(latencyMs, 2 * this.targetMs);
  }

  /** The design effect of the requests counted so far (designEffect); 1 for a tally taken as independent. */
  designEffect(): number {
    return this.capped === undefined ? 1 : designEffect(this.capped, this.requests);
  }

  /** The verdict on the requests counted so far, by their design effect where the tally is clustered. */
  verdict(rule: DecisionRule): StepVerdict {
    return decide(this.requests, this.over, rule, this.designEffect());
  }

  /** Counts every request due at or before `nowMs − targetMs` among the first `issued`. */
  advance(nowMs: number, issued: number): void {
    const until = nowMs - this.targetMs;
    while (this.counted < issued && (this.dueMs[this.counted] ?? Number.POSITIVE_INFINITY) <= until) {
      // Still pending past its target: it can only end over it.
      this.requests++;
      if (this.state[this.counted] !== 1) this.over++;
      this.counted++;
    }
  }
}
