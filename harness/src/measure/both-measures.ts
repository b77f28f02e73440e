// `--measure wall,instructions`: once the wall-clock plan has run and its report stands, the same
// cells are counted under Valgrind into the same run folder (bench-entry.ts), and the report
// takes the counts, each beside its wall-clock cell's CPU time a request.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../model/report.ts';
import { combineFeatures, type ReportFeatures, withFeatures } from '../model/section.ts';
import type { InstructionReport } from './instruction-report.ts';
import { figuresOf, instructionFeatures } from './instruction-section.ts';

/**
 * A wall-clock report with an instruction count's figures in it, the side-by-side rows derived,
 * and the features that render it: the command's own and the count's section after them.
 */
export function withCounts(
  report: Report,
  counted: InstructionReport,
  features: ReportFeatures,
): { report: Report; features: ReportFeatures } {
  const combined = combineFeatures(features, instructionFeatures);
  return { report: withFeatures({ ...report, instructions: figuresOf(counted) }, combined), features: combined };
}

/** The console's side-by-side table, printed after the command's own summary. */
export function sideBySideConsole(report: Report): string {
  return instructionFeatures.sections?.(report)[0]?.console?.() ?? '';
}

/**
 * A wall-clock report read back with the count of the same plan that was written into its folder
 * (`--measure instructions --out` the same folder, or a count interrupted before the report was
 * written again) joined in; undefined when the folder has none, or the report has it already.
 */
export function joinedFromFolder(report: Report, dir: string): Report | undefined {
  const path = join(dir, 'instructions.json');
  if (report.instructions !== undefined || !existsSync(path)) return undefined;
  const counted = JSON.parse(readFileSync(path, 'utf8')) as InstructionReport;
  if (counted.kind !== 'instructions' || !Array.isArray(counted.cells)) return undefined;
  return withCounts(report, counted, {}).report;
}
