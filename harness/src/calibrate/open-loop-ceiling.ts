/**
 * The open-loop generator's ceiling on one server, beside autocannon's and wrk's: the highest
 * rate it sends on schedule (lateness p99 under 1 ms, the generator-bound rule of bench:curve),
 * with nothing dropped, no failed answer and the rate served. A geometric ladder from a quarter
 * of autocannon's closed-loop figure up, stopping at the first rate not held or at twice
 * autocannon's figure (then the ceiling reads "at least"). The generator itself is handed in by
 * the entry point, so calibrate/ does not reach into curve/.
 */

/** One open-loop step as calibrate needs it (the generator's StepMeasurement has these fields). */
export interface OpenLoopFigures {
  achievedPerSec: number;
  dropped: number;
  errors: number;
  timeouts: number;
  latenessMs: { p99: number };
  busyPercent: number;
}

export type OpenLoopStep = (url: string, ratePerSec: number, durationSec: number) => Promise<OpenLoopFigures>;

export interface OpenLoopRung {
  ratePerSec: number;
  achievedPerSec: number;
  latenessP99Ms: number;
  dropped: number;
  failedAnswers: number;
  busyPercent: number;
  held: boolean;
}

export interface OpenLoopCeiling {
  /** Highest rate held; 0 when none was. */
  ceilingPerSec: number;
  /** True when the ladder stopped at its top with every rate held: the ceiling is at least this. */
  atLeast: boolean;
  /** Ceiling over autocannon's best closed-loop median on the same server. */
  overAutocannon: number | null;
  /** Ceiling over wrk's median (best setting's runs); null without wrk. */
  overWrk: number | null;
  steps: OpenLoopRung[];
}

/** The generator-bound rule of bench:curve (curve/step.ts GENERATOR_LATE_MS). */
export const OPEN_LOOP_LATE_MS = 1;
/**
 * Requests in flight at most during a rung. The ceiling is the generator's: whether it sends on
 * schedule. The curve's guard (512 by default) drops a request due while that many are out, and
 * at 33,000 req/s a server 16 ms behind fills 512: raw Bun /hello's rung failed on drops alone
 * with lateness p99 0.66 ms. This many holds a 100 ms stall at 40,000 req/s.
 */
export const OPEN_LOOP_MAX_IN_FLIGHT = 4096;
/** Ladder: from this share of autocannon's figure, this factor apart, up to this share. */
export const OPEN_LOOP_LADDER = { fromShare: 0.25, factor: 1.25, toShare: 2 } as const;

export function rungHeld(ratePerSec: number, f: OpenLoopFigures): boolean {
  return f.latenessMs.p99 < OPEN_LOOP_LATE_MS && f.dropped === 0 && f.errors + f.timeouts === 0 && f.achievedPerSec >= 0.95 * ratePerSec;
}

/** The ladder's rates for a closed-loop figure, rounded to 10 req/s. */
export function openLoopRates(closedLoopPerSec: number): number[] {
  const { fromShare, factor, toShare } = OPEN_LOOP_LADDER;
  const rates: number[] = [];
  for (let r = closedLoopPerSec * fromShare; r <= closedLoopPerSec * toShare * 1.0001; r *= factor)
    rates.push(Math.max(10, Math.round(r / 10) * 10));
  return [...new Set(rates)];
}

/**
 * Climbs the ladder; one rate not held ends it, but only after a second try at that rate (a
 * single preemption on a shared machine should not set the ceiling).
 */
export async function openLoopCeiling(
  step: OpenLoopStep,
  url: string,
  closed: { autocannonPerSec: number; wrkPerSec: number | null },
  durationSec: number,
  signal: AbortSignal,
): Promise<OpenLoopCeiling> {
  const steps: OpenLoopRung[] = [];
  let ceiling = 0;
  let atLeast = true;
  const rates = openLoopRates(closed.autocannonPerSec);
  for (const rate of rates) {
    let rung: OpenLoopRung | undefined;
    for (let attempt = 0; attempt < 2 && !rung?.held; attempt++) {
      if (signal.aborted) throw signal.reason;
      const f = await step(url, rate, durationSec);
      rung = {
        ratePerSec: rate,
        achievedPerSec: Math.round(f.achievedPerSec),
        latenessP99Ms: f.latenessMs.p99,
        dropped: f.dropped,
        failedAnswers: f.errors + f.timeouts,
        busyPercent: f.busyPercent,
        held: rungHeld(rate, f),
      };
      steps.push(rung);
    }
    if (!rung?.held) {
      atLeast = false;
      break;
    }
    ceiling = rate;
  }
  const ratio = (x: number | null) => (x !== null && x > 0 ? Math.round((ceiling / x) * 100) / 100 : null);
  return {
    ceilingPerSec: ceiling,
    atLeast: atLeast && rates.length > 0,
    overAutocannon: ratio(closed.autocannonPerSec),
    overWrk: ratio(closed.wrkPerSec),
    steps,
  };
}
