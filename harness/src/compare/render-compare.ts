/**
 * ReportComparison -> Markdown for a pull request: the verdict first, then what makes the
 * comparison less than like-for-like, then one table. Pure: formats, never computes statistics.
 */
import { markdownTable } from 'markdown-table';
import { LATENCY_RESOLUTION_MS } from './compare.ts';
import { HELLO_MARGIN_FACTOR, P99_MARGIN_FACTOR, sessionAllowance, type SessionAllowance } from './gate.ts';
import { plural } from '../model/names.ts';
import type {
  CellKey,
  ComparedCell,
  CellComparison,
  MetricChange,
  NotComparedCell,
  ReportComparison,
  ReportSide,
  SideStatus,
} from './compare.ts';
import { reproducedLine } from './reproduced.ts';
import type { FieldDifference } from './differences.ts';
import { escapeCell, formatDate, formatMs, formatRps } from '../present/formats.ts';
import { sharedHost } from '../system/host-speed.ts';
import { CHANGE_WORDS } from '../present/verdict-words.ts';

const DASH = '—';
/** Fields shown in the header rather than as warnings: a new commit is the point of comparing. */
const HEADER_FIELDS = new Set(['commit', 'dirty']);

/** A fraction as a signed percentage: +5.2 %, -20.0 %. */
export function formatChange(change: number | null): string {
  if (change === null) return 'n/a';
  const percent = change * 100;
  const text = Math.abs(percent) < 0.05 ? '0.0' : percent.toFixed(1);
  return `${percent > 0 && text !== '0.0' ? '+' : ''}${text} %`;
}

/** A p-value with 2 significant digits; tiny ones as "<0.001" (more digits would be false precision). */
export function formatP(p: number | null): string {
  if (p === null) return DASH;
  if (p < 0.001) return '<0.001';
  return String(Number(p.toPrecision(2)));
}

function formatPercentOf(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(3))} %`;
}

/** A share measured, not set (an allowance, what a row could see), to a tenth of a per cent: no more digits than it holds. */
const measuredPercent = (fraction: number): string => formatPercentOf(Number(fraction.toFixed(3)));

/**
 * The smallest change the comparison could have flagged on its least sensitive unchanged cell,
 * when that cell's own uncertainty (its intervals and the session allowance) was wider than its
 * margin, so its smallest flaggable change is over twice the margin: the pair could not have told
 * a change of the margin from none, and "0 regressions" would promise what it could not see.
 */
export function deafTo(c: ReportComparison): number | undefined {
  const deaf = c.cells.flatMap((cell) => {
    const seen = cell.kind === 'compared' ? unseenChange(cell.throughput) : undefined;
    return seen === undefined ? [] : [seen];
  });
  return deaf.length === 0 ? undefined : Math.max(...deaf);
}

/** An unchanged change's smallest flaggable size when it could not have seen its margin (see deafTo), else undefined. */
function unseenChange(t: ComparedCell['throughput']): number | undefined {
  return t.verdict === 'unchanged' &&
    t.detectable !== undefined &&
    t.margin !== undefined &&
    Number.isFinite(t.detectable) &&
    t.detectable > Math.expm1(2 * Math.log1p(t.margin))
    ? t.detectable
    : undefined;
}

/** "2 regressions, 1 improvement, 20 no change, at 5 % threshold and p < 0.05": the A/B's words (CHANGE_WORDS). */
export function verdictLine(c: ReportComparison): string {
  const n = c.counts;
  // A cell that could not see its margin is no evidence of "unchanged": counted apart.
  const blind = c.cells.filter((cell) => cell.kind === 'compared' && unseenChange(cell.throughput) !== undefined).length;
  const parts = [plural(n.regressed, 'regression'), plural(n.improved, 'improvement'), `${n.unchanged - blind} ${CHANGE_WORDS.unchanged}`];
  if (blind > 0) parts.push(`${blind} ${CHANGE_WORDS.inconclusive} (could not see ±${formatPercentOf(c.threshold)})`);
  if (n.notTestable > 0) parts.push(`${n.notTestable} ${CHANGE_WORDS.inconclusive} (not testable)`);
  if (n.notCompared > 0) parts.push(`${n.notCompared} not compared`);
  if (n.added > 0) parts.push(`${n.added} only in current`);
  if (n.removed > 0) parts.push(`${n.removed} only in baseline`);
  const deaf = deafTo(c);
  // ✓ only when every cell in both reports was judged: a cell that was not tested or not
  // compared could hold the regression the line would otherwise call absent.
  const judgedAll = n.notTestable === 0 && n.notCompared === 0 && n.unchanged + n.improved > 0;
  const symbol = c.hasRegression ? '✗' : deaf === undefined && judgedAll ? '✓' : '?';
  const head =
    !c.hasRegression && deaf !== undefined
      ? `? ${CHANGE_WORDS.inconclusive}: no change beyond ${measuredPercent(deaf)} found, and two separate sessions cannot see less; use bench:ab (A and B alternating in one session) to see ±${formatPercentOf(c.threshold)}** (${parts.join(', ')})`
      : `${symbol} ${parts.join(', ')}**`;
  return `**${head}, ${marginText(c.threshold, c.session)}, p < ${c.alpha}`;
}

/** "margins ±5 % (hello ±10 %, p99 ±20 %) with 95 % confidence": what the gate holds each change to. */
export function marginText(margin: number, session?: SessionAllowance): string {
  const allowance = session?.allowance ?? sessionAllowance();
  const from = session === undefined ? '' : ` (${session.source})`;
  return `margins ±${formatPercentOf(margin)} (hello ±${formatPercentOf(margin * HELLO_MARGIN_FACTOR)}, p99 ±${formatPercentOf(margin * P99_MARGIN_FACTOR)}) with 95 % confidence, allowing ±${measuredPercent(allowance)} between sessions${from}`;
}

function sideText(name: string, side: ReportSide): string {
  const dirty = side.dirty ? ', dirty' : '';
  const status = side.status === 'complete' ? '' : `, ${side.status}`;
  return `${name} \`${side.commit.slice(0, 10)}\`${dirty} (${formatDate(side.createdAt)}${status})`;
}

