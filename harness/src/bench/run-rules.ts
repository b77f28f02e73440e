/**
 * The rules a cell's runs are held to: how many it wants, marking those taken on a slow machine
 * (judged in system/host-speed.ts, which also says which runs count), and what a wrk cross-check
 * does to its flags. Pure.
 */
import { CEILING_OK_RATIO } from '../model/thresholds.ts';
import type { CellResult, RunResult } from '../model/cell.ts';
import type { Flag, ScenarioName } from '../model/names.ts';
import type { ScheduleSettings } from './settings.ts';
import { cv, summarize } from '../stats/stats.ts';
import { halfWidthShare } from '../stats/paired.ts';
import { budgetNeed } from './budget.ts';
import { keptRuns, slowRuns } from '../system/host-speed.ts';

/** A cross-check's figure: wrk's requests/s, at the connections and threads it ran with. */
export type CrossCheckFigure = { requestsPerSec: number; connections: number; threads: number } | undefined;

/**
 * Records wrk's figure beside autocannon's. A measured ratio beats the CPU heuristic: below
 * CEILING_OK_RATIO of wrk the cell is client-bound; at or above it, autocannon got as far as a
 * client in C did, so a busy client core did not limit the figure and the flag goes.
 */
export function withCrossCheck(cell: CellResult, wrk: CrossCheckFigure): CellResult {
  if (wrk === undefined || wrk.requestsPerSec <= 0) return cell;
  const ratio = Math.round((cell.requestsPerSec.median / wrk.requestsPerSec) * 1000) / 1000;
  const others = cell.flags.filter((f) => f !== 'client-bound');
  const flags: Flag[] = ratio < CEILING_OK_RATIO ? ['client-bound', ...others] : others;
  return { ...cell, flags, crossCheck: { tool: 'wrk', ...wrk, requestsPerSec: Math.round(wrk.requestsPerSec), ratio } };
}

/**
 * Whether a lane's cell needs another run: always up to `runs`; then, within the cap and while
 * the time budget allows (`mayExtend`), until its CV target or precision target is met and no
 * run taken on a markedly slow machine is left unreplaced.
 */
export function wantsMoreRuns(
  runs: readonly RunResult[],
  plan: Pick<ScheduleSettings, 'runs' | 'targetCv' | 'maxRuns' | 'targetPrecision'>,
  scenario?: ScenarioName,
  mayExtend: (need: number) => boolean = () => true,
): boolean {
  if (runs.length < plan.runs) return true;
  if (runs.length >= plan.maxRuns) return false;
  const kept = keptRuns(runs);
  const rates = kept.map((r) => r.requestsPerSec);
  const short = kept.length < plan.runs;
  const spread = plan.targetCv !== undefined && cv(rates) > plan.targetCv;
  const target = plan.targetPrecision === undefined ? undefined : precisionTarget(plan.targetPrecision, scenario);
  const width = target === undefined ? 0 : halfWidthShare(summarize(rates));
  const wide = target !== undefined && width > target;
  // The widest cells (relative to their goal) may borrow budget from the cells still to come.
  return (short || spread || wide) && mayExtend(wide ? budgetNeed(width, target, kept.length, plan.maxRuns) : 1);
}

/** The precision asked of a scenario: the plan's target, twice that for hello (a lighter, noisier cell). */
export function precisionTarget(target: number, scenario: ScenarioName | undefined): number {
  return scenario === 'hello' ? target * 2 : target;
}

/**
 * Marks (and unmarks) the runs of a cell taken while the machine was markedly slower than for its
 * other runs, as system/host-speed.ts judges them: keptRuns leaves them out.
 */
export function markSlowRuns(runs: RunResult[]): void {
  const slow = new Set(slowRuns(runs.map((r) => r.machine)));
  runs.forEach((run, i) => {
    if (slow.has(i)) run.slowMachine = true;
    else delete run.slowMachine;
  });
}

/**
 * Whether the servers are restarted before round `round`: every roundsPerProcess rounds when set
 * (bench:ab), for as long as the run goes; else the plan's runs split evenly between its server
 * processes (4 runs, 2 processes: before round 3), rounds beyond the plan's runs staying on the
 * last process.
 */
export function restartsBefore(round: number, plan: Pick<ScheduleSettings, 'runs' | 'serverProcesses' | 'roundsPerProcess'>): boolean {
  if (plan.roundsPerProcess !== undefined) return round > 1 && (round - 1) % plan.roundsPerProcess === 0;
  const processes = plan.serverProcesses ?? 1;
  if (processes < 2) return false;
  const per = Math.ceil(plan.runs / processes);
  return round > 1 && round <= plan.runs && (round - 1) % per === 0;
}
