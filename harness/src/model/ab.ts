/** report.json's A/B fields (bench:ab): what A and B were, and each cell's verdict on B over A. */

import type { Flag } from './names.ts';

export type AbKind = 'file' | 'env' | 'runtime' | 'ref';

/** One side of an A/B as run: enough to say exactly what was measured. */
export interface AbSide {
  /** As typed: "file:./handler.ts", "env:UV_THREADPOOL_SIZE=8", "runtime:node@24", "ref:main". */
  variant: string;
  kind: AbKind;
  /** The lane labels of this side's cells, one per runtime ("node-A"). */
  lanes: string[];
  /**
   * file: the module's path (from the repository's root when it lies inside it), the sha256 of
   * its bytes, and the scenario name it exports: the one scenario whose cells differ between A
   * and B (other scenarios named with --scenarios run the same built-in code on both sides: A/A
   * cells). The name is absent in reports made before it was recorded.
   */
  file?: { path: string; sha256: string; scenario?: string };
  /** env: the settings added to the server process's environment. */
  env?: Record<string, string>;
  /** runtime: the installation as asked for ("node@24"); its exact version is on the runtime entry. */
  runtime?: string;
  /** ref: the ref as given and the commit it named. */
  ref?: { name: string; commit: string };
}

/** What the run was asked to compare: in report.parameters.ab. */
export interface AbPlan {
  a: AbSide;
  b: AbSide;
  /** Order of the two lanes within the rounds: reversed every other round (ABBA). */
  order: 'ABBA';
  /** The practical margin of a heavy cell's requests/s (hello's is twice it). */
  margin: number;
  /**
   * ref: pairs without --scenarios: the files two commits differ in that a server reads, when
   * they are scenario modules only and bench:ab measured just those scenarios (ab/ref-scope.ts).
   */
  scopedBy?: string[];
}

export type AbVerdict = 'regressed' | 'improved' | 'unchanged' | 'inconclusive';

/**
 * Why a cell is inconclusive, in one word (its `reason` says it in full): a side failed or is
 * missing; too few paired rounds for an interval; all rounds on one pair of server processes
 * (--quick); an interval wider than the margin; one as narrow, reaching past it; within the margin
 * only once adjusted for the machine's speed; a client-bound side.
 */
export type AbWhy = 'failed' | 'few-rounds' | 'one-pair' | 'wide' | 'off-centre' | 'adjusted-only' | 'client-bound';

/**
 * How a cell's ratio and interval were adjusted for the machine's speed (ab/ab-verdict.ts
 * overProcessPairs, stats/covariate.ts): the ratio where the machine ran equally fast for A and B,
 * read off the process pairs' B/A against their speed ratio.
 */
export interface SpeedAdjusted {
  /** How much a pair's log B/A moved per unit of its log speed ratio (B's run over A's). */
  slope: number;
  /** Pearson's r of the pairs' log B/A and log speed ratio. */
  correlation: number;
  /** The plain geometric mean over the pairs and its 95 % interval, before the adjustment. */
  unadjusted: { ratio: number; ci95: [number, number] };
}

/** One cell's judgement: B's requests/s over A's, paired round by round. */
export interface AbCell {
  runtime: string;
  scenario: string;
  mode: string;
  /** Present when the cell has a query (a sized cell). */
  query?: string;
  verdict: AbVerdict;
  /**
   * Geometric mean ratio B/A with its 95 % interval (over process pairs when there are 3 or more,
   * else over rounds); absent without enough paired rounds.
   */
  ratio?: number;
  ci95?: [number, number];
  /** Paired rounds: an A run and a B run of one round, whose ratio is one sample. */
  pairs: number;
  /** The process pairs (A's and B's server processes, started together) those rounds ran on: the interval's units with 3 or more. */
  processPairs?: number;
  /** Rounds left out because another process used the CPU beside either side's run. */
  sharedRounds?: number;
  /** Present when ratio and ci95 are adjusted for the machine's speed (every process pair timed). */
  speedAdjusted?: SpeedAdjusted;
  /** The margin this cell is held to (0.05 = ±5 %). */
  margin: number;
  /**
   * The smallest change this cell's A/B could have flagged, as a share (0.031 = 3.1 %): the larger of
   * its interval's half-width and the flag's floor, 0.6 of the margin (ab/ab-verdict.ts
   * FLAG_SHARE). Infinity (null in JSON) without an interval.
   */
  detectable: number | null;
  /** Why, for inconclusive cells, and what to do. */
  reason?: string;
  /** Inconclusive cells: the reason in one word, for a line read at a glance. */
  why?: AbWhy;
  /**
   * An inconclusive cell whose interval was too wide: about how many process pairs,
   * at the spread its process pairs showed, would narrow it enough to flag a change of the margin 9
   * times in 10 (ab/ab-verdict.ts processPairsToSee). Absent where more process pairs would not do it within 400.
   */
  pairsNeeded?: number;
  /**
   * True when B's cell failed, was invalid or is missing where A's measured: B broke what A
   * served, which fails the gate as a regression does (exit 1).
   */
  bFailed?: true;
  /**
   * Each side's cell flags that bear on B/A (client-bound, overloaded, count-mismatch: bench/cell-status.ts),
   * present when either side has one: what to read the verdict with.
   */
  flags?: { a: Flag[]; b: Flag[] };
}

export interface AbComparison {
  cells: AbCell[];
  /** Cells per verdict. */
  counts: Record<AbVerdict, number>;
}
