/**
 * The HTML report's tables: one row per cell under each scenario's charts (the figures, with the
 * numbers of their notes beside them; the notes listed once below the table, each kind with the
 * cells it applies to, as report.md does), and the environment and parameters tables. Pure.
 */
import { escapeHtml } from '../../present/html-escape.ts';
import { shownP99 } from '../../stats/littles-law.ts';
import { entryLane, laneOf } from '../../model/cell-lookups.ts';
import { connectionsSwept } from '../../model/parameters.ts';
import { MODES } from '../../model/names.ts';
import { driftCancelledText, precisionText } from '../../present/precision.ts';
import { everyCellLine, groupNotes, type NoteGroup, noteMarks } from '../text/cell-notes.ts';
import { environmentRows, modeLabel, parameterRows, THREAD_HEAD, threadFigures, runtimeLabel } from '../text/labels.ts';
import { formatMs, formatRatio, formatRps } from '../../present/formats.ts';
import type { CellResult } from '../../model/cell.ts';
import type { ScenarioName } from '../../model/names.ts';
import type { Report } from '../../model/report.ts';

const DASH = '—';

/** Runtime names in report order, then any that only appear in results (an interrupted run). */
export function runtimeNames(report: Report): string[] {
  return [...new Set([...report.runtimes.map(entryLane), ...report.results.map(laneOf)])];
}

/** A scenario's cells grouped by mode (as the rps chart's labels), runtimes in report order within. */
export function scenarioCells(report: Report, scenario: ScenarioName): CellResult[] {
  const rank = (cell: CellResult): number => {
    const index = MODES.indexOf(cell.mode);
    return index === -1 ? MODES.length : index;
  };
  return report.results.filter((c) => c.scenario === scenario).sort((a, b) => rank(a) - rank(b));
}

/** A failed or invalid cell's notes decide whether to read its figures at all. */
const BAD_KINDS = new Set<NoteGroup['kind']>(['failed', 'invalid']);

/** The row's marks: the numbers of the notes listed below the table, each a link to its note. */
function marks(cell: CellResult, groups: readonly NoteGroup[], scenario: string): string {
  const numbers = noteMarks(cell, groups);
  if (numbers === '') return '';
  return numbers
    .split(',')
    .map((n) => {
      const group = groups[Number(n) - 1];
      const bad = group !== undefined && BAD_KINDS.has(group.kind) ? ' bad' : '';
      return `<a class="badge${bad}" href="#note-${escapeHtml(scenario)}-${n}" data-note="${group?.kind ?? ''}">${n}</a>`;
    })
    .join('');
}

/** The kinds every cell of the table carries, said once above its numbered notes. */
function everyCellHtml(cells: readonly CellResult[], swept: boolean): string {
  const every = everyCellLine(cells, (cell) => `${runtimeLabel(cell)} ${modeLabel(cell, swept)}`);
  return every === undefined ? '' : `<p class="cell-notes every">${escapeHtml(every)}</p>`;
}

/** The notes of a table, numbered as its rows mark them: each kind once, with the cells it applies to. */
function notesList(groups: readonly NoteGroup[], scenario: string): string {
  if (groups.length === 0) return '';
  const items = groups.map(
    (g, i) =>
      `<li id="note-${escapeHtml(scenario)}-${i + 1}" data-note="${g.kind}"${BAD_KINDS.has(g.kind) ? ' class="bad"' : ''}>${escapeHtml(g.label)}: ${escapeHtml(g.cells.join(', '))}</li>`,
  );
  return `<ol class="cell-notes" data-scenario="${escapeHtml(scenario)}">${items.join('')}</ol>`;
}

function rowClass(cell: CellResult): string {
  if (cell.status !== 'ok') return 'bad';
  return cell.flags.length > 0 ? 'flagged' : '';
}

function rpsText(cell: CellResult): string {
  const { median, ci95, intervalNote } = cell.requestsPerSec;
  if (intervalNote !== undefined) return `${formatRps(median)} <span class="muted">(${escapeHtml(intervalNote)})</span>`;
  const share = precisionText(cell.requestsPerSec);
  const cancelled = driftCancelledText(cell);
  return `${formatRps(median)} <span class="muted">(${formatRps(ci95[0], median)}–${formatRps(ci95[1], median)}${share === undefined ? '' : `, ${share}`})${cancelled === undefined ? '' : `<br>${escapeHtml(cancelled)}`}</span>`;
}

/** The figure columns between "mode" and "notes". */
const FIGURE_COLUMNS = 14;

function cellFigures(cell: CellResult): string[] {
  // A failed cell holds only zeros; printing them would read as a measurement.
  if (cell.status === 'failed') return Array<string>(FIGURE_COLUMNS).fill(DASH);
  const ms = [
    cell.latencyMs.p50,
    cell.latencyMs.p90,
    cell.latencyMs.p99,
    cell.latencyMs.p999,
    cell.latencyMs.max,
    cell.probeLatencyMs.p50,
    cell.probeLatencyMs.p99,
    cell.probeLatencyMs.max,
  ]
    .map(formatMs)
    // A latency-censored cell's p99 with the unanswered requests in ("≥ 2.2 s"-style lower bound).
    .map((text, i) => (i === 2 ? escapeHtml(shownP99(cell, formatMs)) : text))
    .concat(cell.lagMissing === undefined ? [cell.eventLoopLagMs.p99, cell.eventLoopLagMs.max].map(formatMs) : ['n/a', 'n/a']);
  // A server figure nothing could measure (a raw server on another host has no /stats) is not 0 %.
  const serverCpu = cell.serverSources?.cpu === 'none' && cell.serverHost !== undefined ? 'n/a' : cell.server.cpuPercent.toFixed(0);
  const cpu = [serverCpu, cell.client.cpuPercent.toFixed(0)];
  return [rpsText(cell), cell.ratioToFastest === undefined ? DASH : formatRatio(cell.ratioToFastest), ...ms, ...cpu];
}

