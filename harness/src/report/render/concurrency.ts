/**
 * The closed-loop concurrency sweep (--connections 1,10,100,1000): per runtime x scenario x mode,
 * requests/s and p99 at each connection count, as a Markdown table and an HTML section with one
 * chart per scenario (data-chart="concurrency"). Absent when the run did not sweep.
 */
import { markdownTable } from 'markdown-table';
import type { CellResult } from '../../model/cell.ts';
import type { Report } from '../../model/report.ts';
import { connectionsSwept } from '../../model/parameters.ts';
import { escapeHtml } from '../../present/html-escape.ts';
import { paletteScript } from '../../present/palette.ts';
import { formatMs, formatRps } from '../../present/formats.ts';

function swept(report: Report): CellResult[] {
  return connectionsSwept(report) ? report.results.filter((c) => c.connections !== undefined) : [];
}

function counts(cells: readonly CellResult[]): number[] {
  return [...new Set(cells.map((c) => c.connections ?? 0))].sort((a, b) => a - b);
}

/** Rows: scenario, runtime, mode, then "req/s · p99 ms" per connection count. */
export function concurrencyRows(report: Report): { head: string[]; rows: string[][] } | undefined {
  const cells = swept(report);
  if (cells.length === 0) return undefined;
  const columns = counts(cells);
  const groups = new Map<string, CellResult[]>();
  for (const c of cells) {
    const key = `${c.scenario}\u0000${c.runtime}\u0000${c.mode}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const rows = [...groups.values()].map((group) => {
    const first = group[0] as CellResult;
    return [
      first.scenario,
      first.runtime,
      first.mode,
      ...columns.map((n) => {
        const c = group.find((g) => g.connections === n);
        if (c === undefined) return '';
        if (c.status === 'failed') return 'failed';
        return `${formatRps(c.requestsPerSec.median)} · ${formatMs(c.latencyMs.p99)}${c.status === 'invalid' ? ' ✗' : c.flags.length > 0 ? ' ⚠' : ''}`;
      }),
    ];
  });
  return { head: ['scenario', 'runtime', 'mode', ...columns.map((n) => `${n} conns: req/s · p99 ms`)], rows };
}

export function concurrencyMarkdown(report: Report): string | undefined {
  const table = concurrencyRows(report);
  if (table === undefined) return undefined;
  return [
    '## Concurrency sweep (closed loop)',
    'Median requests/s · p99 latency (ms) at each connection count; ⚠ flagged, ✗ invalid.',
    markdownTable([table.head, ...table.rows]),
  ].join('\n\n');
}

export function concurrencyHtml(report: Report): string {
  const table = concurrencyRows(report);
  if (table === undefined) return '';
  const scenarios = [...new Set(swept(report).map((c) => c.scenario))];
  const th = table.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = table.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  const charts = scenarios.map(
    (s) =>
      `<figure><figcaption>${escapeHtml(s)}: requests/s (solid) and p99 ms (dashed) against connections</figcaption><div class="chart-box"><canvas data-scenario="${escapeHtml(s)}" data-chart="concurrency" role="img" aria-label="throughput and p99 against connections for ${escapeHtml(s)}"></canvas></div></figure>`,
  );
  return `<section id="concurrency"><h2>Concurrency sweep (closed loop)</h2><div class="charts">${charts.join('')}</div><table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table></section>`;
}

/** Browser script: draws the concurrency charts from the embedded report. */
export const CONCURRENCY_SCRIPT = `
  'use strict';
  (function () {
    const report = JSON.parse(document.getElementById('report-data').textContent);
${paletteScript()}    for (const canvas of document.querySelectorAll('canvas[data-chart="concurrency"]')) {
      const cells = report.results.filter((c) => c.scenario === canvas.dataset.scenario && c.connections !== undefined && c.status !== 'failed');
      const keys = [...new Set(cells.map((c) => c.runtime + ' ' + c.mode))];
      const datasets = keys.flatMap((key) => {
        const line = cells.filter((c) => c.runtime + ' ' + c.mode === key).sort((a, b) => a.connections - b.connections);
        const color = RUNTIME_COLORS[line[0].runtime] || SPARE_COLORS[0];
        return [
          { label: key + ' req/s', data: line.map((c) => ({ x: c.connections, y: c.requestsPerSec.median })), borderColor: color, backgroundColor: color, yAxisID: 'y' },
          { label: key + ' p99', data: line.map((c) => ({ x: c.connections, y: c.latencyMs.p99 > 0 ? c.latencyMs.p99 : null })), borderColor: color, backgroundColor: color, borderDash: [5, 4], yAxisID: 'p99' },
        ];
      });
      new Chart(canvas, {
        type: 'line',
        data: { datasets },
        options: {
          animation: false, responsive: true, maintainAspectRatio: false,
          scales: {
            x: { type: 'logarithmic', title: { display: true, text: 'connections (log)' } },
            y: { type: 'linear', beginAtZero: true, title: { display: true, text: 'requests/s' } },
            p99: { type: 'logarithmic', position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: 'p99 ms (log)' } },
          },
          plugins: { legend: { position: 'bottom' } },
        },
      });
    }
  })();
`;
