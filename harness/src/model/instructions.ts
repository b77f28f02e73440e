/**
 * report.json's `instructions` (added): the cells of the same plan counted under Valgrind
 * (`--measure wall,instructions`), with the settings that make the count what it is and what it
 * cannot see, and each counted cell beside its wall-clock twin's CPU time a request. The shapes
 * mirror instructions.json's (written by the instruction count), so one can be read as the other.
 */

/** How each cell was counted: warm-up requests with collection off, then rounds of `requests` at `concurrency`. */
export interface CountSettingsRecord {
  warmupRequests: number;
  requests: number;
  rounds: number;
  concurrency: number;
}

/** One server process under Valgrind, per lane (a runtime, or bench:ab's side of one). */
export interface InstructionLaneRecord {
  lane: string;
  runtime: string;
  version: string;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  /** The determinism settings it ran with, in words. */
  settings: string;
  startSeconds?: number;
}

export interface InstructionCellRecord {
  lane: string;
  runtime: string;
  scenario: string;
  mode: string;
  status: 'ok' | 'failed';
  reason?: string;
  /** Instructions a request in each round, in order. */
  rounds: number[];
  /** The cell's figure: the rounds after the first. */
  perRequest?: number;
  /** Instructions a second with no request in hand. */
  idlePerSecond?: number;
  /** The callgrind dumps, relative to the run's folder. */
  files: string[];
  seconds: number;
}

/** bench:ab: B's figure over A's for one cell, judged against the runtime's A/A spread. */
export interface InstructionPairRecord {
  runtime: string;
  scenario: string;
  mode: string;
  a: string;
  b: string;
  result: { verdict: 'regressed' | 'improved' | 'unchanged' | 'inconclusive'; ratio?: number; threshold: number; why: string };
}

/**
 * One counted cell beside the wall-clock cell of the same lane, scenario and mode: how many
 * instructions a nanosecond of the server's CPU time got through. Where the two measure the same
 * thing, that rate is about the same in every cell of one host; a cell far from the others is one
 * where a measure sees what the other does not.
 */
export interface InstructionBeside {
  lane: string;
  runtime: string;
  scenario: string;
  mode: string;
  /** The wall-clock cell's connections (the count ran at count.concurrency). */
  connections?: number;
  instructionsPerRequest: number;
  /** All the server's threads, user and kernel time: the wall-clock cell's median over its runs. */
  cpuMsPerRequest: number;
  /** The same by kind of thread (the wall-clock cell's cpuPerRequestMs). */
  cpuByThreadMs: { loopMs: number; poolMs: number; helperMs: number };
  /** instructionsPerRequest over cpuMsPerRequest in nanoseconds. */
  instructionsPerCpuNs: number;
  /** This cell's rate over the median rate of the cells beside it. */
  overMedian: number;
  /** Further from the median than `agreement.flagFactor` either way. */
  flagged: boolean;
  /** Why a flagged cell may be off, in words (what one of the two measures sees that the other does not). */
  why?: string;
}

/** How steady the rate is across the cells counted beside their wall-clock twins. */
export interface InstructionAgreement {
  cells: number;
  medianPerCpuNs: number;
  /** Highest rate over lowest. */
  maxOverMin: number;
  /** The sample standard deviation of log(rate) over the cells (as a share: 0.1 is about 10 %). */
  sdLog: number;
  /** A cell is flagged past median x this or median / this. */
  flagFactor: number;
  flagged: number;
  /** The same two spreads over the cells not flagged (absent with fewer than two). */
  unflagged?: { maxOverMin: number; sdLog: number };
}

export interface InstructionFigures {
  createdAt: string;
  status: 'complete' | 'interrupted';
  valgrind: string;
  count: CountSettingsRecord;
  /** What a count cannot see, in full. */
  blindSpots: string;
  lanes: InstructionLaneRecord[];
  cells: InstructionCellRecord[];
  pairs?: InstructionPairRecord[];
  sides?: { a: string; b: string };
  /** Wall time of the count, seconds. */
  seconds: number;
  /** Derived: each counted cell beside its wall-clock twin (absent when no cell had one). */
  beside?: InstructionBeside[];
  agreement?: InstructionAgreement;
}
