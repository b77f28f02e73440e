import { Interrupted } from '../cli/interrupt.ts';
import { type RunMeta, writeMeta } from '../model/run-files.ts';
import type { Report, Timing } from '../model/report.ts';
import { runLanes, type LaneSpec } from './lanes.ts';
import { createPhaseClock } from './phase-clock.ts';
import type { Plan } from './plan.ts';
import { profilePhase } from './profile-runs.ts';
import { type Found, runMeta } from './run-meta.ts';
import { runRounds, type RoundsOptions } from './rounds.ts';
import { closeRun, measureRoundTrip, recordMachineSpeed, setUpRun, type SetupOptions } from './run-setup.ts';

export interface BenchOptions extends SetupOptions, Omit<RoundsOptions, 'clock'> {
  /**
   * What is measured against what, before --processes multiplies it: the plan's installations
   * (bench-cli resolves plan.versions before anything starts, so an unknown version exits 2;
   * lanes.ts planSpecs) or bench:ab's A and B sides.
   */
  lanes: LaneSpec[];
}

/** A run as measured: its cells are on disk, the report is made from them (report/bench-files.ts benchReport). */
export interface BenchRun {
  /** Where the cells (and meta.json) went, and where the report files belong. */
  runDir: string;
  /** The environment, parameters and runtimes, as the phases found them. */
  meta: RunMeta;
  status: Report['status'];
  /** Where the run's time went, by phase. */
  timing: Timing;
}

/**
 * The whole run: what it needs once (bench/run-setup.ts), its lanes (bench/lanes.ts), the rounds
 * that measure every cell on them, interleaved across lanes or one lane after another
 * (bench/rounds.ts; only one server is ever under load). Each finished cell goes to disk at once;
 * at the end (or on interruption) the run's meta is put together from what the phases found. The
 * entry point merges the cells on disk with it into the report (report/bench-files.ts).
 */
export async function runBench(plan: Plan, options: BenchOptions): Promise<BenchRun> {
  const clock = createPhaseClock();
  const setup = await setUpRun(plan, options);
  const found: Found = { runtimes: [] };
  const save = (more: Partial<Found>) => {
    Object.assign(found, more);
    writeMeta(setup.runDir, runMeta(setup.meta, found));
  };
  try {
    const { entries, autoProcesses, ...lanes } = runLanes(plan, setup, options.lanes);
    const network = await measureRoundTrip(setup, lanes.lanes[0]?.spec);
    save({
      runtimes: entries,
      ...(autoProcesses === undefined ? {} : { autoProcesses }),
      ...(network === undefined ? {} : { network }),
    });
    const measured = await runRounds(plan, setup, lanes, { ...options, clock }, save);
    if (plan.profile) {
      clock.enter('profile');
      await profilePhase(plan, lanes.lanes, measured, setup, options.lines.profile);
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    const hostCheck = await closeRun(setup);
    if (hostCheck !== undefined) found.hostCheck = hostCheck;
    options.progress.done();
  }
  if (setup.speed !== undefined) save(recordMachineSpeed(setup));
  return {
    runDir: setup.runDir,
    meta: runMeta(setup.meta, found),
    status: setup.signal.aborted ? 'interrupted' : 'complete',
    timing: clock.read(),
  };
}

/**
 * 0 when something was measured; 1 when nothing ran (every runtime skipped or failed, or every
 * cell failed). With --strict, 1 as soon as anything did not run cleanly.
 */
export function exitCode(report: Report, strict: boolean): number {
  const ran = report.results.some((r) => r.status !== 'failed');
  if (!ran) return 1;
  const clean = report.runtimes.every((r) => r.status === 'ok') && report.results.every((r) => r.status === 'ok');
  return strict && !clean ? 1 : 0;
}
