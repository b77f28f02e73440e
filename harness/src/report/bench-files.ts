// A bench run's report files (report.json, report.md, report.html), rendered and written by the
// entry point from the report the bench returned, or, on a forced stop, from its cells on disk.
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import type { CellResult } from '../model/cell.ts';
import type { Environment } from '../model/environment.ts';
import type { Report, Timing } from '../model/report.ts';
import { cellMachineMoved } from '../system/host-speed.ts';
import { mergeReport } from './merge.ts';
import { readCells, writeReportFiles, type RunMeta } from '../model/run-files.ts';
import { loadChartAssets } from '../present/html-assets.ts';
import { renderHtml } from './render/html.ts';
import { renderMarkdown } from './render/markdown.ts';
import { withFeatures, type ReportFeatures } from '../model/section.ts';

/** A run's report: its cells on disk merged with its meta, and what its features derive. */
export function benchReport(
  run: { runDir: string; meta: RunMeta; status: Report['status']; timing?: Timing },
  features?: ReportFeatures,
): Report {
  const { meta } = run;
  return withFeatures(
    mergeReport({
      createdAt: meta.createdAt,
      status: run.status,
      environment: meta.environment,
      parameters: meta.parameters,
      runtimes: meta.runtimes,
      results: runCells(run.runDir, meta.environment),
      ...(run.timing === undefined ? {} : { timing: run.timing }),
    }),
    features,
  );
}

/** Renders the report with its features' sections and writes the three files; returns the Markdown. */
export function writeBenchReport(runDir: string, report: Report, features?: ReportFeatures): string {
  const sections = features?.sections?.(report) ?? [];
  const markdown = renderMarkdown(report, sections);
  writeReportFiles(runDir, report, markdown, renderHtml(report, loadChartAssets(), sections));
  return markdown;
}

/**
 * The report of the cells a run left on disk, as interrupted: what a forced stop keeps, as it
 * cannot wait for the run to wind down. Undefined before the run wrote its meta.json.
 */
export function interruptedReport(runDir: string, features?: ReportFeatures): Report | undefined {
  const path = join(runDir, 'meta.json');
  if (!existsSync(path)) return undefined;
  const meta = JSON.parse(readFileSync(path, 'utf8')) as RunMeta;
  return withFeatures(mergeReport({ ...meta, status: 'interrupted', results: runCells(runDir, meta.environment) }), features);
}

/**
 * The run's cells as on disk, each saying whether its runs read the machine apart beyond the
 * speed sampler's floor, a floor known only once every cell has run (environment.machineSpeed).
 */
function runCells(runDir: string, environment: Environment): CellResult[] {
  const speed = environment.machineSpeed;
  return readCells(runDir).map((cell) => {
    if (speed === undefined) return cell;
    const moved = cellMachineMoved(
      cell.runDetails.map((r) => r.machine),
      speed.idleFloor ?? 0,
    );
    return moved === undefined ? cell : { ...cell, machineMoved: moved };
  });
}