function valueText(value: FieldDifference['baseline']): string {
  return value === null ? 'not set' : `\`${String(value)}\``;
}

function differenceText(d: FieldDifference): string {
  return `${d.field} ${valueText(d.baseline)} → ${valueText(d.current)}`;
}

function interruptedWarnings(c: ReportComparison): string[] {
  const sides: [string, ReportSide][] = [
    ['baseline', c.baseline],
    ['current', c.current],
  ];
  return sides
    .filter(([, side]) => side.status !== 'complete')
    .map(([name]) => `The ${name} report is interrupted: some of its planned cells were never measured.`);
}

/** Everything that makes the two reports less than like-for-like. */
export function warnings(c: ReportComparison): string[] {
  const items = interruptedWarnings(c);
  if (c.parameterDifferences.length > 0) {
    items.push(`Parameters differ, so figures may differ for that reason alone: ${c.parameterDifferences.map(differenceText).join('; ')}.`);
  }
  if (c.runtimeVersionDifferences.length > 0) {
    const version = (v: string | null): string => (v === null ? 'not in report' : v === '' ? 'not measured' : `\`${v}\``);
    const list = c.runtimeVersionDifferences.map((d) => `${d.runtime} ${version(d.baseline)} → ${version(d.current)}`);
    items.push(`Runtime versions differ: ${list.join('; ')}.`);
  }
  const environment = c.environmentDifferences.filter((d) => !HEADER_FIELDS.has(d.field));
  if (environment.length > 0) {
    items.push(`Environment differs (a different machine is a different benchmark): ${environment.map(differenceText).join('; ')}.`);
  }
  return items;
}

function metricCells(metric: MetricChange & { changeCi95?: [number, number] }, figure: (x: number) => string): string[] {
  const emphasise = (text: string): string => (metric.verdict === 'regressed' ? `**${text}**` : text);
  const change =
    metric.changeCi95 === undefined ? formatChange(metric.change) : changeWithInterval({ ...metric, changeCi95: metric.changeCi95 });
  return [`${figure(metric.baseline)} → ${figure(metric.current)}`, emphasise(change), formatP(metric.test?.p ?? null)];
}

