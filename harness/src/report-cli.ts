// `pnpm bench:report`: with no argument, builds the one results site (data/results/site/
// index.html and index.md) from every run under data/results; with folders, from those;
// with one report file (or one run's folder), re-renders its report.md and report.html.
// Rendering only: nothing is measured, the JSON is taken as written, but for an A/B report's
// verdicts, judged again from its runs by the current rule (site-kinds.ts, judgedAgain) in the
// rendering and the exports alike.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { FlagError, typedPath, writableDir } from './cli/flags.ts';
import { runCommand } from './cli/command.ts';
import { writeFileAtomic, writeJsonAtomic } from './model/run-files.ts';
import { EXPORT_FORMATS, exportReport, type ExportFormat } from './report/export-formats.ts';
import { choice } from './cli/flags.ts';
import type { Report } from './model/report.ts';
import { readReport } from './report-file.ts';
import { judgedAgain, rebuildSite, RESULTS_ROOT, SITE_DIR } from './site-kinds.ts';
import { joinedFromFolder } from './measure/both-measures.ts';

const USAGE =
  'usage: report-cli [DIR...] [--out SITE_DIR] (builds the results site) | report-cli <report.json | run folder> (re-renders that report) | report-cli <report.json> --format bmf|github-action-benchmark|github-action-benchmark-p99 (prints it in that format)';

/** The report file a positional argument names: the file itself, or the one in a run's folder. */
function reportFileOf(path: string): string | undefined {
  if (!existsSync(path)) return path; // readReport says it cannot be read
  if (statSync(path).isFile()) return path;
  return ['report.json', 'calibration.json'].map((f) => join(path, f)).find((f) => existsSync(f));
}

function rerender(path: string): number {
  const read = readReport(path);
  const dir = dirname(path);
  // A bench run and an instruction count of the same plan written into one folder: read side by side.
  const joined = read.kind.kind === 'bench' ? joinedFromFolder(read.json as unknown as Report, dir) : undefined;
  if (joined !== undefined) {
    writeJsonAtomic(path, joined);
    console.log(`report: joined ${join(dir, 'instructions.json')} into ${path}`);
  }
  const section = read.kind.section((joined as unknown as Record<string, unknown> | undefined) ?? read.json, dir);
  writeFileAtomic(join(dir, 'report.md'), section.markdown());
  writeFileAtomic(join(dir, 'report.html'), section.html());
  console.log(`report: wrote ${join(dir, 'report.md')} and ${join(dir, 'report.html')}`);
  return 0;
}

/** A bench report in a dashboard's format, on stdout, an A/B report's verdicts judged again (judgedAgain). */
function exported(path: string, format: ExportFormat): number {
  const read = readReport(path);
  if (read.kind.kind !== 'bench' && read.kind.kind !== 'ab' && read.kind.kind !== 'versions')
    throw new FlagError(`--format ${format}: ${path} is a ${read.kind.kind} report; only bench reports (bench:all, bench:ab) export`);
  process.stdout.write(exportReport(judgedAgain(read.json as unknown as Report), format));
  return 0;
}

function main(argv: string[]): number {
  let values: { out?: string; site?: boolean; format?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { out: { type: 'string' }, site: { type: 'boolean' }, format: { type: 'string' } },
    }));
  } catch (error) {
    throw new FlagError(`${(error as Error).message.split('\n')[0]}; ${USAGE}`);
  }
  // pnpm runs scripts from the package folder: paths are relative to where the user typed them.
  const paths = positionals.map((p) => typedPath(p));
  const only = paths.length === 1 && paths[0] !== undefined && values.site !== true ? reportFileOf(paths[0]) : undefined;
  const format = choice('format', values.format, EXPORT_FORMATS);
  if (format !== undefined) {
    if (only === undefined) throw new FlagError(`--format needs one report; ${USAGE}`);
    return exported(only, format);
  }
  if (only !== undefined) return rerender(only);

  const missing = paths.find((p) => !existsSync(p) || !statSync(p).isDirectory());
  if (missing !== undefined) throw new FlagError(`${missing} is not a folder; ${USAGE}`);
  const siteDir = typeof values.out === 'string' ? writableDir('out', typedPath(values.out)) : SITE_DIR;
  const site = rebuildSite(paths.length === 0 ? [RESULTS_ROOT] : paths, siteDir);
  const { runs, skipped } = site.input;
  for (const s of skipped) console.error(`report: skipped ${s.path}: ${s.reason}`);
  console.log(
    `report: site from ${runs.length} run${runs.length === 1 ? '' : 's'}${skipped.length === 0 ? '' : `, ${skipped.length} skipped`}\nsite:   ${site.html}\n        ${site.markdown}`,
  );
  return 0;
}

runCommand('report', () => main(process.argv.slice(2)));
