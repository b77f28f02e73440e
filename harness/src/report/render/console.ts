/**
 * Report -> a short plain-text summary for the terminal at the end of a bench run: what it found
 * first (the same bullets as the README's headline), then one table that fits CONSOLE_WIDTH
 * columns, its notes below it grouped by kind (each kind once, with the cells it applies to),
 * and where the loop stayed. The full picture is in the Markdown; this is what to glance at.
 */
import Table from 'cli-table3';
import type { CellResult } from '../../model/cell.ts';
import type { Report } from '../../model/report.ts';
import { shownP99 } from '../../stats/littles-law.ts';
import { loopFindings } from '../answers.ts';
import { conditionsLine, headlineBullet, syncQuestions } from '../headline-bullets.ts';
import { connectionsSwept } from '../../model/parameters.ts';
import { everyCellLine, groupNotes, noteMarks } from '../text/cell-notes.ts';
import { formatDate, formatMs, formatRps } from '../../present/formats.ts';
import { hostHealth } from '../text/host-health.ts';
import { modeLabel, runtimeLabel, timingText } from '../text/labels.ts';

/** The widest line the summary aims at: a terminal or CI log's usual width. */
export const CONSOLE_WIDTH = 120;

const DASH = '-';

/** Words wrapped to `width` columns, continuation lines indented by `indent`. */
export function wrap(text: string, width = CONSOLE_WIDTH, indent = '  '): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if ([...next].length > width && line !== '') {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

function consoleRow(cell: CellResult, swept: boolean, marks: string): string[] {
  // A failed cell holds only zeros; printing them would read as a measurement.
  const figure = (text: string): string => (cell.status === 'failed' ? DASH : text);
  return [
    runtimeLabel(cell),
    cell.scenario,
    modeLabel(cell, swept),
    figure(formatRps(cell.requestsPerSec.median)),
    figure(shownP99(cell, formatMs)),
    figure(formatMs(cell.probeLatencyMs.p99)),
    marks,
  ];
}

const cellName = (swept: boolean) => (cell: CellResult) => `${runtimeLabel(cell)} ${cell.scenario} ${modeLabel(cell, swept)}`;

/** The table, with a column of note numbers, and the notes it refers to, numbered, below it. */
function resultsTable(report: Report): string {
  const swept = connectionsSwept(report);
  const groups = groupNotes(report.results, cellName(swept));
  const table = new Table({
    head: ['runtime', 'scenario', 'mode', 'req/s', 'p99 ms', 'probe p99 ms', 'notes'],
    colAligns: ['left', 'left', 'left', 'right', 'right', 'right', 'left'],
    // No colours: the summary also lands in CI logs and files.
    style: { head: [], border: [], compact: true },
  });
  for (const cell of report.results) table.push(consoleRow(cell, swept, noteMarks(cell, groups)));
  const notes = groups.map((g, i) => wrap(`${i + 1}. ${g.label}: ${g.cells.join(', ')}`, CONSOLE_WIDTH, '   '));
  const every = everyCellLine(report.results, cellName(swept));
  return [
    table.toString(),
    ...(every === undefined ? [] : [wrap(every)]),
    ...(notes.length === 0 ? [] : [`Notes:\n${notes.join('\n')}`]),
  ].join('\n\n');
}

/** The findings first: the bullets against sync, and which off-loop modes stayed on the loop. */
function findings(report: Report): string | undefined {
  const pairs = syncQuestions(report);
  const bullets = pairs.map(({ question, bystander }) => wrap(`- ${headlineBullet(question, bystander).replace(/\*\*/g, '')}`));
  const loop = loopFindings(report).map((line) => wrap(`- ${line}`));
  if (bullets.length === 0 && loop.length === 0) return undefined;
  return [
    ...(bullets.length === 0
      ? []
      : [
          wrap(
            conditionsLine(
              report,
              pairs.map((p) => p.question),
            ),
            CONSOLE_WIDTH,
            '',
          ),
          bullets.join('\n'),
        ]),
    ...(loop.length === 0 ? [] : [`Whether the off-loop modes left the loop:\n${loop.join('\n')}`]),
  ].join('\n\n');
}

export function renderConsoleSummary(report: Report): string {
  const header = `Benchmark ${formatDate(report.createdAt)}: ${report.status === 'interrupted' ? 'INTERRUPTED (partial results)' : 'complete'}`;
  const skipped = report.runtimes
    .filter((r) => r.status !== 'ok')
    .map((r) => `${r.name} ${r.status}${r.reason === undefined ? '' : `: ${r.reason}`}`);
  const health = hostHealth(report.environment, report.results);
  const parts = [
    header,
    ...(health === undefined ? [] : [wrap(health.text, CONSOLE_WIDTH, '')]),
    ...(skipped.length === 0 ? [] : [wrap(`Not measured: ${skipped.join('; ')}`)]),
    findings(report),
    report.results.length === 0 ? 'No cell was measured.' : resultsTable(report),
    ...(report.timing === undefined ? [] : [wrap(`Wall time ${timingText(report.timing)}`)]),
  ];
  return `${parts.filter((p) => p !== undefined).join('\n\n')}\n`;
}
