/**
 * Report -> Markdown for a README or a pull request. Pure: formats, never measures. Its
 * formats, labels and sentences are the text layer's (report/text/), shared with the HTML and
 * console reports.
 */
import { allocatorOf } from '../text/allocator.ts';
import { answerQuestions, benchAnswers } from '../answers.ts';
import { FIGURES_READ, headlineBullet, syncQuestions } from '../headline-bullets.ts';
import { everyCellLine, groupNotes, type NoteKind, noteKinds, noteMarks } from '../text/cell-notes.ts';
import { verdictKind, verdictLegend } from '../../present/verdict-words.ts';
import { hostHealth } from '../text/host-health.ts';
import { findingsMarkdown } from './answers.ts';
import { concurrencyMarkdown } from './concurrency.ts';
import { markdownTable } from 'markdown-table';
import { profileMarkdown } from './profile.ts';
import { escapeCell, formatDate, formatMs, formatRatio, formatRps } from '../../present/formats.ts';
import { CLIENT_BOUND_CPU_PERCENT, PAGE_FAULT_SHARE, UNFAIR_JAIN, UNSTABLE_CV } from '../../model/thresholds.ts';
import { MOVE_FACTOR, SHARED_HOST_CORES, SLOW_RUN_SHARE } from '../../system/host-speed.ts';
import { shownP99 } from '../../stats/littles-law.ts';
import { laneOf } from '../../model/cell-lookups.ts';
import { connectionsSwept } from '../../model/parameters.ts';
import { MODES } from '../../model/names.ts';
import type { CellResult } from '../../model/cell.ts';
import type { ScenarioName } from '../../model/names.ts';
import type { Report } from '../../model/report.ts';
import { poolsSection, processesSection } from './processes.ts';
import type { ReportSection } from '../../model/section.ts';
import { DASH, environmentRows, modeLabel, parameterRows, runtimeLabel, THREAD_HEAD, threadFigures } from '../text/labels.ts';
import { driftCancelledLegend, driftCancelledText, precisionLegend, precisionText, runsText } from '../../present/precision.ts';
import { comparisonLines } from '../text/sentences.ts';

function rpsWithSpread(cell: CellResult): string {
  const [low, high] = cell.requestsPerSec.ci95;
  const { median, runs, intervalNote } = cell.requestsPerSec;
  if (intervalNote !== undefined) return `${formatRps(median)} (${runs.length} run${runs.length === 1 ? '' : 's'}, no interval)`;
  // The interval is clamped at zero, so it need not be symmetric: show its ends when it is not.
  if (Math.abs(median - (low + high) / 2) > (high - low) / 2 || low === 0)
    return `${formatRps(median)} (${formatRps(low, median)}–${formatRps(high, median)})`;
  const share = precisionText(cell.requestsPerSec);
  const cancelled = driftCancelledText(cell);
  return `${formatRps(median)} ± ${formatRps((high - low) / 2, median)}${share === undefined ? '' : ` (${share})`}${cancelled === undefined ? '' : `; ${cancelled}`}`;
}

function scenarioRow(cell: CellResult, withRatio: boolean, swept: boolean, marks: string): string[] {
  // A failed cell holds only zeros; showing them would read as a measurement.
  const measured = cell.status !== 'failed';
  const figure = (text: string): string => (measured ? text : DASH);
  const row = [modeLabel(cell, swept), runtimeLabel(cell), figure(rpsWithSpread(cell))];
  if (withRatio) row.push(cell.ratioToFastest === undefined ? DASH : formatRatio(cell.ratioToFastest));
  row.push(
    figure(shownP99(cell, formatMs)),
    figure(formatMs(cell.probeLatencyMs.p99)),
    figure(cell.lagMissing === undefined ? formatMs(cell.eventLoopLagMs.p99) : 'n/a'),
    marks,
  );
  return row;
}

/**
 * One table per scenario: rows grouped by mode, runtimes next to each other within a mode. A row
 * carries its notes' numbers; the notes are listed once below the table, each kind with the cells
 * it applies to, as in the console (text/cell-notes.ts), so a row stays one line wide.
 */
