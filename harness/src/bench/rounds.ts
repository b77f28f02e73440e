/**
 * The measured part of a run: for each pass of connections, each group of lanes (all of them
 * interleaved, or one at a time with --schedule sequential) takes the cells one scenario at a
 * time, in rounds (bench/schedule.ts). Each finished cell goes to disk at once.
 */
import { Interrupted } from '../cli/interrupt.ts';
import type { CellResult } from '../model/cell.ts';
import { writeCell } from '../model/run-files.ts';
import { stopKind } from '../servers/quiet.ts';
import type { RunningServer } from '../servers/server.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import { budgetLine, plannedUnitSec, cellGroups, weightedPace } from './budget.ts';
import type { Lane } from './lanes.ts';
import { phaseKind, type PhaseClock } from './phase-clock.ts';
import type { Plan } from './plan.ts';
import type { Progress, ProgressLines } from './progress.ts';
import { primeFor, type RunSetup } from './run-setup.ts';
import type { RoundPolicy } from './round-policy.ts';
import type { Found } from './run-meta.ts';
import { benchGroup, type ScheduleContext, type ScheduleSetup } from './schedule.ts';
import { scheduleSettings } from './settings.ts';
import { hopOptions, withHopCosts } from './sweep-hop.ts';

export interface RoundsOptions {
  progress: Progress;
  /** How a finished cell (and its profile) is said in the log: the entry point's words (report/text/progress-lines.ts). */
  lines: ProgressLines;
  clock: PhaseClock;
  /** How each group's rounds go (bench/round-policy.ts); default: plain alternation. bench:ab gives its own. */
  policy?: RoundPolicy;
  /** Called as each measured run starts, with its server (fault-injection tests kill or stop it). */
  onRunStarted?: (server: RunningServer, cell: CellSpec) => void;
}

/** What the rounds read of the run's setup: the scheduler's part, and where the cells go. */
export type RoundsSetup = ScheduleSetup & Pick<RunSetup, 'cells' | 'runDir' | 'swept' | 'startedAt' | 'filePaths' | 'cold'>;

/**
 * Every cell on every lane; `skipped` lanes count as done for the progress line. `checkpoint`
 * is told what the rounds found for the meta (the file inputs read in), and called after each
 * group of lanes, for the meta to be written as it stands. Returns the finished cells, as written.
 */
export async function runRounds(
  plan: Plan,
  setup: RoundsSetup,
  { lanes, skipped }: { lanes: Lane[]; skipped: number },
  options: RoundsOptions,
  checkpoint: (found: Pick<Found, 'filesPrimed'>) => void,
): Promise<CellResult[]> {
  const { cells, runDir, swept, host, signal } = setup;
  const { progress, clock } = options;
  const passes = plan.connections;
  const total = cells.length * (lanes.length + skipped) * passes.length;
  const perUnitSec = plannedUnitSec(plan);
  let done = skipped * cells.length * passes.length;
  if (plan.budgetSec !== undefined && lanes.length > 0)
    setup.log(budgetLine(cells.length * passes.length, lanes.length, (total - done) * perUnitSec, plan.budgetSec));
  let groupUnits = 0;
  const written: CellResult[] = [];
  // The pace starts with the first cell: what setup took (input files, fingerprint) comes off the budget first.
  let pace: ((done: number, current: number, need?: number) => boolean) | undefined;
  const context: ScheduleContext = {
    plan: scheduleSettings(plan, passes[0]),
    setup,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    mayExtend: plan.budgetSec === undefined ? undefined : (need: number) => pace?.(done, groupUnits, need) ?? false,
    onRunStarted: options.onRunStarted,
    onPhase: (runtime, cell, phase) => {
      clock.enter(phaseKind(phase));
      progress.update({
        cell: done + 1,
        cells: total,
        runtime,
        scenario: cell.scenario,
        mode: cell.mode,
        phase,
        etaSec: (total - done) * perUnitSec,
      });
    },
  };
  // Interleaved: every lane takes part in each cell, run by run. Sequential: one lane at a time
  // through every cell, the other lanes' servers not even started.
  const groups = plan.schedule === 'interleaved' ? [lanes] : lanes.map((lane) => [lane]);
  // A --connections list: the whole plan once per count (a pass), each cell measured at its pass's count.
  for (const connections of passes) {
    context.plan = scheduleSettings(plan, connections);
    const tagged = (measured: CellResult): CellResult => ({
      ...measured,
      connections,
      ...(host === undefined ? {} : { serverHost: host.environment.host }),
    });
    for (const group of groups) {
      // One scenario's modes at a time, their runs alternating (sync async | async sync): paired.
      const groupsOfCells = cellGroups(cells);
      for (const [index, scenarioCells] of groupsOfCells.entries()) {
        if (signal.aborted) throw new Interrupted('interrupted');
        groupUnits = scenarioCells.length * group.length;
        const filesPrimed = await primeFor(setup, scenarioCells);
        if (filesPrimed !== undefined) checkpoint({ filesPrimed });
        if (plan.budgetSec !== undefined && pace === undefined)
          pace = weightedPace(Math.max(0, plan.budgetSec - (Date.now() - setup.startedAt) / 1000), total, Date.now(), perUnitSec);
        const keepPartial = (partial: CellResult[]) => {
          for (const cell of partial) writeCell(runDir, tagged(cell), swept);
        };
        const measuredGroup = await benchGroup(scenarioCells, group, context, keepPartial);
        const finished =
          plan.sweep === undefined
            ? measuredGroup
            : await withHopCosts(measuredGroup, scenarioCells, group, hopOptions(plan, signal, setup.log));
        for (const measured of finished) {
          const result = tagged(measured);
          writeCell(runDir, result, swept);
          written.push(result);
          done++;
          progress.log(options.lines.cell(result, swept));
        }
        clock.enter('other');
        // Servers no later cell needs are stopped: idle servers are few, not many.
        const later = groupsOfCells.slice(index + 1).flat();
        for (const kind of new Set(scenarioCells.map((c) => c.server)))
          if (!later.some((c) => c.server === kind)) await stopKind(group, kind, plan.drainCapSec);
      }
      checkpoint({});
    }
  }
  return written;
}
