// The claims table as Markdown (also the console's output) and HTML. Rendering only: every
// figure comes from the SeedsReport.
import { markdownTable } from 'markdown-table';
import type { Environment } from '../model/environment.ts';
import { escapeHtml } from '../present/html-escape.ts';
import { REPORT_CSS } from '../present/html-style.ts';
import { CLAIMS, type ClaimId } from './claims.ts';
import type { ClaimRow } from './judge.ts';
import type { ReplayShape } from './replay-shape.ts';
import { WIDE_INTERVAL } from './verdict.ts';
import { NO_DIFFERENCE_WITHIN } from '../present/ratio-verdict.ts';
import { claimWords, measuredWords } from './claim-words.ts';

export interface SeedsReport {
  kind: 'seeds';
  schemaVersion: 1;
  createdAt: string;
  status: 'complete' | 'interrupted';
  environment: Environment;
  parameters: ReplayShape & { quick: boolean; claims?: ClaimId[] };
  clients: { ab: { version?: string; reason?: string }; autocannon: string };
  runtimes: Array<{ name: string; version?: string; status: 'ok' | 'skipped' | 'failed'; reason?: string }>;
  rows: ClaimRow[];
}

const fig = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? '-' : x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
const ratio = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

function spread(xs: number[]): string {
  if (xs.length === 0) return '-';
  return xs.length === 1 ? fig(xs[0]) : `${fig(Math.min(...xs))}-${fig(Math.max(...xs))}`;
}

/** One table row's cells: claim and set-ups, what was measured, the ratio against the claim, verdict, why. */
export function rowCells(row: ClaimRow, runtimeVersion: string | undefined): string[] {
  const claim = CLAIMS.find((c) => c.id === row.claim);
  const measured =
    row.status === 'ok'
      ? `${row.baseLabel} ${fig(row.baseMedian)} (${spread(row.base)}) -> ${row.overLabel} ${fig(row.overMedian)} (${spread(row.over)}) ${row.unit}`
      : row.status;
  const against = row.ratio === undefined ? '-' : `${measuredWords(row)}; ${ratio(row.claimed)}x claimed`;
  return [
    `${row.claim}: ${claim?.claim ?? ''}`,
    claim?.sourceSetup ?? '',
    row.replayedSetup || '-',
    `${row.runtime}${runtimeVersion === undefined ? '' : ` ${runtimeVersion}`}`,
    measured,
    against,
    claimWords(row.verdict, row.claimed, row.ratio?.ci95),
    row.why,
  ];
}

const HEAD = [
  'claim',
  'source set-up',
  'replayed set-up',
  'runtime',
  'measured: median (min-max over runs)',
  'measured ratio (95 % interval) vs claim',
  'verdict',
  'why',
];

function versionOf(report: SeedsReport, runtime: string): string | undefined {
  return report.runtimes.find((r) => r.name === runtime)?.version;
}

function header(report: SeedsReport): string[] {
  const e = report.environment;
  const p = report.parameters;
  const ab =
    report.clients.ab.version !== undefined
      ? `ab ${report.clients.ab.version}`
      : `ab missing (${report.clients.ab.reason ?? ''}): its claims skipped`;
  return [
    `Seeds replayed${report.status === 'interrupted' ? ' (INTERRUPTED: partial results)' : ''}: ${report.createdAt}, ${e.cpu.model} x${e.cpu.count}, ${(e.memoryBytes / 2 ** 30).toFixed(1)} GiB, ${e.os}, commit ${e.commit.slice(0, 10)}${e.dirty ? ' (dirty)' : ''}`,
    `${p.quick ? '--quick, ' : ''}${p.claims === undefined ? '' : `claims ${p.claims.join(', ')} only, `}${p.runs} runs per claim; ${ab}; autocannon ${report.clients.autocannon}`,
    `Verdict: the claim holds when its ratio lies inside the measured 95 % interval (could not tell when that spans more than ${WIDE_INTERVAL}x; a claim of no difference is only not refuted when the interval reaches past ±${NO_DIFFERENCE_WITHIN * 100} %); partly when the interval is on the claim's side of 1 but misses its figure; it does not hold when the interval shows no effect or the opposite (docs/seeds.md).`,
  ];
}

export function renderSeedsMarkdown(report: SeedsReport): string {
  const rows = report.rows.map((row) => rowCells(row, versionOf(report, row.runtime)).map((c) => c.replace(/\|/g, '\\|')));
  return [`# Claims checked`, '', ...header(report).map((l) => `${l}  `), '', markdownTable([HEAD, ...rows]), ''].join('\n');
}

/** The console's compact form: the set-up columns left to the files. */
export function renderSeedsConsole(report: SeedsReport): string {
  const pick = [0, 3, 4, 5, 6];
  const rows = report.rows.map((row) => {
    const cells = rowCells(row, versionOf(report, row.runtime));
    return [...pick.map((i) => cells[i] ?? '')].map((c, i) => (i === 0 ? (c.split(':')[0] ?? c) : c));
  });
  return [...header(report), '', markdownTable([pick.map((i) => HEAD[i] ?? ''), ...rows])].join('\n');
}

export function renderSeedsHtml(report: SeedsReport): string {
  const head = HEAD.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = report.rows
    .map((row) => {
      const cls = row.verdict === 'holds' ? 'ok' : row.verdict === 'partly' || row.verdict === 'inconclusive' ? 'warn' : 'bad';
      return `<tr class="${cls}">${rowCells(row, versionOf(report, row.runtime))
        .map((c) => `<td>${escapeHtml(c)}</td>`)
        .join('')}</tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Claims checked</title>
<style>${REPORT_CSS}
tr.ok td:nth-child(7){color:#1a7f37;font-weight:600} tr.warn td:nth-child(7){color:#9a6700;font-weight:600} tr.bad td:nth-child(7){color:#cf222e;font-weight:600}
td{vertical-align:top;font-size:0.9em}</style></head>
<body><h1>Claims checked</h1>
${header(report)
  .map((l) => `<p>${escapeHtml(l)}</p>`)
  .join('\n')}
<table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></body></html>
`;
}
