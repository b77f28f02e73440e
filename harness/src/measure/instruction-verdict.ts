// bench:ab's rule for instructions per request: B over A, judged against what two server
// processes of the same code differ by (the A/A spread, measured per runtime and committed under
// docs/results/instructions/), never against one process's own rounds, which agree far more
// closely than two processes do.
import type { RuntimeName } from '@bench/app';
import { mean } from '../stats/stats.ts';

/**
 * The A/A spread of instructions per request between server processes: the sample standard
 * deviation of log(figure) over the processes of one runtime committed under
 * docs/results/instructions/aa/, rounded up (the test that guards these figures recomputes them).
 */
export const AA_SPREAD: Readonly<Record<RuntimeName, number>> = { node: 0.001, deno: 0.0002, bun: 0.007 };

/**
 * A pair of processes differs by the difference of two such draws (sd x sqrt 2); four of those
 * keep an A/A pair quiet far more often than 19 times in 20 even where the spread is a little
 * wider than the 10 processes showed. Below FLOOR no promise is made: the window's own
 * by-the-clock work (timers, the lag sampler) is of that order.
 */
const SIGMAS = 4;
const FLOOR = 0.003;

/** The smallest change B over A this runtime's pair can tell from its processes' spread. */
export function instructionThreshold(runtime: RuntimeName): number {
  return Math.max(FLOOR, SIGMAS * Math.SQRT2 * AA_SPREAD[runtime]);
}

export type InstructionVerdictWord = 'regressed' | 'improved' | 'unchanged' | 'inconclusive';

export interface InstructionVerdict {
  verdict: InstructionVerdictWord;
  /** B's figure over A's (instructions per request: above 1 is more work). */
  ratio?: number;
  /** The smallest change this pair could have seen, as a share. */
  threshold: number;
  why: string;
}

/**
 * A cell's figure from its rounds: the rounds after the first. The first is counted and kept, but
 * it can still hold the first run of a long timer's code (Node's HTTP server checks its
 * connections every 30 s), which lands in warm-up on a slow host and in the first round on a fast
 * one: over 10 Node processes the first round scattered by 0.36 %, the second by 0.2 %.
 */
export function cellFigure(rounds: readonly number[]): number {
  return mean(rounds.length > 1 ? rounds.slice(1) : rounds);
}

/**
 * B's figure against A's (cellFigure). Rounds within
 * one process are not a spread to judge by: a compilation lands in one round and not the next,
 * at the same point in every process.
 */
export function instructionVerdict(runtime: RuntimeName, a: readonly number[], b: readonly number[]): InstructionVerdict {
  const threshold = instructionThreshold(runtime);
  if (a.length === 0 || b.length === 0) return { verdict: 'inconclusive', threshold, why: 'a side has no counted rounds' };
  const ratio = cellFigure(b) / cellFigure(a);
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  if (ratio > 1 + threshold) return { verdict: 'regressed', ratio, threshold, why: `${pct(ratio - 1)} more instructions a request` };
  if (ratio < 1 - threshold) return { verdict: 'improved', ratio, threshold, why: `${pct(1 - ratio)} fewer instructions a request` };
  return { verdict: 'unchanged', ratio, threshold, why: `within ±${pct(threshold)}, what two processes of one build may differ by` };
}
