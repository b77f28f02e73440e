import { type BenchOptions, runBench } from '../../src/bench/bench.ts';
import { type Plan, planCells } from '../../src/bench/plan.ts';
import { planSpecs } from '../../src/bench/lanes.ts';
import type { Report } from '../../src/model/report.ts';
import { benchReport } from '../../src/report/bench-files.ts';
import { progressLines } from '../../src/report/text/progress-lines.ts';

/** A bench run and its report, as the bench's entry point makes it (without writing the report files). */
export interface BenchOutcome {
  report: Report;
  runDir: string;
}

/** As the entry point plans it: the plan's installations (lanes.ts planSpecs) and cells (plan.ts planCells), unless given. */
export async function benchRun(
  plan: Plan,
  options: Omit<BenchOptions, 'lines' | 'lanes' | 'cells'> & Partial<Pick<BenchOptions, 'lanes' | 'cells'>>,
): Promise<BenchOutcome> {
  const lanes = options.lanes ?? planSpecs(plan, (line) => options.progress.log(line)).map((spec) => ({ spec }));
  const run = await runBench(plan, { lines: progressLines, ...options, lanes, cells: options.cells ?? planCells(plan) });
  return { report: benchReport(run), runDir: run.runDir };
}