function cellRow(cell: CellResult, swept: boolean, noteMarksHtml: string): string {
  const attrs = [
    `data-runtime="${escapeHtml(cell.runtime)}"`,
    `data-scenario="${escapeHtml(cell.scenario)}"`,
    `data-mode="${escapeHtml(cell.mode)}"`,
    `data-status="${escapeHtml(cell.status)}"`,
    `data-flags="${escapeHtml(cell.flags.join(' '))}"`,
  ].join(' ');
  const figures = cellFigures(cell).map((text) => `<td class="num">${text}</td>`);
  return `<tr class="${rowClass(cell)}" ${attrs}><td>${escapeHtml(runtimeLabel(cell))}</td><td>${escapeHtml(modeLabel(cell, swept))}</td>${figures.join('')}<td>${noteMarksHtml}</td></tr>`;
}

const COLUMNS = 2 + FIGURE_COLUMNS + 1;

/** A runtime with no cell here still gets a row, so its absence is seen where its numbers would be. */
function missingRow(report: Report, runtime: string): string {
  const entry = report.runtimes.find((r) => entryLane(r) === runtime);
  const why =
    entry !== undefined && entry.status !== 'ok'
      ? `${entry.status}${entry.reason === undefined ? '' : `: ${entry.reason}`}`
      : `not measured${report.status === 'interrupted' ? ' (the run was interrupted)' : ''}`;
  const status = entry?.status ?? 'ok';
  return `<tr class="missing" data-runtime="${escapeHtml(runtime)}" data-status="${escapeHtml(status)}" data-flags=""><td>${escapeHtml(runtime)}</td><td colspan="${COLUMNS - 1}"><span class="badge bad">✗ ${escapeHtml(why)}</span></td></tr>`;
}

const HEAD = `<thead>
<tr><th rowspan="2">runtime</th><th rowspan="2">mode</th><th rowspan="2" class="num">req/s (95 % CI)</th><th rowspan="2" class="num">× fastest</th>
<th colspan="5">load latency, ms</th><th colspan="3">probe latency, ms</th><th colspan="2">loop lag, ms</th><th colspan="2">CPU %</th><th rowspan="2">notes</th></tr>
<tr><th class="num">p50</th><th class="num">p90</th><th class="num">p99</th><th class="num">p99.9</th><th class="num">max</th>
<th class="num">p50</th><th class="num">p99</th><th class="num">max</th><th class="num">p99</th><th class="num">max</th><th class="num">server</th><th class="num">client</th></tr>
</thead>`;

export function cellTable(report: Report, scenario: ScenarioName): string {
  const cells = scenarioCells(report, scenario);
  const present = new Set(cells.map(laneOf));
  const missing = runtimeNames(report).filter((name) => !present.has(name));
  const swept = connectionsSwept(report);
  const groups = groupNotes(cells, (cell) => `${runtimeLabel(cell)} ${modeLabel(cell, swept)}`);
  const rows = [
    ...cells.map((cell) => cellRow(cell, swept, marks(cell, groups, scenario))),
    ...missing.map((name) => missingRow(report, name)),
  ];
  return `<div class="table-wrap"><table class="cells" data-scenario="${escapeHtml(scenario)}">${HEAD}<tbody>\n${rows.join('\n')}\n</tbody></table></div>${everyCellHtml(cells, swept)}${notesList(groups, scenario)}`;
}

/** The server-thread figures of a scenario's cells, folded away below its table (absent without /proc). */
export function threadsDetails(report: Report, scenario: ScenarioName): string {
  const swept = connectionsSwept(report);
  const rows = scenarioCells(report, scenario).flatMap((cell) => {
    const figures = threadFigures(cell);
    if (figures === undefined) return [];
    const tds = figures.map((text, i) => `<td${i < figures.length - 1 ? ' class="num"' : ''}>${escapeHtml(text)}</td>`).join('');
    return [`<tr><td>${escapeHtml(cell.runtime)}</td><td>${escapeHtml(modeLabel(cell, swept))}</td>${tds}</tr>`];
  });
  if (rows.length === 0) return '';
  const head = ['runtime', 'mode', ...THREAD_HEAD].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  return `<details class="threads"><summary>Server threads and page faults: which threads did the work, how long the loop thread waited for a CPU, how many pages each request faulted in</summary><div class="table-wrap"><table class="cells"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div></details>`;
}

function keyValueTable(caption: string, rows: readonly [string, string][]): string {
  const body = rows.map(([key, value]) => `<tr><th scope="row">${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`);
  return `<div><h3>${escapeHtml(caption)}</h3><table class="kv">${body.join('\n')}</table></div>`;
}

export function environmentTable(report: Report): string {
  return keyValueTable('Environment', environmentRows(report));
}

export function parametersTable(report: Report): string {
  return keyValueTable('Parameters', parameterRows(report.parameters, report.timing));
}
