/**
 * bench:ab's round policy (bench/round-policy.ts): every lane that still takes runs runs every
 * round, each cell's lanes back to back, so a B/A ratio compares neighbours in time; a new process
 * pair every plan.roundsPerProcess rounds; past the plan's runs, another process pair only
 * while some runtime's A and B lanes of a cell still need one for their verdict (abProcessPairNeed).
 */
import type { RuntimeName } from '@bench/app';
import { throughputMargin } from '../compare/gate.ts';
import type { RunResult } from '../model/cell.ts';
import type { ScenarioName } from '../model/names.ts';
import { isClientBound } from '../bench/cell-status.ts';
import type { Role } from '../bench/lanes.ts';
import { type LaneCell, laneWants, type RoundPolicy, type RoundSteps, roundOrder, taking } from '../bench/round-policy.ts';
import { restartsBefore } from '../bench/run-rules.ts';
import { abNeed } from './ab-verdict.ts';

/** One cell's runs on one lane, as bench:ab's rule for another pair of processes reads them. */
export interface LaneRuns {
  role: Role | undefined;
  runtime: RuntimeName;
  scenario: ScenarioName;
  runs: readonly RunResult[];
}

/** How much one runtime's lanes (A and B) of a cell still need another pair of processes: 0 none, else budget/budgetNeed's weight (1 to 3). */
export type ProcessPairNeed = (lanes: readonly LaneRuns[]) => number;

/** bench:ab's rounds, judged by `need` (abProcessPairNeed) at the boundaries between pairs of processes. */
export function abRounds(need: ProcessPairNeed): RoundPolicy {
  return {
    async round(round, steps) {
      // Whether the round is wanted comes first: a pair of processes nobody needs is not started.
      if (!roundWanted(round, steps, need)) return false;
      // Lanes whose cells all have enough are stopped, not restarted.
      if (restartsBefore(round, steps.settings))
        await steps.restart(
          round,
          steps.lanes.filter((_, i) => steps.byLane[i]?.some(taking)),
        );
      const referenceMs = await steps.reference();
      // Every lane still taking runs runs the round, so each round pairs; each cell's lanes back to back.
      for (const index of roundOrder([...steps.cells.keys()], round))
        for (const laneStates of abLaneOrder(steps.byLane, round, steps.settings.roundsPerProcess)) {
          const state = laneStates[index];
          if (state !== undefined && taking(state)) await steps.run(state, round, referenceMs);
        }
      return true;
    },
  };
}

/**
 * Whether the lanes run round `round`. With a process length, whole processes only: the plan's
 * runs, then (at a process boundary) one more pair of processes while a cell's lanes on some
 * runtime need it, the cap allows a whole process and the budget allows it; a process once
 * started serves all its rounds, so each pair of processes is balanced (A B | B A). A runtime's
 * lanes of a cell that need no more stop there (LaneCell.enough). Without a process length
 * (--quick), the lanes' own precision rules decide.
 */
function roundWanted(round: number, steps: RoundSteps, need: ProcessPairNeed): boolean {
  const { byLane, cells, settings } = steps;
  const per = settings.roundsPerProcess;
  if (per === undefined) return byLane.some((lane) => laneWants(lane, steps));
  const measured = round - 1;
  if (!byLane.some((lane) => lane.some(taking))) return false;
  if (measured < settings.runs || measured % per !== 0) return measured < settings.maxRuns;
  if (measured + per > settings.maxRuns) return false;
  let most = 0;
  const stopped: string[] = [];
  for (const [index, cell] of cells.entries()) {
    const open = byLane.map((lane) => lane[index]).filter((s): s is LaneCell => s !== undefined && taking(s));
    const read = (s: LaneCell): LaneRuns => ({ role: s.lane.role, runtime: s.lane.spec.name, scenario: cell.scenario, runs: s.runs });
    const still = processPairsStillNeeded(open, read, need);
    for (const s of still.enough) s.enough = true;
    for (const runtime of new Set(still.enough.map((s) => s.lane.spec.name))) stopped.push(`${runtime} ${cell.scenario}/${cell.mode}`);
    most = Math.max(most, still.need);
  }
  const more = most > 0 && (steps.mayExtend?.(most) ?? true);
  if (more && stopped.length > 0)
    steps.log(`bench:ab: ${stopped.join(', ')}: ${measured / per} pairs of processes are enough for the verdict; the other cells go on`);
  return more;
}

/**
 * Round r's order of bench:ab's lanes, a new pair of server processes every `perProcess` rounds:
 * ABBA within each pair of processes, and the lane that goes first on a fresh pair (warmed up and
 * measured first) alternating from one process pair to the next (A B | B A, then B A | A B), so neither
 * lane is always the first on new processes.
 */
export function abLaneOrder<T>(lanes: readonly T[], round: number, perProcess: number | undefined): T[] {
  if (perProcess === undefined) return roundOrder(lanes, round);
  const processPair = Math.floor((round - 1) / perProcess);
  return roundOrder(lanes, ((round - 1) % perProcess) + processPair + 1);
}

/**
 * At a boundary between pairs of processes, past the minimum: one cell's lanes that still take
 * runs, asked runtime by runtime (its A and B lanes together) whether they need another process pair. A
 * runtime's lanes that need none are `enough`: they stop together, so a cell that has what its
 * verdict needs leaves the budget and the restarts to the cells that do instead of running on
 * beside them. `need` is the largest need of the rest (0: none goes on).
 */
export function processPairsStillNeeded<T>(
  lanes: readonly T[],
  read: (lane: T) => LaneRuns,
  need: ProcessPairNeed,
): { enough: T[]; need: number } {
  const byRuntime = new Map<RuntimeName, T[]>();
  for (const lane of lanes) {
    const runtime = read(lane).runtime;
    byRuntime.set(runtime, [...(byRuntime.get(runtime) ?? []), lane]);
  }
  const enough: T[] = [];
  let most = 0;
  for (const group of byRuntime.values()) {
    const wanted = need(group.map(read));
    if (wanted > 0) most = Math.max(most, wanted);
    else enough.push(...group);
  }
  return { enough, need: most };
}

/**
 * bench:ab's need for another pair of processes, for one runtime's lanes of a cell: abNeed on its
 * A and B runs at the scenario's margin (hello's is wider). A runtime with one side left (the
 * other's cell failed) has nothing to pair: 0. Nor has a cell whose load generator was bound on
 * both sides so far: no number of process pairs could flag it (ab-verdict.ts withFlags), so the budget
 * goes to the cells that can use it. (A wrk cross-check after the rounds may still clear the
 * flag; the cell is then judged on the process pairs it had, and its verdict says what they could see.)
 */
export function abProcessPairNeed(margin: number, maxProcessPairs: number): ProcessPairNeed {
  return (lanes) => {
    const a = lanes.find((l) => l.role === 'a');
    const b = lanes.find((l) => l.role === 'b');
    if (a === undefined || b === undefined) return 0;
    if (isClientBound(a.runs) && isClientBound(b.runs)) return 0;
    return abNeed(a.runs, b.runs, throughputMargin(a.scenario, margin), maxProcessPairs);
  };
}
