/**
 * The versions section of report.md and report.html: each installation against its runtime's
 * baseline version, cell by cell. Formats only; figures come from version-changes.ts.
 */
import { markdownTable } from 'markdown-table';
import { formatChange, formatP } from '../compare/render-compare.ts';
import type { MetricChange } from '../compare/compare.ts';
import type { Report } from '../model/report.ts';
import { escapeHtml } from '../present/html-escape.ts';
import { escapeCell, formatMs, formatRps } from '../present/formats.ts';
import type { VersionChange, VersionComparison } from './version-changes.ts';
import { CHANGE_WORDS } from '../present/verdict-words.ts';

const DASH = '—';
const HEAD = [
  'runtime',
  'scenario',
  'mode',
  'version vs baseline',
  'req/s',
  'change',
  'p',
  'p99 ms',
  'change',
  'p',
  'probe p99 ms',
  'change',
  'p',
  'verdict',
];

/** The A/B's and bench:compare's words (CHANGE_WORDS), so a version reads as any other change does. */
const VERDICT: Record<string, string> = {
  regressed: `✗ ${CHANGE_WORDS.regressed}`,
  improved: `✓ ${CHANGE_WORDS.improved}`,
  unchanged: `= ${CHANGE_WORDS.unchanged}`,
  'not-testable': `? ${CHANGE_WORDS.inconclusive}: fewer than 2 runs`,
};

function metric(m: MetricChange | undefined, figure: (x: number) => string): string[] {
  if (m === undefined) return [DASH, DASH, DASH];
  return [`${figure(m.baseline)} → ${figure(m.current)}`, formatChange(m.change), formatP(m.test?.p ?? null)];
}

function row(c: VersionChange): string[] {
  const who = `${c.current.label} (${c.current.version}) vs ${c.baseline.label} (${c.baseline.version})`;
  const rps = (x: number): string => formatRps(x, c.throughput?.baseline);
  return [
    c.runtime,
    c.scenario,
    c.mode,
    who,
    ...metric(c.throughput, rps),
    ...metric(c.p99, formatMs),
    ...metric(c.probeP99, formatMs),
    c.reason !== undefined ? `not compared: ${c.reason}` : (VERDICT[c.verdict ?? 'unchanged'] ?? ''),
  ];
}

function explanation(v: VersionComparison): string {
  const bases = Object.entries(v.baselines)
    .map(([runtime, label]) => `${runtime}: ${label}`)
    .join(', ');
  return (
    `Each version against its runtime's baseline (${bases}; --baseline picks another, default the oldest), cell by cell, ` +
    `from the runs of this one interleaved run. Medians across runs, baseline → this version; p is Welch's t-test over the per-run figures, ` +
    `as in bench:compare: a change counts when it is over ${Math.round(v.threshold * 100)} % with p < ${v.alpha} (latency: and over 1 ms). ` +
    `"regressed" means fewer requests/s or a longer p99 or probe p99 than the baseline; "no change", none that counts.`
  );
}

export function versionsMarkdown(report: Report): string | undefined {
  const v = report.versions;
  if (v === undefined || v.changes.length === 0) return undefined;
  const table = markdownTable([HEAD, ...v.changes.map((c) => row(c).map(escapeCell))], {
    align: ['l', 'l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  });
  return ['## Versions compared', explanation(v), table].join('\n\n');
}

export function versionsHtml(report: Report): string {
  const v = report.versions;
  if (v === undefined || v.changes.length === 0) return '';
  const head = `<tr>${HEAD.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const rows = v.changes.map(
    (c) =>
      `<tr data-runtime="${escapeHtml(c.runtime)}" data-label="${escapeHtml(c.current.label)}" data-verdict="${escapeHtml(c.verdict ?? 'not-compared')}">${row(
        c,
      )
        .map((x) => `<td>${escapeHtml(x)}</td>`)
        .join('')}</tr>`,
  );
  return [
    '<h2 id="versions">Versions compared</h2>',
    `<p class="muted">${escapeHtml(explanation(v))} Each scenario's requests/s chart below shows every version as its own bar.</p>`,
    `<div class="table-wrap"><table class="versions"><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table></div>`,
  ].join('\n');
}
