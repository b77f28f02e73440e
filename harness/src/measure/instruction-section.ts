// What an instruction count hands the report model: report.json's `instructions` (the counted
// cells with their settings and what a count cannot see, each beside its wall-clock twin's CPU
// time a request) and the section that shows them; under bench:ab, each cell's B over A by both
// measures in one table.
import { markdownTable } from 'markdown-table';
import type { AbCell } from '../model/ab.ts';
import type { InstructionBeside, InstructionFigures, InstructionPairRecord } from '../model/instructions.ts';
import type { Report } from '../model/report.ts';
import { escapeHtml } from '../present/html-escape.ts';
import type { ReportFeatures, ReportSection } from '../model/section.ts';
import { escapeCell } from '../present/formats.ts';
import { CHANGE_WORDS } from '../present/verdict-words.ts';
import type { InstructionReport } from './instruction-report.ts';
import { agreementText, CAVEAT, sideBySide } from './side-by-side.ts';

/** instructions.json's content as report.json carries it: the environment and status are the report's own. */
export function figuresOf(counted: InstructionReport): InstructionFigures {
  const { kind: _kind, schemaVersion: _schema, environment: _environment, ...figures } = counted;
  return figures;
}

/**
 * The figures with their side-by-side rows derived again from the report's wall-clock cells: a
 * report written under an earlier rule reads as one written now would.
 */
function derived(report: Report): InstructionFigures | undefined {
  const figures = report.instructions;
  if (figures === undefined) return undefined;
  const { beside: _beside, agreement: _agreement, ...own } = figures;
  const joined = sideBySide(report.results, own.cells);
  return joined === undefined ? own : { ...own, ...joined };
}

const int = (x: number): string => Math.round(x).toLocaleString('en');
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function countLine(f: InstructionFigures): string {
  const c = f.count;
  return `Counted under Valgrind ${f.valgrind} (callgrind): ${c.warmupRequests} warm-up requests, then ${plural(c.rounds, 'round')} of ${c.requests} at ${plural(c.concurrency, 'connection')} a cell, the figure from the rounds after the first. CPU time a request is the wall-clock run's, all the server's threads, user and kernel time, at its own connections.`;
}

/** One row per counted cell: its figure, and where the wall-clock run measured it, its CPU time and their ratio. */
function cellRows(f: InstructionFigures): string[][] {
  return f.cells.flatMap((c) => {
    const cell = `${c.scenario}/${c.mode}`;
    if (c.perRequest === undefined) return [[c.lane, cell, `${c.status} (below)`, '—', '—', '—']];
    const twins = (f.beside ?? []).filter((b) => b.lane === c.lane && b.scenario === c.scenario && b.mode === c.mode);
    if (twins.length === 0) return [[c.lane, cell, int(c.perRequest), '—', '—', '—']];
    return twins.map((b) => [
      b.lane,
      `${cell}${twins.length > 1 && b.connections !== undefined ? ` (${b.connections} conn.)` : ''}`,
      int(b.instructionsPerRequest),
      `${Number(b.cpuMsPerRequest.toPrecision(3))} ms`,
      b.instructionsPerCpuNs.toFixed(2),
      `${b.overMedian.toFixed(2)}x${b.flagged ? ' ⚑' : ''}`,
    ]);
  });
}

const CELL_HEAD = ['lane', 'cell', 'instructions/request', 'CPU/request', 'instructions a CPU ns', 'against the median'];

const verdictOf = (p: InstructionPairRecord): string =>
  `${CHANGE_WORDS[p.result.verdict]}${p.result.ratio === undefined ? '' : ` (could see ±${(p.result.threshold * 100).toFixed(2)} %)`}`;

/** bench:ab: each cell's B over A by wall clock and by instructions, where both were measured. */
function abRows(report: Report, f: InstructionFigures): string[][] {
  const wall = report.ab?.cells ?? [];
  const pairs = f.pairs ?? [];
  const key = (c: Pick<AbCell, 'runtime' | 'scenario' | 'mode'>) => `${c.runtime}/${c.scenario}/${c.mode}`;
  const keys = [...new Set([...wall.filter((c) => c.query === undefined).map(key), ...pairs.map(key)])];
  return keys.map((k) => {
    const w = wall.find((c) => c.query === undefined && key(c) === k);
    const p = pairs.find((c) => key(c) === k);
    const [runtime = '', scenario = '', mode = ''] = k.split('/');
    return [
      runtime,
      `${scenario}/${mode}`,
      w?.ratio === undefined ? '—' : `${w.ratio.toFixed(3)}x`,
      w === undefined ? 'not measured' : CHANGE_WORDS[w.verdict],
      p?.result.ratio === undefined ? '—' : `${p.result.ratio.toFixed(4)}x`,
      p === undefined ? 'not counted' : verdictOf(p),
    ];
  });
}

const AB_HEAD = ['runtime', 'cell', 'requests/s B/A', 'wall clock', 'instructions/request B/A', 'instructions'];

