// The one way bench (and catalogue, a bench of its scenarios) and bench:ab run: parse and plan,
// then the run, then the report, with one interrupt handling. The first Ctrl-C ends the run in
// order and keeps what finished; a second stops at once and still keeps the finished cells and
// the finished runs of the group in progress.
import type { BenchOptions } from './bench/bench.ts';
import { runBench } from './bench/bench.ts';
import type { LaneSpec } from './bench/lanes.ts';
import { type Plan, planCells } from './bench/plan.ts';
import { createProgress, type Progress } from './bench/progress.ts';
import { RESULTS_ROOT } from './system/paths.ts';
import { keepUnfinishedGroup } from './bench/schedule.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import { writableDir } from './cli/flags.ts';
import type { Report } from './model/report.ts';
import { benchReport, interruptedReport, writeBenchReport } from './report/bench-files.ts';
import { makeRunDir, updateLatest } from './model/run-files.ts';
import type { ReportFeatures } from './model/section.ts';
import { checkInstructionPlan, installedValgrind, instructionExitCode, runInstructionCommand } from './measure/instruction-command.ts';
import { takeMeasureFlags } from './measure/measure-flag.ts';
import { withCounts, sideBySideConsole } from './measure/both-measures.ts';
import { progressLines } from './report/text/progress-lines.ts';
import { CONSOLE_WIDTH, wrap } from './report/render/console.ts';
import { stopAllServers } from './servers/server.ts';

/** What a command planned: the bench plan, its lanes, what it says before anything runs, and what its run adds. */
export interface Planned {
  plan: Plan;
  lanes: LaneSpec[];
  /** Lines said once the plan stands, before anything runs. */
  banner: string[];
  run?: Pick<BenchOptions, 'host' | 'parameters' | 'policy'>;
  /** bench:ab: the two sides, so `--measure instructions` judges each cell B over A. */
  sides?: { a: string; b: string };
}

export interface BenchCommand<P extends Planned> {
  name: string;
  /** What the command adds to the report (its sections, what it derives). */
  features: ReportFeatures;
  /** Parse and plan, checking everything that can be checked before a server starts; or an exit code. */
  plan(argv: string[], context: CommandContext): Promise<P | number>;
  /** Says what the report found, and returns the exit code. */
  report(report: Report, runDir: string, planned: P): number;
}

/** Every line the run logs (its plan, each cell, each warning) wrapped to the console's width, as its summary is. */
function fitted(progress: Progress): Progress {
  return {
    ...progress,
    log: (line) =>
      progress.log(
        line
          .split('\n')
          .map((l) => wrap(l, CONSOLE_WIDTH))
          .join('\n'),
      ),
  };
}

export function runBenchCommand<P extends Planned>(command: BenchCommand<P>): void {
  let forceStop = () => {};
  const main = async (context: CommandContext): Promise<number> => {
    const { measure, count, rest } = takeMeasureFlags(process.argv.slice(2));
    // Before any checkout or preflight the plan may make: without Valgrind there is nothing to count with.
    const valgrind = measure === 'wall' ? undefined : installedValgrind();
    const planned = await command.plan(rest, context);
    if (typeof planned === 'number') return planned;
    if (measure !== 'wall') checkInstructionPlan(planned.plan);
    // Interrupted while planning (a preflight, a checkout): nothing ran, nothing to write.
    if (context.signal.aborted) return 0;
    const { plan } = planned;
    // Made only now that the plan stands: a refused run leaves no empty --out behind.
    const runDir = plan.outDir === undefined ? makeRunDir(RESULTS_ROOT) : writableDir('out', plan.outDir);
    const progress = fitted(createProgress());
    const counting =
      valgrind === undefined
        ? undefined
        : {
            plan,
            valgrind,
            lanes: planned.lanes,
            count,
            runDir,
            signal: context.signal,
            log: (line: string) => progress.log(`${command.name}: ${line}`),
            ...(planned.sides === undefined ? {} : { sides: planned.sides }),
          };
    if (measure === 'instructions' && counting !== undefined) return instructionExitCode(await runInstructionCommand(counting));
    for (const line of planned.banner) progress.log(line);
    forceStop = () => {
      // A second Ctrl-C: the cells finished so far, and the finished runs of the group in
      // progress, written before the process ends.
      keepUnfinishedGroup();
      const partial = interruptedReport(runDir, command.features);
      if (partial !== undefined) writeBenchReport(runDir, partial, command.features);
    };
    const run = await runBench(plan, {
      progress,
      lines: progressLines,
      signal: context.signal,
      lanes: planned.lanes,
      cells: planCells(plan),
      runDir,
      ...planned.run,
    });
    let report = benchReport(run, command.features);
    writeBenchReport(runDir, report, command.features);
    if (plan.outDir === undefined) updateLatest(RESULTS_ROOT, runDir);
    if (counting === undefined || context.signal.aborted) return command.report(report, runDir, planned);
    // The same cells counted once the wall clock is done, so neither measure shares the CPUs with
    // the other; the run's report is written again with the counts in it.
    const counted = await runInstructionCommand(counting);
    const both = withCounts(report, counted, command.features);
    report = both.report;
    writeBenchReport(runDir, report, both.features);
    const exit = command.report(report, runDir, planned);
    console.log(`\n${sideBySideConsole(report)}`);
    return Math.max(exit, instructionExitCode(counted));
  };
  runCommand(command.name, main, { interruptible: true, cleanup: stopAllServers, onForce: () => forceStop() });
}
