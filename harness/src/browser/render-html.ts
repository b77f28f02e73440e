/**
 * The browser section as a standalone HTML page with Chart.js inlined (no network): per browser
 * and variant, time per call against n for each mode (log scale), and the 10 ms timer's p99
 * lateness per mode: what the main thread went through.
 */
import { loadChartAssets } from '../present/html-assets.ts';
import { escapeHtml, inlineScript, jsonForScript } from '../present/html-escape.ts';
import { MODE_COLORS } from '../present/palette.ts';
import { checkClaims } from './claims.ts';
import type { BrowserSection } from './study.ts';

const COLORS: Record<string, string> = MODE_COLORS;

export function renderBrowserHtml(section: BrowserSection): string {
  const assets = loadChartAssets();
  const charts: { id: string; title: string; config: unknown }[] = [];
  const groups = [...new Set(section.cases.map((c) => `${c.browser}|${c.variant}`))];
  for (const group of groups) {
    const [browser, variant] = group.split('|');
    const cases = section.cases.filter((c) => c.browser === browser && c.variant === variant);
    const ns = [...new Set(cases.map((c) => c.n))].sort((a, b) => a - b);
    const modes = [...new Set(cases.map((c) => c.mode))];
    const series = (pick: (c: (typeof cases)[number]) => number | undefined) =>
      modes.map((mode) => ({
        label: mode,
        backgroundColor: COLORS[mode],
        data: ns.map((n) => {
          const c = cases.find((x) => x.mode === mode && x.n === n && x.status === 'ok');
          return c ? (pick(c) ?? null) : null;
        }),
      }));
    charts.push({
      id: `t-${charts.length}`,
      title: `${browser} ${variant}: ms per call`,
      config: {
        type: 'bar',
        data: { labels: ns.map((n) => `n=${n}`), datasets: series((c) => c.callMs?.median) },
        options: { animation: false, scales: { y: { type: 'logarithmic', title: { display: true, text: 'ms per call (log)' } } } },
      },
    });
    charts.push({
      id: `l-${charts.length}`,
      title: `${browser} ${variant}: 10 ms timer lateness p99`,
      config: {
        type: 'bar',
        data: { labels: ns.map((n) => `n=${n}`), datasets: series((c) => c.timerLateMs?.p99) },
        options: { animation: false, scales: { y: { title: { display: true, text: 'ms late (p99)' } } } },
      },
    });
  }
  const claims = checkClaims(section)
    .map((c) => `<tr><td>${escapeHtml(c.claim)}</td><td><b>${c.verdict}</b></td><td>${escapeHtml(c.evidence)}</td></tr>`)
    .join('');
  const versions = section.browsers
    .map((b) => `${escapeHtml(b.name)}: ${escapeHtml(b.version ?? `${b.status} ${b.reason ?? ''}`)}`)
    .join('; ');
  const failed = section.cases
    .filter((c) => c.status !== 'ok')
    .map((c) => `<li>${escapeHtml(`${c.browser} ${c.variant} ${c.mode} n=${c.n}: ${c.reason ?? ''}`)}</li>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Browser Fibonacci study</title>
<style>body{font-family:sans-serif;margin:1.5em}.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:1em}figure{margin:0}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em}</style>
<script>${inlineScript(assets.chartJs)}</script></head><body>
<h1>Browser: the Fibonacci study of seed 002</h1><p>${escapeHtml(section.driver)}; ${versions}</p>
<h2>Claims</h2><table><tr><th>claim</th><th>verdict</th><th>evidence</th></tr>${claims}</table>
${failed ? `<h2>Failed cases</h2><ul>${failed}</ul>` : ''}
<div class="grid">${charts.map((c) => `<figure><figcaption>${escapeHtml(c.title)}</figcaption><canvas id="${c.id}" data-chart="browser"></canvas></figure>`).join('')}</div>
<script>${charts.map((c) => `new Chart(document.getElementById(${jsonForScript(c.id)}), ${jsonForScript(c.config)});`).join('\n')}</script>
</body></html>
`;
}
