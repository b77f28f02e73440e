import { Interrupted } from '../cli/interrupt.ts';
import { mergeReport } from '../report/merge.ts';
import { readCells, type RunMeta, writeMeta } from '../model/run-files.ts';
import type { Report } from '../model/report.ts';
import { withFeatures, type ReportFeatures } from '../report/section.ts';
import { runLanes, type LaneSpec } from './lanes.ts';
import { createPhaseClock, type PhaseClock } from './phase-clock.ts';
import type { Plan } from './plan.ts';
import { profilePhase } from './profile-runs.ts';
import { type Found, runMeta } from './run-meta.ts';
import { runRounds, type RoundsOptions } from './rounds.ts';
import { closeRun, measureRoundTrip, recordMachineSpeed, setUpRun, type RunSetup, type SetupOptions } from './run-setup.ts';

export interface BenchOptions extends SetupOptions, Omit<RoundsOptions, 'clock'> {
  /**
   * What is measured against what, before --processes multiplies it (bench-cli resolves
   * plan.versions before anything starts, so an unknown version exits 2; bench:ab gives its A and
   * B sides). Default: the plan's versions resolved here, or each runtime's pinned installation.
   */
  lanes?: LaneSpec[];
  /** What the features add to the report (versions compared, their sections); given by bench-cli. */
  features?: ReportFeatures;
}

export interface BenchOutcome {
  /** The merged report with what the features derive; rendering and writing it is the entry point's. */
  report: Report;
  /** Where the cells (and meta.json) went, and where the report files belong. */
  runDir: string;
}

/**
 * The whole run: what it needs once (bench/run-setup.ts), its lanes (bench/lanes.ts), the rounds
 * that measure every cell on them, interleaved across lanes or one lane after another
 * (bench/rounds.ts; only one server is ever under load), then the report. Each finished cell goes
 * to disk at once; at the end (or on interruption) the cells on disk are merged into the report
 * returned (the entry point renders and writes it: report/bench-files.ts).
 */
export async function runBench(plan: Plan, options: BenchOptions): Promise<BenchOutcome> {
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
    await runRounds(plan, setup, lanes, { ...options, clock }, save);
    if (plan.profile) {
      clock.enter('profile');
      await profilePhase(plan, lanes.lanes, setup);
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    const hostCheck = await closeRun(setup);
    if (hostCheck !== undefined) found.hostCheck = hostCheck;
    options.progress.done();
  }
  if (setup.speed !== undefined) save(recordMachineSpeed(setup));
  const meta = runMeta(setup.meta, found);
  return { report: withFeatures(runReport(meta, setup, clock), options.features), runDir: setup.runDir };
}

/** The cells on disk merged with the run's meta. */
function runReport(meta: RunMeta, setup: Pick<RunSetup, 'signal' | 'runDir'>, clock: PhaseClock): Report {
  return mergeReport({
    createdAt: meta.createdAt,
    status: setup.signal.aborted ? 'interrupted' : 'complete',
    environment: meta.environment,
    parameters: meta.parameters,
    runtimes: meta.runtimes,
    results: readCells(setup.runDir),
    timing: clock.read(),
  });
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
