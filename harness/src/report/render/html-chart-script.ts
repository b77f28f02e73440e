/**
 * The small script inside the HTML report that draws the charts from the embedded report JSON
 * (element #report-data). Kept as plain browser JavaScript in a string: it runs in the page, not
 * in Node, and the page must work offline with nothing but Chart.js and the error-bar plugin.
 *
 * Every canvas names its scenario and chart (data-scenario, data-chart), and the series are
 * fixed by the report, so tests and readers can rely on them:
 * - rps: labels = the scenario's modes, one dataset per runtime (skipped ones too, empty);
 * - latency: labels = the scenario's cells ("node sync"), datasets p50, p90, p99, p99.9, max;
 * - loop: labels = the cells, datasets probe p50, probe p99, probe max, lag p99, lag max.
 */
import { MODES } from '../../model/names.ts';
import { paletteScript } from '../../present/palette.ts';

const BODY = `
  'use strict';
  const report = JSON.parse(document.getElementById('report-data').textContent);
  const style = getComputedStyle(document.documentElement);
  const cssColor = (name) => style.getPropertyValue(name).trim();
  Chart.defaults.color = cssColor('--fg-muted');
  Chart.defaults.borderColor = cssColor('--grid');
  Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  // A report is read, not watched: no animation, and the screenshot shows the final bars.
  Chart.defaults.animation = false;

${paletteScript()}
  // In a --connections sweep a cell's mode carries its count ("sync @100"), in a --sweep its input ("sync kb=64").
  const connectionsSwept = report.parameters.connectionsSweep !== undefined;
  const modeLabel = (c) => (connectionsSwept && c.connections !== undefined ? c.mode + ' @' + c.connections : c.mode) + (c.query === undefined ? '' : ' ' + c.query);
  const rank = (mode) => (MODE_ORDER.indexOf(mode) === -1 ? MODE_ORDER.length : MODE_ORDER.indexOf(mode));
  const laneOf = (c) => c.runtimeLabel || c.runtime;
  const runtimeNames = [...new Set([...report.runtimes.map((r) => r.label || r.name), ...report.results.map(laneOf)])];
  /** A hex colour blended toward white by t (0: itself, 1: white). */
  const shade = (hex, t) => '#' + [1, 3, 5].map((j) => { const v = parseInt(hex.slice(j, j + 2), 16); return Math.round(v + (255 - v) * t).toString(16).padStart(2, '0'); }).join('');
  /** Versions of one runtime (node@20, node@24) share its colour, lighter the earlier they were given. */
  const runtimeColor = (name, i) => {
    if (RUNTIME_COLORS[name]) return RUNTIME_COLORS[name];
    const base = name.split('@')[0];
    const family = runtimeNames.filter((n) => n.split('@')[0] === base);
    if (!RUNTIME_COLORS[base]) return SPARE_COLORS[i % SPARE_COLORS.length];
    return shade(RUNTIME_COLORS[base], family.length < 2 ? 0 : (0.65 * (family.length - 1 - family.indexOf(name))) / (family.length - 1));
  };
  const cellsOf = (scenario) => report.results.filter((c) => c.scenario === scenario).sort((a, b) => rank(a.mode) - rank(b.mode));
  // Only cells that can carry a figure get a bar: an invalid or failed cell is a gap, not a value.
  const measured = (cell) => cell !== undefined && cell.status === 'ok';

  /** "⚠" for a flagged cell, "✗" for one not to be read; drawn on the bar and put in labels. */
  const markOf = (cell) => (cell === undefined ? '' : cell.status !== 'ok' ? '✗' : cell.flags.length > 0 ? '⚠' : '');
  const notesOf = (cell) => {
    if (cell === undefined) return [];
    const status = cell.status === 'ok' ? [] : ['✗ ' + cell.status + (cell.reason ? ': ' + cell.reason : '')];
    return status.concat(cell.flags.map((f) => '⚠ ' + f));
  };

  /** Flagged bars are hatched and lighter, so they stand out without a trip to the legend. */
  function hatch(color) {
    const tile = document.createElement('canvas');
    tile.width = tile.height = 8;
    const g = tile.getContext('2d');
    g.fillStyle = color + '55';
    g.fillRect(0, 0, 8, 8);
    g.strokeStyle = color;
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(-2, 10); g.lineTo(10, -2);
    g.stroke();
    return g.createPattern(tile, 'repeat');
  }

  /** Draws each bar's mark ("⚠", "✗") just above the bar or its error bar. */
  const cellMarks = {
    id: 'cellMarks',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      ctx.font = 'bold 13px system-ui, sans-serif';
      chart.data.datasets.forEach((dataset, i) => {
        const meta = chart.getDatasetMeta(i);
        if (!dataset.marks || meta.hidden) return;
        meta.data.forEach((bar, j) => {
          const mark = dataset.marks[j];
          if (!mark) return;
          const top = Math.min(Number.isFinite(bar.y) ? bar.y : chartArea.bottom, typeof bar.yMax === 'number' ? bar.yMax : Infinity);
          ctx.fillStyle = mark === '✗' ? MARK_COLORS.bad : MARK_COLORS.warn;
          ctx.fillText(mark, bar.x, Math.max(chartArea.top + 14, top - 2));
        });
      });
      ctx.restore();
    },
  };

  const footer = (items) => {
    const item = items[0];
    const notes = item && item.chart.data.datasets[item.datasetIndex].notes;
    return notes ? notes[item.dataIndex] : [];
  };

  /** The legend names runtimes, so it shows each one's plain colour, not a flagged bar's hatching. */
  function solidLegend(chart) {
    return Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
      const color = chart.data.datasets[item.datasetIndex].borderColor;
      return Object.assign(item, { fillStyle: color, strokeStyle: color });
    });
  }

  /** Log-axis ticks as plain numbers ("1,000", "0.5"), keeping Chart.js's choice of which to label. */
  function logTick(value, index, ticks) {
    const text = Chart.Ticks.formatters.logarithmic.call(this, value, index, ticks);
    return text === '' ? '' : Number(value).toLocaleString('en-US', { maximumFractionDigits: 3 });
  }

  function options(yTitle, logarithmic) {
    return {
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } }, tooltip: { callbacks: { footer } } },
      scales: {
        x: { grid: { display: false } },
        y: logarithmic
          ? { type: 'logarithmic', title: { display: true, text: yTitle }, ticks: { callback: logTick } }
          : { beginAtZero: true, title: { display: true, text: yTitle } },
      },
    };
  }

  /**
   * Median with its 95 % interval. A 95 % interval of the mean can dip below zero on very noisy
   * runs; requests/s cannot. A missing cell is an object of nulls, not null: the error-bar plugin
   * reads fields of every data point.
   */
  const rpsPoint = (c) =>
    measured(c)
      ? { y: c.requestsPerSec.median, yMin: Math.max(0, c.requestsPerSec.ci95[0]), yMax: c.requestsPerSec.ci95[1] }
      : { y: null, yMin: null, yMax: null };

  function rpsChart(canvas, cells) {
    const modes = [...new Set(cells.map(modeLabel))];
    // With --processes, one bar per runtime (or installation) and process count ("node x2").
    const lanes = report.results.some((c) => c.processes !== undefined)
      ? [...new Map(report.results.map((c) => [laneOf(c) + ' x' + c.processes, { runtime: laneOf(c), processes: c.processes }])).values()]
      : runtimeNames.map((runtime) => ({ runtime, processes: undefined }));
    const datasets = lanes.map(({ runtime, processes }, i) => {
      const entry = report.runtimes.find((r) => (r.label || r.name) === runtime);
      const row = modes.map((mode) => cells.find((c) => laneOf(c) === runtime && c.processes === processes && modeLabel(c) === mode));
      const color = processes !== undefined && processes > 1 ? SPARE_COLORS[i % SPARE_COLORS.length] : runtimeColor(runtime, i);
      const absent = entry && entry.status !== 'ok' && row.every((c) => c === undefined);
      const name = processes === undefined ? runtime : runtime + ' x' + processes;
      return {
        label: absent ? name + ' (' + entry.status + ')' : name,
        data: row.map(rpsPoint),
        backgroundColor: row.map((c) => (markOf(c) === '' ? color : hatch(color))),
        borderColor: color,
        borderWidth: 1,
        // The plugin's default near-black whiskers vanish on a dark page.
        errorBarColor: cssColor('--fg'),
        errorBarWhiskerColor: cssColor('--fg'),
        marks: row.map(markOf),
        notes: row.map(notesOf),
      };
    });
    const rpsOptions = options('requests/s', false);
    rpsOptions.plugins.legend.labels.generateLabels = solidLegend;
    return new Chart(canvas, { type: 'barWithErrorBars', data: { labels: modes, datasets }, options: rpsOptions, plugins: [cellMarks] });
  }

  /**
   * One bar group per cell, one dataset per figure; flagged cells carry their mark in the label.
   * The axis is logarithmic: a figure of 0 (an old report's whole-millisecond percentile, a loop
   * that never lagged) has no place on it and is left out rather than drawn at a made-up floor.
   */
  function figuresChart(canvas, cells, series, yTitle) {
    const labels = cells.map((c) => laneOf(c) + (c.processes === undefined ? '' : ' x' + c.processes) + ' ' + modeLabel(c) + (markOf(c) === '' ? '' : ' ' + markOf(c)));
    const datasets = series.map(([label, pick, color]) => ({
      label,
      data: cells.map((c) => (measured(c) && pick(c) > 0 ? pick(c) : null)),
      backgroundColor: color,
      notes: cells.map(notesOf),
    }));
    return new Chart(canvas, { type: 'bar', data: { labels, datasets }, options: options(yTitle, true) });
  }

  const LATENCY_SERIES = [
    ['p50', (c) => c.latencyMs.p50, LATENCY_COLORS[0]],
    ['p90', (c) => c.latencyMs.p90, LATENCY_COLORS[1]],
    ['p99', (c) => c.latencyMs.p99, LATENCY_COLORS[2]],
    ['p99.9', (c) => c.latencyMs.p999, LATENCY_COLORS[3]],
    ['max', (c) => c.latencyMs.max, LATENCY_COLORS[4]],
  ];
  const LOOP_SERIES = [
    ['probe p50', (c) => c.probeLatencyMs.p50, PROBE_COLORS[0]],
    ['probe p99', (c) => c.probeLatencyMs.p99, PROBE_COLORS[1]],
    ['probe max', (c) => c.probeLatencyMs.max, PROBE_COLORS[2]],
    ['lag p99', (c) => c.eventLoopLagMs.p99, LAG_COLORS[0]],
    ['lag max', (c) => c.eventLoopLagMs.max, LAG_COLORS[1]],
  ];

  for (const canvas of document.querySelectorAll('canvas[data-chart]')) {
    const cells = cellsOf(canvas.dataset.scenario);
    const kind = canvas.dataset.chart;
    if (kind === 'rps') rpsChart(canvas, cells);
    else if (kind === 'latency') figuresChart(canvas, cells, LATENCY_SERIES, 'ms (log scale)');
    else if (kind === 'loop') figuresChart(canvas, cells, LOOP_SERIES, 'ms (log scale)');
  }
`;

/** The chart script, with the mode order it shares with the tables. */
export function chartScript(): string {
  return `((MODE_ORDER) => {${BODY}})(${JSON.stringify(MODES)});\n`;
}