export function scenarioTable(cells: readonly CellResult[], swept: boolean): string {
  // Stable sort: within a mode, runtimes keep the report's order.
  const byMode = [...cells].sort((a, b) => modeRank(a) - modeRank(b));
  const withRatio = new Set(cells.map(laneOf)).size > 1;
  const groups = groupNotes(byMode, (cell) => `${runtimeLabel(cell)} ${modeLabel(cell, swept)}`);
  const withNotes = groups.length > 0;
  const head = ['mode', 'runtime', 'req/s', ...(withRatio ? ['× fastest'] : []), 'p99 ms', 'probe p99 ms', 'lag p99 ms', 'notes'];
  const align = ['l', 'l', 'r', ...(withRatio ? ['r'] : []), 'r', 'r', 'r', 'l'];
  // A table no note applies to has no notes column.
  const columns = withNotes ? head.length : head.length - 1;
  const rows = [head, ...byMode.map((cell) => scenarioRow(cell, withRatio, swept, noteMarks(cell, groups)))];
  const table = markdownTable(
    rows.map((row) => row.slice(0, columns)),
    { align: align.slice(0, columns) },
  );
  const every = everyCellLine(byMode, (cell) => `${runtimeLabel(cell)} ${modeLabel(cell, swept)}`);
  const withEvery = every === undefined ? table : `${table}\n\n${escapeCell(every)}`;
  if (!withNotes) return withEvery;
  const notes = groups.map((g, i) => `${i + 1}. ${escapeCell(g.label)}: ${escapeCell(g.cells.join(', '))}`);
  return `${withEvery}\n\nNotes:\n\n${notes.join('\n')}`;
}

function modeRank(cell: CellResult): number {
  const index = MODES.indexOf(cell.mode);
  return index === -1 ? MODES.length : index;
}

/** Scenarios in the order of the (already sorted) results. */
function scenariosOf(report: Report): ScenarioName[] {
  return [...new Set(report.results.map((c) => c.scenario))];
}

/**
 * Which threads did the work and how long the loop thread waited for a CPU (run-queue wait):
 * on a machine with few cores, work moved off the loop still competes with it for the cores.
 */
function threadsTable(cells: readonly CellResult[], swept: boolean): string | undefined {
  const rows = [...cells]
    .sort((a, b) => modeRank(a) - modeRank(b))
    .flatMap((cell) => {
      const figures = threadFigures(cell);
      return figures === undefined ? [] : [[modeLabel(cell, swept), cell.runtime, ...figures.map(escapeCell)]];
    });
  if (rows.length === 0) return undefined;
  const table = markdownTable([['mode', 'runtime', ...THREAD_HEAD], ...rows], {
    align: ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r'],
  });
  // A fault hands the server a fresh page: on a VM that can cost 14-17 µs (environment's "fresh memory").
  return `Server threads and page faults (from /proc, medians over runs):\n\n${table}`;
}

function scenarioSection(report: Report, scenario: ScenarioName): string {
  const cells = report.results.filter((c) => c.scenario === scenario);
  const lines = report.comparisons.filter((c) => c.scenario === scenario).flatMap((c) => comparisonLines(report, c));
  const bullets = lines.map((line) => `- ${line}`).join('\n');
  const swept = connectionsSwept(report);
  const threads = threadsTable(cells, swept);
  const profiles = profileMarkdown(cells, swept);
  return [
    `## ${scenario}`,
    scenarioTable(cells, swept),
    ...(bullets === '' ? [] : [bullets]),
    ...(threads === undefined ? [] : [threads]),
    ...(profiles === undefined ? [] : [profiles]),
  ].join('\n\n');
}

function titleSection(report: Report): string {
  const title = `# Sync vs async HTTP benchmark, ${formatDate(report.createdAt)} (${report.status})`;
  const status =
    report.status === 'interrupted'
      ? '**⚠ Interrupted:** the run stopped before finishing its plan; only the cells below were measured.'
      : 'Status: complete, every planned cell was attempted.';
  const health = hostHealth(report.environment, report.results);
  return [title, status, ...(health === undefined ? [] : [health.text])].join('\n\n');
}

