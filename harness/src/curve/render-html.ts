/**
 * Curve report -> one self-contained HTML page: the capacity table first, then per scenario one
 * Chart.js chart of p99 (log scale) against offered rate (log scale), one line per runtime x
 * mode, the target drawn as a dashed line, and the steps' table. The charts are drawn in the
 * page from the embedded report JSON; canvases carry data-scenario and data-chart="curve".
 */
import type { ChartAssets } from '../present/html-assets.ts';
import { escapeHtml, inlineScript, jsonForScript } from '../present/html-escape.ts';
import { REPORT_CSS } from '../present/html-style.ts';
import { paletteScript } from '../present/palette.ts';
import { machineSpeedRow } from '../present/precision.ts';
import { formatDate } from '../present/formats.ts';
import type { CurveReport } from './curve-types.ts';
import {
  capacityHead,
  capacityRows,
  capacitySentences,
  conditionsLabel,
  renderCurveMarkdown,
  sortedCurves,
  targetLabel,
} from './render-text.ts';

const CHART_SCRIPT = `
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
${paletteScript()}  const MODE_DASH = { sync: [], async: [6, 3], worker: [2, 3], baseline: [], raw: [8, 2, 2, 2] };
  const MODE_POINT = { sync: 'circle', async: 'rect', worker: 'triangle', baseline: 'circle', raw: 'rectRot' };
  for (const canvas of document.querySelectorAll('canvas[data-chart="curve"]')) {
    const scenario = canvas.dataset.scenario;
    const rank = (m) => ['baseline', 'raw', 'sync', 'async', 'worker'].indexOf(m);
    const curves = report.curves.filter((c) => c.scenario === scenario && c.steps.length > 0)
      .sort((a, b) => a.runtime.localeCompare(b.runtime) || rank(a.mode) - rank(b.mode));
    const rates = curves.flatMap((c) => c.steps.map((s) => s.offeredPerSec));
    const lo = Math.min(...rates), hi = Math.max(...rates);
    const datasets = curves.map((c) => {
      const color = RUNTIME_COLORS[c.runtime] || SPARE_COLORS[0];
      // Steps run in search order; the curve is drawn in rate order.
      const steps = [...c.steps].sort((a, b) => a.offeredPerSec - b.offeredPerSec);
      return {
        label: c.runtime + ' ' + c.mode + (c.status === 'ok' ? '' : ' (' + c.status + ')'),
        data: steps.map((s) => ({ x: s.offeredPerSec, y: s.latencyMs.p99 > 0 ? s.latencyMs.p99 : null, flags: s.flags, outcome: s.decision ? (s.meetsTarget ? 'pass' : s.decision.outcome === 'pass' ? 'fail' : s.decision.outcome) + ' (' + s.decision.requests + ' req, ' + s.decision.overTarget + ' over)' : '' })),
        borderColor: color,
        backgroundColor: color,
        borderDash: MODE_DASH[c.mode] || [],
        pointStyle: MODE_POINT[c.mode] || 'circle',
        // A step whose generator fell behind is drawn hollow: its latency is not only the server's.
        pointBackgroundColor: steps.map((s) => (s.flags.includes('generator-bound') ? '#ffffff' : color)),
        pointRadius: 4,
        tension: 0,
      };
    });
    datasets.push({
      label: 'target p99 ≤ ' + report.parameters.sloMs + ' ms',
      data: [{ x: lo, y: report.parameters.sloMs }, { x: hi, y: report.parameters.sloMs }],
      borderColor: MARK_COLORS.target, borderDash: [4, 4], pointRadius: 0, borderWidth: 1.5,
    });
    new Chart(canvas, {
      type: 'line',
      data: { datasets },
      options: {
        responsive: true, maintainAspectRatio: false, parsing: true,
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: 'offered rate, requests/s (log)' } },
          y: { type: 'logarithmic', title: { display: true, text: 'p99 latency from scheduled send, ms (log)' } },
        },
        plugins: {
          title: { display: true, text: scenario + ': p99 against offered rate, ' + report.parameters.arrivals + ' arrivals' },
          legend: { position: 'bottom' },
          tooltip: { callbacks: { afterLabel: (item) => [item.raw.outcome || '', item.raw.flags && item.raw.flags.length ? item.raw.flags.join(', ') : ''].filter(Boolean).join('; ') } },
        },
      },
    });
  }
`;

function table(head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

export function renderCurveHtml(report: CurveReport, assets: Pick<ChartAssets, 'chartJs'>): string {
  const p = report.parameters;
  const scenarios = [...new Set(sortedCurves(report.curves).map((c) => c.scenario))];
  const head = capacityHead(p);
  const sections = scenarios.map((s) => {
    const e = escapeHtml(s);
    return `<section class="scenario" id="curve-${e}" data-scenario="${e}"><h2>${e}</h2><figure><figcaption>p99 against offered rate, ${escapeHtml(p.arrivals)} arrivals <small>log scales; hollow points: generator-bound steps</small></figcaption><div class="chart-box" style="height:380px"><canvas data-scenario="${e}" data-chart="curve" role="img" aria-label="p99 latency against offered rate for ${e}, ${escapeHtml(p.arrivals)} arrivals"></canvas></div></figure></section>`;
  });
  const markdown = renderCurveMarkdown(report);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Load curves, ${p.arrivals} arrivals, ${formatDate(report.createdAt)} (${report.status})`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<h1>Load curves, ${escapeHtml(formatDate(report.createdAt))}</h1>
<p class="subtitle">Open loop, ${escapeHtml(report.parameters.arrivals)} arrivals, latency from the scheduled send time, on ${escapeHtml(report.environment.cpu.model)} × ${report.environment.cpu.count}</p>
${speedLine(report)}
${report.status === 'interrupted' ? '<p class="banner warn" role="alert" data-report-status="interrupted">⚠ Interrupted: only the curves shown were measured.</p>' : '<p class="banner" data-report-status="complete">Complete.</p>'}
<h2 id="capacity">Capacity at ${escapeHtml(targetLabel(p))}, ${escapeHtml(conditionsLabel(p))}</h2>
${table(head, capacityRows(report))}
<ul>${capacitySentences(report)
    .map((l) => `<li>${escapeHtml(l)}</li>`)
    .join('')}</ul>
${sections.join('\n')}
<h2>Every step</h2>
<pre>${escapeHtml(markdown)}</pre>
</main>
<script type="application/json" id="report-data">${jsonForScript(report)}</script>
<script>${inlineScript(assets.chartJs)}</script>
<script>${inlineScript(CHART_SCRIPT)}</script>
</body>
</html>
`;
}

/** The machine's speed during the run (bench's row): "2 vCPUs, 1.2 to 1.9 cores' worth during this run (...)". */
function speedLine(report: CurveReport): string {
  const row = machineSpeedRow(report.environment);
  return row === undefined ? '' : `<p class="subtitle" data-machine-speed>${escapeHtml(`${row[0]}: ${row[1]}`)}</p>`;
}
