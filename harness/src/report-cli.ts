// `tsx src/report-cli.ts <report.json>`: re-renders report.md and report.html next to a
// report.json. Rendering only: nothing is measured, the JSON is taken as written.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadChartAssets } from './report/render/html-assets.ts';
import { writeFileAtomic } from './report/output.ts';
import { renderHtml } from './report/render/html.ts';
import { renderMarkdown } from './report/render/markdown.ts';
import type { Report } from './report/report-types.ts';
import type { CurveReport } from './curve/curve-types.ts';
import { renderCurveHtml } from './curve/render-html.ts';
import { renderCurveMarkdown } from './curve/render-text.ts';

const SCHEMA_VERSION: Report['schemaVersion'] = 1;

class ReportFileError extends Error {}

/** The report in `path`, or a ReportFileError whose message is the one line the user sees. */
export function readReport(path: string): Report {
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
  const report = value as Partial<Report> | null;
  if (typeof report !== 'object' || report === null || Array.isArray(report)) throw new ReportFileError(`${path} is not a report (not a JSON object)`);
  if (report.schemaVersion !== SCHEMA_VERSION) {
    throw new ReportFileError(`${path} has schemaVersion ${JSON.stringify(report.schemaVersion)}, this tool reads ${SCHEMA_VERSION}`);
  }
  // Enough shape to render without crashing half-way through a file.
  if ((report as { kind?: unknown }).kind === 'curve') {
    if (!Array.isArray((report as { curves?: unknown }).curves)) throw new ReportFileError(`${path} is not a curve report: "curves" is not an array`);
    return report as Report;
  }
  for (const key of ['runtimes', 'results', 'comparisons'] as const) {
    if (!Array.isArray(report[key])) throw new ReportFileError(`${path} is not a report: "${key}" is not an array`);
  }
  return report as Report;
}

function main(args: readonly string[]): number {
  if (args.length !== 1 || args[0] === undefined || args[0].startsWith('-')) {
    console.error('usage: report-cli <report.json> (re-renders report.md and report.html next to it)');
    return 2;
  }
  // pnpm runs scripts from the package folder: the path is relative to where the user typed it.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), args[0]);
  let report: Report;
  try {
    report = readReport(path);
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error;
    console.error(`report: ${error.message}`);
    return 2;
  }
  const dir = dirname(path);
  // A curve report (bench:curve) has its own renderers.
  if ((report as unknown as { kind?: string }).kind === 'curve') {
    const curves = report as unknown as CurveReport;
    writeFileAtomic(join(dir, 'report.md'), renderCurveMarkdown(curves));
    writeFileAtomic(join(dir, 'report.html'), renderCurveHtml(curves, loadChartAssets()));
    console.log(`report: wrote ${join(dir, 'report.md')} and ${join(dir, 'report.html')}`);
    return 0;
  }
  writeFileAtomic(join(dir, 'report.md'), renderMarkdown(report));
  writeFileAtomic(join(dir, 'report.html'), renderHtml(report, loadChartAssets()));
  console.log(`report: wrote ${join(dir, 'report.md')} and ${join(dir, 'report.html')}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