function howToRead(report: Report): string {
  const p = report.parameters;
  const figures = [
    `Each figure is the median of ${runsText(p, report.results)} of ${p.durationSec} s (after ${p.warmupSec} s of warm-up) at ${p.connections} connections.`,
    ...precisionLegend(p),
    ...driftCancelledLegend(report.results),
    "req/s is ± the half-width of the 95 % confidence interval of the mean; p99 is the load's latency;",
    "probe p99 is the latency of a separate light client (what one more caller waits); lag p99 is the server's event-loop lateness.",
  ].join('\n');
  const used = noteKinds(report.results);
  const marks: [NoteKind[], string][] = [
    [
      ['client-bound'],
      `- ⚠ client-bound: the load generator used ≥ ${CLIENT_BOUND_CPU_PERCENT} % of a core, so the server may be faster than shown`,
    ],
    [['unstable'], `- ⚠ unstable: requests/s varied by more than ${UNSTABLE_CV * 100} % (CV) between runs`],
    [['count-mismatch'], '- ⚠ count-mismatch: the server counted more or fewer requests than the client sent'],
    [
      ['latency-censored'],
      "- ⚠ latency censored: the latency figures cannot be told: the answered requests' mean is under a quarter of the time in the system Little's law gives (connections ÷ req/s: the runs held under half a turn of the queue), or more requests were left unanswered at the runs' end than answered, or those (counted at their age, a lower bound) lift the p99 1.5x; a p99 that is such a lower bound reads \"≥ …\"",
    ],
    [
      ['overloaded'],
      '- ⚠ overloaded: requests waited past the timeout and the client gave up on them; the figures are of the answered ones, and the share that timed out is given',
    ],
    [
      ['shared-host'],
      `- ⚠ shared host: other processes (outside the harness and its servers) used at least ${SHARED_HOST_CORES} cores' worth of CPU during a run: the host was shared, which the speed checks cannot see; \`bench:compare\` does not judge such a cell`,
    ],
    [
      ['unfair'],
      `- ⚖ connections served unevenly: Jain's fairness index of the answers per connection under ${UNFAIR_JAIN} (1: every connection served alike); what one caller waits then differs from another's`,
    ],
    [
      ['slow-runs'],
      `- 🐢 runs on a slow machine left out: the speed sampler read the machine under ${SLOW_RUN_SHARE} of the cell's median speed during those runs`,
    ],
    [
      ['machine-moved'],
      `- 〰 machine's speed varied: the speed sampler read the machine during some of the cell's runs apart from its other runs by more than ${MOVE_FACTOR}x its floor; the cell's figures keep those runs unless they were slow`,
    ],
    [
      ['invalid', 'failed'],
      '- ✗ invalid: errors (without overload), non-2xx answers or a failed answer check; ✗ failed: the server died or hung (alive but doing no work at all)',
    ],
    [
      ['page-faults'],
      `- ⚠ page faults ≈ x %: the server's page faults a request, at what a fresh page costs on this host ("fresh memory" below), took at least ${PAGE_FAULT_SHARE * 100} % of its CPU a request: the figure measures the host's memory handling as much as the endpoint${allocatorOf(report.parameters) === 'keep' ? '' : '; `--allocator keep` measures it with the allocators keeping freed memory'} (docs/methodology.md)`,
    ],
  ];
  // Only the marks this report uses: a legend of fourteen marks before one figure is read as noise.
  const legend = marks.filter(([kinds]) => kinds.some((k) => used.has(k))).map(([, line]) => line);
  const kinds = answerQuestions(report)
    .filter((q) => q.words.measure === 'throughput')
    .flatMap((q) => q.rows.map((r) => verdictKind(r.verdict)));
  const verdicts = kinds.length === 0 ? [] : ['The verdicts on a ratio:', ...verdictLegend(kinds).map((line) => `- ${line}`)];
  return [
    '## How to read',
    figures,
    ...(legend.length === 0 ? [] : [legend.join('\n')]),
    ...(verdicts.length === 0 ? [] : [verdicts.join('\n')]),
  ].join('\n\n');
}

/** What people quote: which off-loop modes stayed on the loop, where a worker pays. */
function findingsSection(report: Report): string | undefined {
  const { conditions, ...answers } = benchAnswers(report);
  // The conditions once (the run's inputs and ceiling), then the verdicts, then where the loop stayed.
  const bullets = syncQuestions(report).map(({ question, bystander }) => `- ${headlineBullet(question, bystander)}`);
  const body = findingsMarkdown(answers, '###');
  if (bullets.length === 0 && body === undefined) return undefined;
  return [
    '## Findings',
    ...(conditions === undefined ? [] : [conditions]),
    ...(bullets.length === 0 ? [] : [FIGURES_READ, bullets.join('\n')]),
    ...(body === undefined ? [] : [body]),
  ].join('\n\n');
}

function runtimeProblems(report: Report): string | undefined {
  const problems = report.runtimes.filter((r) => r.status !== 'ok');
  if (problems.length === 0) return undefined;
  const items = problems.map((r) => `- ${r.name}: ${r.status}${r.reason === undefined ? '' : ` (${r.reason})`}`);
  return ['## Runtimes not measured', items.join('\n')].join('\n\n');
}

function environmentSection(report: Report): string {
  return ['## Environment', markdownTable([['', ''], ...environmentRows(report).map((row) => row.map(escapeCell))])].join('\n\n');
}

function parametersSection(report: Report): string {
  return ['## Parameters', markdownTable([['parameter', 'value'], ...parameterRows(report.parameters, report.timing)])].join('\n\n');
}

/** `extra`: sections the features hand in (versions compared, ...), placed after the summary; a lead section after the title. */
export function renderMarkdown(report: Report, extra: readonly ReportSection[] = []): string {
  const scenarios = scenariosOf(report);
  const sections = [
    titleSection(report),
    ...extra.filter((s) => s.lead === true).map((s) => s.markdown()),
    findingsSection(report),
    ...extra.filter((s) => s.lead !== true).map((s) => s.markdown()),
    ...(scenarios.length === 0 ? ['No cell was measured.'] : scenarios.map((s) => scenarioSection(report, s))),
    concurrencyMarkdown(report),
    processesSection(report),
    poolsSection(report),
    runtimeProblems(report),
    howToRead(report),
    environmentSection(report),
    parametersSection(report),
  ];
  return `${sections.filter((s) => s !== undefined).join('\n\n')}\n`;
}