function which(cell: ComparedCell, verdict: MetricChange['verdict']): string {
  const names = [cell.throughput.verdict === verdict ? 'req/s' : '', cell.p99.verdict === verdict ? 'p99' : ''];
  return names.filter((name) => name !== '').join(', ');
}

/** Flags of either side, e.g. "⚠ unstable, client-bound (current)": the verdict may be about noise or the client. */
function flagNotes(cell: ComparedCell): string {
  const { baseline, current } = cell.flags;
  const notes = [...new Set([...baseline, ...current])].map((flag) => {
    if (!current.includes(flag)) return `${flag} (baseline)`;
    return baseline.includes(flag) ? flag : `${flag} (current)`;
  });
  return notes.length === 0 ? '' : ` ⚠ ${notes.join(', ')}`;
}

export function cellVerdictText(cell: ComparedCell): string {
  const text = {
    regressed: `✗ regressed (${which(cell, 'regressed')})`,
    improved: `✓ improved (${which(cell, 'improved')})`,
    unchanged: unchangedText(cell),
    'not-testable':
      cell.runs.baseline < 2 || cell.runs.current < 2
        ? `? ${CHANGE_WORDS.inconclusive}: ${cell.runs.baseline} vs ${cell.runs.current} runs, too few to test`
        : sharedHost({ flags: cell.flags.baseline }) || sharedHost({ flags: cell.flags.current })
          ? `? ${CHANGE_WORDS.inconclusive}: other processes shared the host`
          : `? ${CHANGE_WORDS.inconclusive}: no per-run p99 to test`,
  }[cell.verdict];
  return `${text}${flagNotes(cell)}`;
}

/** "= no change", or what the cell could not rule out when its uncertainty was wider than its margin. */
function unchangedText(cell: ComparedCell): string {
  const unseen = unseenChange(cell.throughput);
  return unseen === undefined
    ? `= ${CHANGE_WORDS.unchanged}`
    : `? ${CHANGE_WORDS.inconclusive}: no change beyond ${measuredPercent(unseen)} (req/s), the smallest it could see`;
}

function statusText(name: string, side: SideStatus): string {
  return `${name} ${side.status}${side.reason === undefined ? '' : `: ${side.reason}`}`;
}

function notComparedText(cell: NotComparedCell): string {
  const sides: [string, SideStatus][] = [
    ['baseline', cell.baseline],
    ['current', cell.current],
  ];
  const problems = sides.filter(([, side]) => side.status !== 'ok').map(([name, side]) => statusText(name, side));
  return `${DASH} not compared: ${problems.join('; ')}`;
}

function row(cell: CellComparison): string[] {
  const key = [cell.runtimeLabel ?? cell.runtime, cell.scenario, cell.query === undefined ? cell.mode : `${cell.mode} ${cell.query}`];
  if (cell.kind === 'not-compared') return [...key, DASH, DASH, DASH, DASH, DASH, DASH, DASH, escapeCell(notComparedText(cell))];
  const rps = (x: number): string => formatRps(x, cell.throughput.baseline);
  return [
    ...key,
    ...metricCells(cell.throughput, rps),
    cell.driftCancelled === undefined ? DASH : changeWithInterval(cell.driftCancelled),
    ...metricCells(cell.p99, formatMs),
    escapeCell(cellVerdictText(cell)),
  ];
}

/** "-1.2 % (-6.0 to +3.9)": a change with its 95 % interval. */
function changeWithInterval(m: { change: number | null; changeCi95: [number, number] }): string {
  return `${formatChange(m.change)} (${formatChange(m.changeCi95[0])} to ${formatChange(m.changeCi95[1])})`;
}

export function comparisonTable(cells: readonly CellComparison[]): string {
  const head = ['runtime', 'scenario', 'mode', 'req/s', 'change', 'p', 'drift-cancelled change', 'p99 ms', 'change', 'p', 'verdict'];
  const align = ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'];
  return markdownTable([head, ...cells.map(row)], { align });
}

function keyText(cell: CellKey): string {
  return `${cell.runtimeLabel ?? cell.runtime} ${cell.scenario} ${cell.mode}${cell.query === undefined ? '' : ` ${cell.query}`}`;
}

