// The report file `pnpm bench:report` re-renders or exports, read and checked before anything is
// written: apart from the command line, so the tests can read its refusals without a process.
import { readFileSync } from 'node:fs';
import { CommandError } from './cli/command.ts';
import { SITE_KINDS } from './site-kinds.ts';
import type { Report } from './model/report.ts';
import type { SiteKind } from './report/site-model.ts';

const SCHEMA_VERSION: Report['schemaVersion'] = 1;
class ReportFileError extends CommandError {}

/** The report in `path` and its kind, or a ReportFileError whose message is the one line the user sees. */
export function readReport(path: string): { json: Record<string, unknown>; kind: SiteKind } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReportFileError(`cannot read ${path}${code === undefined ? '' : ` (${code})`}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReportFileError(`${path} is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ReportFileError(`${path} is not a report (not a JSON object)`);
  const report = value as Record<string, unknown>;
  if (report.schemaVersion !== SCHEMA_VERSION) {
    throw new ReportFileError(`${path} has schemaVersion ${JSON.stringify(report.schemaVersion)}, this tool reads ${SCHEMA_VERSION}`);
  }
  // Enough shape to render without crashing half-way through a file.
  if (report.kind === 'curve' && !Array.isArray(report.curves))
    throw new ReportFileError(`${path} is not a curve report: "curves" is not an array`);
  if (report.kind === undefined && !('wrk' in report) && !('browser' in report)) {
    for (const key of ['runtimes', 'results', 'comparisons'] as const) {
      if (!Array.isArray(report[key])) throw new ReportFileError(`${path} is not a report: "${key}" is not an array`);
    }
  }
  const kind = SITE_KINDS.find((k) => k.accepts(report));
  if (kind === undefined)
    throw new ReportFileError(
      `${path} is not a report this tool knows${typeof report.kind === 'string' ? ` (kind "${report.kind}")` : ''}`,
    );
  return { json: report, kind };
}
