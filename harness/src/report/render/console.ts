/**
 * Report -> a short plain-text summary for the terminal at the end of a bench run.
 * The full picture is in the Markdown; this is what to glance at before opening it.
 */
import Table from 'cli-table3';
import type { CellResult } from '../../model/cell.ts';
import type { Report } from '../../model/report.ts';
import { cellNotes, comparisonLines } from '../text/sentences.ts';
import { formatDate, formatMs, formatRps } from '../text/formats.ts';
import { modeLabel, timingText, runtimeLabel } from '../text/labels.ts';
import { shownP99 } from '../../stats/littles-law.ts';
import { connectionsSwept } from '../cell-lookups.ts';
import { hostHealth } from '../text/host-health.ts';

const DASH = '-';

function consoleRow(cell: CellResult, swept: boolean): string[] {
  // A failed cell holds only zeros; printing them would read as a measurement.
  const figure = (text: string): string => (cell.status === 'failed' ? DASH : text);
  return [
    runtimeLabel(cell),
    cell.scenario,
    modeLabel(cell, swept),
    figure(formatRps(cell.requestsPerSec.median)),
    figure(shownP99(cell, formatMs)),
    figure(formatMs(cell.probeLatencyMs.p99)),
    cellNotes(cell) || 'ok',
  ];
}

function resultsTable(report: Report): string {
  const table = new Table({
    head: ['runtime', 'scenario', 'mode', 'req/s', 'p99 ms', 'probe p99 ms', 'status / flags'],
    colAligns: ['left', 'left', 'left', 'right', 'right', 'right', 'left'],
    // No colours: the summary also lands in CI logs and files.
    style: { head: [], border: [], compact: true },
  });
  const swept = connectionsSwept(report);
  for (const cell of report.results) table.push(consoleRow(cell, swept));
  return table.toString();
}

export function renderConsoleSummary(report: Report): string {
  const header = `Benchmark ${formatDate(report.createdAt)}: ${report.status === 'interrupted' ? 'INTERRUPTED (partial results)' : 'complete'}`;
  const skipped = report.runtimes
    .filter((r) => r.status !== 'ok')
    .map((r) => `${r.name} ${r.status}${r.reason === undefined ? '' : `: ${r.reason}`}`);
  const lines = report.comparisons.flatMap((c) => comparisonLines(report, c).map((line) => `[${c.scenario}] ${line}`));
  const health = hostHealth(report.environment, report.results);
  const parts = [
    header,
    ...(health === undefined ? [] : [health.text]),
    ...(skipped.length === 0 ? [] : [`Not measured: ${skipped.join('; ')}`]),
    report.results.length === 0 ? 'No cell was measured.' : resultsTable(report),
    ...(lines.length === 0 ? [] : [lines.join('\n')]),
    ...(report.timing === undefined ? [] : [`Wall time ${timingText(report.timing)}`]),
  ];
  return `${parts.join('\n\n')}\n`;
}
