import { type BenchOptions, runBench } from '../../src/bench/bench.ts';
import type { Plan } from '../../src/bench/plan.ts';
import type { Report } from '../../src/model/report.ts';
import { benchReport } from '../../src/report/bench-files.ts';
import { progressLines } from '../../src/report/text/progress-lines.ts';

/** A bench run and its report, as the bench's entry point makes it (without writing the report files). */
export interface BenchOutcome {
  report: Report;
  runDir: string;
}

export async function benchRun(plan: Plan, options: Omit<BenchOptions, 'lines'>): Promise<BenchOutcome> {
  const run = await runBench(plan, { lines: progressLines, ...options });
  return { report: benchReport(run), runDir: run.runDir };
}