/** One line per side: a bench on a new runtime can add dozens of cells. */
function oneSidedSection(c: ReportComparison): string | undefined {
  const sides: [string, CellKey[]][] = [
    ['baseline', c.removed],
    ['current', c.added],
  ];
  const lines = sides
    .filter(([, cells]) => cells.length > 0)
    .map(([name, cells]) => `- only in ${name} (${cells.length}): ${cells.map(keyText).join(', ')}`);
  return lines.length === 0 ? undefined : ['## Cells in only one report', lines.join('\n')].join('\n\n');
}

function howToRead(c: ReportComparison): string {
  return [
    '## How to read',
    [
      "Figures are medians across runs (req/s: requests per second; p99: the median of each run's p99 latency), shown as baseline → current.",
      "p is the two-sided p-value of Welch's t-test over the per-run figures. Welch, because a cell has only a few runs and",
      'their spread differs between runtimes and versions (a pooled-variance test would be wrong exactly when something changed);',
      'means of a few runs, each itself an average over many requests, are close enough to normal for a t-test. A rank test',
      '(Mann-Whitney) cannot reach p < 0.05 with 3 runs against 3: its smallest two-sided p is 0.1.',
      `A cell regressed when its req/s fell, or its p99 rose, beyond the practical margin (${marginText(c.threshold, c.session)}):`,
      "the whole 95 % interval of the change (in brackets; both reports' intervals combined, across server processes where measured) lies beyond it,",
      `Welch's p < ${c.alpha}, and for p99 by more than ${LATENCY_RESOLUTION_MS} ms (autocannon's resolution). Two runs of one commit differ by`,
      "their intervals and by what no interval of one run holds (the host's drift, the next server process), so the gate decides only beyond that;",
      `and what two sessions minutes apart differ by beyond any one report's intervals (${formatPercentOf(c.session?.sd ?? 0.04)} a session: the reports' reference loops, timed in every round, or their host checks say how far the host moved; 4 % is assumed when neither has them);`,
      'the smallest change a pair can flag is its margin plus that combined interval. When both reports carry the drift-cancelled figure',
      '(requests per reference unit: req/s times the time of a pinned reference loop measured in the same rounds), req/s regresses only when',
      'it and the drift-cancelled figure both fell: a host that slowed down moves only the raw figure of a CPU-bound cell.',
      'Improvements are shown but never fail the comparison; cells with fewer than 2 runs on a side cannot be tested and never count as regressions.',
    ].join('\n'),
  ].join('\n\n');
}

export function renderComparisonMarkdown(c: ReportComparison): string {
  const items = warnings(c);
  const sections = [
    '# Benchmark comparison',
    verdictLine(c),
    `${sideText('Baseline', c.baseline)} → ${sideText('current', c.current)}`,
    reproducibilitySection(c),
    items.length === 0 ? undefined : ['## Warnings', items.map((item) => `- ⚠ ${item}`).join('\n')].join('\n\n'),
    `## Cells\n\n${c.cells.length === 0 ? 'No cell is in both reports.' : comparisonTable(c.cells)}`,
    oneSidedSection(c),
    howToRead(c),
  ];
  return `${sections.filter((s) => s !== undefined).join('\n\n')}\n`;
}

/** How many headline ratios and cells reproduced: the lines, then the ones that did not and why. */
export function reproducibilitySection(c: ReportComparison): string | undefined {
  const parts: string[] = [];
  for (const [r, what] of [
    [c.ratioReproducibility, 'ratios'],
    [c.reproducibility, 'cells'],
    [c.driftCancelledReproducibility, 'cells on req/unit'],
  ] as const) {
    if (r === undefined || (what === 'ratios' && r.of === 0)) continue;
    const lines = r.notReproduced.map((item) => `- ${item.cell}: ${item.reason}`);
    parts.push(`${r.holds ? '✓' : '✗'} ${reproducedLine(r, what)}.`);
    if (lines.length > 0) parts.push(`Not reproduced (${what}):\n\n${lines.join('\n')}`);
  }
  if (parts.length === 0) return undefined;
  const note =
    "The paired ratios are the product: their runs alternate, so a drift of the host cancels inside each pair. A cell's absolute requests/s reproduces only while the host holds its speed (the report's host check says whether it did).";
  return ['## Reproducibility', ...parts, note].join('\n\n');
}
