/**
 * How a group's rounds go, apart from what runs them: the executor (bench/schedule.ts) starts,
 * checks, warms up and measures; a round policy decides, round by round, which lanes' cells run
 * and in what order, when servers are replaced, and when the group has enough. Plain alternation
 * is here; bench:ab's pairs of processes with their stopping rule are in ab/ab-rounds.ts.
 */
import type { CellResult, LoopUse, RunResult } from '../model/cell.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import type { CellMeta } from './cell.ts';
import type { Lane } from './lanes.ts';
import { restartsBefore, wantsMoreRuns } from './run-rules.ts';
import type { ScheduleSettings } from './settings.ts';

/** One cell on one lane, as the executor measures it and a policy reads it. */
export interface LaneCell {
  lane: Lane;
  cell: CellSpec;
  meta: CellMeta;
  runs: RunResult[];
  wrk?: { requestsPerSec: number; connections: number; threads: number };
  /** Restarts outside a measured run (while getting quiet for the check or the cross-check). */
  restarts: string[];
  /** Set once the cell is settled on this lane (failed, invalid, or measured). */
  result?: CellResult;
  /** Set by a policy: this lane's cell has what its rule needs and takes no more runs. */
  enough?: boolean;
  /** The server (pid) this cell was checked and warmed up on: a new one gets both again. */
  preparedOn?: number;
  /** The server processes (pids) this cell's runs were measured on, in order: a run's serverProcess is its index + 1. */
  pids: number[];
  /** The loop check before the runs (bench/loop-check.ts). */
  loop?: LoopUse;
  /** From the cell's first steady warm-up on this lane: what its later servers are warmed up to (CellContext.atSpeedAfter). */
  atSpeedAfter?: number;
}

/** What a policy may do in a round: the executor's steps, and what it reads to decide. */
export interface RoundSteps {
  /** The group's cells, in plan order. */
  cells: readonly CellSpec[];
  lanes: readonly Lane[];
  /** Each lane's cells (in the order of `lanes`), in the order of `cells`. */
  byLane: readonly (readonly LaneCell[])[];
  settings: ScheduleSettings;
  /** Whether the run's time budget allows runs beyond the plan's minimum now (bench/budget.ts budgetNeed weighs `need`). */
  mayExtend?: (need: number) => boolean;
  log(line: string): void;
  /** New server processes for the group: on every lane, or on `starting` only (the others' are stopped). */
  restart(round: number, starting?: readonly Lane[]): Promise<void>;
  /** The machine's reference figure taken before the round's runs (bench/reference.ts), when the run takes one. */
  reference(): Promise<number | undefined>;
  /** One measured run of a lane's cell. */
  run(state: LaneCell, round: number, referenceMs: number | undefined): Promise<void>;
}

export interface RoundPolicy {
  /** Runs round `round` (from 1) through `steps`; false when the group wanted no more (nothing ran). */
  round(round: number, steps: RoundSteps): Promise<boolean>;
}

/** A lane's cell that still takes runs: not settled, and not enough by the policy's rule. */
export const taking = (state: LaneCell): boolean => state.result === undefined && state.enough !== true;

/** Whether one lane's cells want another round by their own precision rules (run-rules.ts wantsMoreRuns). */
export const laneWants = (laneStates: readonly LaneCell[], steps: Pick<RoundSteps, 'settings' | 'mayExtend'>): boolean =>
  laneStates.some((s) => s.result === undefined && wantsMoreRuns(s.runs, steps.settings, s.cell.scenario, steps.mayExtend));

/** Round r's order: as given on odd rounds, reversed on even ones (ABBA). */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  return round % 2 === 1 ? [...items] : [...items].reverse();
}

/**
 * Plain alternation: in each round every lane that still wants runs runs each of its unsettled
 * cells once, the lanes' order and each lane's cells' order reversed every other round (sync
 * async | async sync: ABBA, and A B | B A for two lanes, so neither always goes first). The
 * servers are replaced where the plan splits a cell's runs between processes; the group ends
 * with the first round no lane wanted.
 */
export const alternation: RoundPolicy = {
  async round(round, steps) {
    if (restartsBefore(round, steps.settings)) await steps.restart(round);
    const referenceMs = await steps.reference();
    let ran = false;
    for (const laneStates of roundOrder(steps.byLane, round)) {
      if (!laneWants(laneStates, steps)) continue;
      for (const state of roundOrder(laneStates, round)) if (state.result === undefined) await steps.run(state, round, referenceMs);
      ran = true;
    }
    return ran;
  },
};