/** The flagged cells, a line for each reason they may have, the reason said once. */
function flaggedLines(f: InstructionFigures): string[] {
  const byWhy = new Map<string, InstructionBeside[]>();
  for (const b of (f.beside ?? []).filter((x) => x.flagged)) byWhy.set(b.why ?? '', [...(byWhy.get(b.why ?? '') ?? []), b]);
  return [...byWhy].map(([why, side]) => {
    const cells = side.map((b) => `${b.lane} ${b.scenario}/${b.mode} ${b.overMedian.toFixed(2)}x`).join(', ');
    return `⚑ ${side[0] !== undefined && side[0].overMedian < 1 ? 'Below' : 'Above'} the median (${cells}): ${why}.`;
  });
}

/** A failed cell's reason under the table, where a long one does not widen it. */
function failedLines(f: InstructionFigures): string[] {
  return f.cells.filter((c) => c.perRequest === undefined).map((c) => `${c.lane} ${c.scenario}/${c.mode} ${c.status}: ${c.reason ?? ''}`);
}

function settingsLine(f: InstructionFigures): string {
  return `Settings: ${f.lanes.map((l) => `${l.lane}${l.version === '' ? '' : ` ${l.version}`}: ${l.status === 'ok' ? l.settings : `${l.status} (${l.reason ?? ''})`}`).join('; ')}.`;
}

interface Parts {
  intro: string;
  cells: string[][];
  agreement?: string;
  flagged: string[];
  failed: string[];
  ab: string[][];
  settings: string;
}

function partsOf(report: Report, f: InstructionFigures): Parts {
  return {
    intro: countLine(f),
    cells: cellRows(f),
    ...(f.agreement === undefined ? {} : { agreement: agreementText(f.agreement) }),
    flagged: flaggedLines(f),
    failed: failedLines(f),
    ab: f.pairs === undefined && report.ab === undefined ? [] : abRows(report, f),
    settings: settingsLine(f),
  };
}

const md = (head: string[], rows: string[][]): string =>
  markdownTable([head, ...rows.map((r) => r.map(escapeCell))], { align: head.map((_, i) => (i < 2 ? 'l' : 'r')) });

/** The section's Markdown, also the console's view and the docs' block (no heading). */
export function instructionsMarkdown(report: Report, heading = '## Instructions per request, beside CPU time'): string | undefined {
  const f = derived(report);
  if (f === undefined) return undefined;
  const p = partsOf(report, f);
  return [
    ...(heading === '' ? [] : [heading]),
    p.intro,
    ...(p.cells.length === 0 ? [] : [md(CELL_HEAD, p.cells)]),
    ...(p.failed.length === 0 ? [] : [p.failed.join('  \n')]),
    ...(p.agreement === undefined ? [] : [p.agreement]),
    ...(p.flagged.length === 0 ? [] : [p.flagged.join('  \n')]),
    ...(p.ab.length === 0 ? [] : [`B over A by both measures (A: ${f.sides?.a ?? '?'}, B: ${f.sides?.b ?? '?'}):`, md(AB_HEAD, p.ab)]),
    p.settings,
    `*${CAVEAT}*`,
  ].join('\n\n');
}

function htmlTable(head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const trs = rows.map((r) => `<tr>${r.map((x) => `<td>${escapeHtml(x)}</td>`).join('')}</tr>`).join('\n');
  return `<div class="table-wrap"><table><thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table></div>`;
}

function instructionsHtml(report: Report): string {
  const f = derived(report);
  if (f === undefined) return '';
  const p = partsOf(report, f);
  const para = (text: string, cls = '') => `<p${cls === '' ? '' : ` class="${cls}"`}>${escapeHtml(text)}</p>`;
  return [
    '<h2 id="instructions">Instructions per request, beside CPU time</h2>',
    para(p.intro),
    ...(p.cells.length === 0 ? [] : [htmlTable(CELL_HEAD, p.cells)]),
    ...p.failed.map((l) => para(l)),
    ...(p.agreement === undefined ? [] : [para(p.agreement)]),
    ...p.flagged.map((l) => para(l)),
    ...(p.ab.length === 0
      ? []
      : [para(`B over A by both measures (A: ${f.sides?.a ?? '?'}, B: ${f.sides?.b ?? '?'}):`), htmlTable(AB_HEAD, p.ab)]),
    para(p.settings, 'muted'),
    para(CAVEAT, 'muted'),
  ].join('\n');
}

function instructionsSection(report: Report): ReportSection | undefined {
  const markdown = instructionsMarkdown(report);
  if (markdown === undefined) return undefined;
  return {
    kind: 'bench',
    id: 'instructions',
    title: 'Instructions per request, beside CPU time',
    // Under bench:ab the verdicts by both measures belong beside the A/B table, at the top.
    lead: report.ab !== undefined,
    headlines: [],
    markdown: () => markdown,
    html: () => instructionsHtml(report),
    console: () => instructionsMarkdown(report, 'Instructions per request, beside CPU time') ?? '',
  };
}

/** For the entry points and report-cli: the side-by-side rows derived again, and the section. */
export const instructionFeatures: ReportFeatures = {
  derive(report) {
    const instructions = derived(report);
    return instructions === undefined ? {} : { instructions };
  },
  sections(report) {
    const section = instructionsSection(report);
    return section === undefined ? [] : [section];
  },
};
