// What `pnpm bench:compare` does (compare-cli.ts runs it): apart from the command line, so the
// tests can read its refusals without starting a process for each.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FlagError, typedPath } from './cli/flags.ts';
import { CommandError } from './cli/command.ts';
import { parseArgs } from 'node:util';
import { checkSchemaVersions, compareReports, CompareError, DEFAULT_ALPHA, DEFAULT_THRESHOLD } from './compare/compare.ts';
import { renderComparisonMarkdown } from './compare/render-compare.ts';
import type { Report } from './model/report.ts';
import { compareCurves, renderCurveComparison } from './curve/capacity-changes.ts';
import type { CurveReport } from './curve/curve-types.ts';

const USAGE = 'usage: compare <baseline report.json> <current report.json> [--threshold 0.05] [--alpha 0.05] [--out FILE] [--json FILE]';
const EXIT_REGRESSED = 1;
export const EXIT_CANNOT_COMPARE = 2;

interface CompareArgs {
  baseline: string;
  current: string;
  threshold: number;
  alpha: number;
  out?: string;
  /** The comparison as JSON (cells, counts, reproducibility) for scripts. */
  json?: string;
}

/** "0.05" or "5%"; a bare number >= 1 is refused, as "5" almost surely meant 5 %, not 500 %. */
function parseThreshold(text: string): number {
  const percent = text.trim().endsWith('%');
  const value = Number(percent ? text.trim().slice(0, -1) : text);
  const fraction = percent ? value / 100 : value;
  if (text.trim() === '' || !Number.isFinite(fraction) || fraction < 0 || (!percent && fraction >= 1)) {
    throw new FlagError(`--threshold must be a fraction such as 0.05 (or 5%), got "${text}"`);
  }
  return fraction;
}

function parseAlpha(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !(value > 0 && value < 1)) throw new FlagError(`--alpha must be between 0 and 1, got "${text}"`);
  return value;
}

function parseCompareArgs(argv: string[]): CompareArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { threshold: { type: 'string' }, alpha: { type: 'string' }, out: { type: 'string' }, json: { type: 'string' } },
    });
  } catch (error) {
    throw new FlagError(`${(error as Error).message}; ${USAGE}`);
  }
  const { positionals, values } = parsed;
  const [baseline, current] = positionals;
  if (positionals.length !== 2 || baseline === undefined || current === undefined) {
    throw new FlagError(`expected 2 report files, got ${positionals.length}; ${USAGE}`);
  }
  return {
    baseline,
    current,
    threshold: values.threshold === undefined ? DEFAULT_THRESHOLD : parseThreshold(values.threshold),
    alpha: values.alpha === undefined ? DEFAULT_ALPHA : parseAlpha(values.alpha),
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(values.json === undefined ? {} : { json: values.json }),
  };
}

function readJson(given: string, name: string): unknown {
  let text: string;
  // A run's folder stands for the report.json in it (data/results/<run>/).
  const path = existsSync(given) && statSync(given).isDirectory() ? join(given, 'report.json') : given;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CommandError(`cannot read the ${name} report ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CommandError(`the ${name} report ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the comparison reads; a file lacking it is some other JSON, not a report. */
function shapeProblem(value: Record<string, unknown>): string | undefined {
  for (const field of ['environment', 'parameters']) if (!isObject(value[field])) return `no ${field} object`;
  if (!Array.isArray(value.runtimes)) return 'no runtimes array';
  if (!Array.isArray(value.results)) return 'no results array';
  const index = value.results.findIndex(
    (cell: unknown) =>
      !isObject(cell) || !isObject(cell.requestsPerSec) || !Array.isArray(cell.requestsPerSec.runs) || !Array.isArray(cell.runDetails),
  );
  return index === -1 ? undefined : `results[${index}] has no requestsPerSec.runs or runDetails`;
}

function notAReport(path: string, name: string, problem: string): CommandError {
  return new CommandError(`the ${name} report ${path} is not a benchmark report: ${problem}`);
}

/** Before the schema check, so a stray JSON file is called that rather than "schema undefined". */
function versioned(value: unknown, path: string, name: string): Record<string, unknown> {
  if (!isObject(value)) throw notAReport(path, name, 'not a JSON object');
  if (!('schemaVersion' in value)) throw notAReport(path, name, 'no schemaVersion');
  return value;
}

function asReport(value: Record<string, unknown>, path: string, name: string): Report {
  const problem = shapeProblem(value);
  if (problem !== undefined) throw notAReport(path, name, problem);
  return value as unknown as Report;
}

function writeOut(path: string, text: string, flag = '--out'): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new CommandError(`cannot write ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function main(argv: string[]): number {
  const args = parseCompareArgs(argv);
  // pnpm runs scripts from the package folder: paths are relative to where the user typed them.
  const baselinePath = typedPath(args.baseline);
  const currentPath = typedPath(args.current);
  const baselineJson = versioned(readJson(baselinePath, 'baseline'), baselinePath, 'baseline');
  const currentJson = versioned(readJson(currentPath, 'current'), currentPath, 'current');
  // Two curve reports (bench:curve): capacities at the target, side by side.
  if (baselineJson.kind === 'curve' || currentJson.kind === 'curve') {
    if (baselineJson.kind !== currentJson.kind)
      throw new CommandError('one report is a curve report (bench:curve) and the other is not: compare like with like');
    const result = compareCurves(baselineJson as unknown as CurveReport, currentJson as unknown as CurveReport, args.threshold);
    const markdown = renderCurveComparison(result, (currentJson as unknown as CurveReport).parameters.sloMs);
    process.stdout.write(markdown);
    if (args.out !== undefined) writeOut(typedPath(args.out), markdown);
    return result.hasRegression ? EXIT_REGRESSED : 0;
  }
  // Schema first: a report of another schema version may legitimately have another shape.
  checkSchemaVersions(baselineJson, currentJson);
  const baseline = asReport(baselineJson, baselinePath, 'baseline');
  const current = asReport(currentJson, currentPath, 'current');
  const comparison = compareReports(baseline, current, { threshold: args.threshold, alpha: args.alpha });
  const markdown = renderComparisonMarkdown(comparison);
  process.stdout.write(markdown);
  if (args.out !== undefined) writeOut(typedPath(args.out), markdown);
  if (args.json !== undefined) writeOut(typedPath(args.json), `${JSON.stringify(comparison, null, 2)}\n`, '--json');
  return comparison.hasRegression ? EXIT_REGRESSED : 0;
}

/**
 * The command's whole work on its arguments: its exit code, the comparison on stdout; a refusal
 * (usage, an unreadable or invalid report, schema versions that differ) is a CommandError, the one
 * line the command prints before it exits 2.
 */
export function compareMain(argv: string[]): number {
  try {
    return main(argv);
  } catch (error) {
    throw error instanceof CompareError ? new CommandError(error.message) : error;
  }
}
