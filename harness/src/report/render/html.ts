/**
 * Report -> one self-contained HTML page: the summary sentences, a section per scenario with its
 * charts and a table of every cell (flags beside the figures), the environment and parameters.
 * Pure: it formats, never measures, and takes the chart libraries as text so it reads no files.
 * The charts are drawn in the page from the embedded report JSON (see html-chart-script.ts).
 */
import { plainLegend } from '../../present/verdict-words.ts';
import { CLIENT_BOUND_CPU_PERCENT, PAGE_FAULT_SHARE, UNFAIR_JAIN, UNSTABLE_CV } from '../../model/thresholds.ts';
import { MOVE_FACTOR, SHARED_HOST_CORES, SLOW_RUN_SHARE } from '../../system/host-speed.ts';
import type { ReportSection } from '../../model/section.ts';
import type { ChartAssets } from '../../present/html-assets.ts';
import { chartScript } from './html-chart-script.ts';
import { CONCURRENCY_SCRIPT, concurrencyHtml } from './concurrency.ts';
import { escapeHtml, inlineScript, jsonForScript } from '../../present/html-escape.ts';
import { REPORT_CSS } from '../../present/html-style.ts';
import { cellTable, environmentTable, parametersTable, threadsDetails } from './html-tables.ts';
import { profileHtml } from './profile.ts';
import { processesHtml } from './processes.ts';
import { entryLane, laneOf } from '../../model/cell-lookups.ts';
import { scenarioOrder } from '../merge.ts';
import { comparisonLines } from '../text/sentences.ts';
import { formatBytes, formatDate } from '../../present/formats.ts';
import { allocatorOf } from '../text/allocator.ts';
import type { ScenarioName } from '../../model/names.ts';
import { type Parameters, connectionsSwept } from '../../model/parameters.ts';
import type { Report, RuntimeEntry } from '../../model/report.ts';
import { driftCancelledLegend } from '../../present/precision.ts';
import { hostHealth } from '../text/host-health.ts';

/** Scenarios present in the report, in the report's scenario order. */
function scenariosOf(report: Report): ScenarioName[] {
  const present = new Set(report.results.map((c) => c.scenario));
  const known = scenarioOrder(report.parameters).filter((s) => present.has(s));
  return [...known, ...[...present].filter((s) => !known.includes(s))];
}

function statusBanner(report: Report): string {
  if (report.status === 'interrupted') {
    return '<p class="banner warn" role="alert" data-report-status="interrupted">⚠ Interrupted: the run stopped before finishing its plan; only the cells shown were measured.</p>';
  }
  return '<p class="banner" data-report-status="complete">Complete: every planned cell was attempted.</p>';
}

function header(report: Report): string {
  const p = report.parameters;
  const health = hostHealth(report.environment, report.results);
  const subtitle = `${p.runs} runs × ${p.durationSec} s per cell after ${p.warmupSec} s warm-up, ${p.connections} connections, on ${report.environment.cpu.model} × ${report.environment.cpu.count}`;
  return [
    `<h1>Sync vs async HTTP benchmark, ${escapeHtml(formatDate(report.createdAt))}</h1>`,
    `<p class="subtitle">${escapeHtml(subtitle)}</p>`,
    statusBanner(report),
    ...(health === undefined ? [] : [`<p class="banner${health.warn ? ' warn' : ''}" data-host-health>${escapeHtml(health.text)}</p>`]),
  ].join('\n');
}

/**
 * The comparison sentences of one runtime, each led by its scenario instead of the runtime's name;
 * a process count or connection count the sentence names ("node x2: ...", "node @100 conns: ...")
 * goes beside the scenario, so the card does not repeat the runtime.
 */
function runtimeSentences(report: Report, runtime: string): string[] {
  const escaped = runtime.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lead = new RegExp(`^${escaped}((?: x\\d+)?(?: @\\d+ conns)?): `);
  return report.comparisons
    .filter((c) => laneOf(c) === runtime)
    .flatMap((c) =>
      comparisonLines(report, c).map((line) => {
        const match = lead.exec(line);
        const qualifier = match?.[1]?.trim() ?? '';
        const text = match === null ? line : line.slice(match[0].length);
        return `<b>${escapeHtml(c.scenario)}${qualifier === '' ? '' : ` ${escapeHtml(qualifier)}`}</b>: ${escapeHtml(text)}`;
      }),
    );
}

function runtimeCard(report: Report, entry: RuntimeEntry): string {
  const title = `<h3>${escapeHtml(entryLane(entry))} ${escapeHtml(entry.version)}</h3>`;
  if (entry.status !== 'ok') {
    const why = `${entry.status}${entry.reason === undefined ? '' : `: ${entry.reason}`}`;
    return `<div class="card bad" data-runtime="${escapeHtml(entry.name)}" data-status="${escapeHtml(entry.status)}">${title}<p>✗ ${escapeHtml(why)}</p></div>`;
  }
  const sentences = runtimeSentences(report, entryLane(entry));
  const body =
    sentences.length === 0 ? '<p class="muted">Nothing to compare.</p>' : `<ul>${sentences.map((s) => `<li>${s}</li>`).join('')}</ul>`;
  return `<div class="card" data-runtime="${escapeHtml(entry.name)}" data-status="ok">${title}${body}</div>`;
}

function summary(report: Report): string {
  const known = new Set(report.runtimes.map(entryLane));
  // Cells of a runtime the run never finished (interrupted) still have comparisons to show.
  const extra = report.comparisons.filter((c, i, all) => !known.has(laneOf(c)) && all.findIndex((o) => laneOf(o) === laneOf(c)) === i);
  const entries = [
    ...report.runtimes,
    ...extra.map(
      (c): RuntimeEntry => ({
        name: c.runtime,
        version: '',
        status: 'ok',
        ...(c.runtimeLabel === undefined ? {} : { label: c.runtimeLabel }),
      }),
    ),
  ];
  return [
    '<h2 id="summary">What async and worker bought over sync</h2>',
    `<p class="muted">Requests/s: the ratio of runs paired round by round where the runs alternated (not the quotient of the medians in the tables), else of the medians; p99: the load&rsquo;s, over sync&rsquo;s; a bystander: one more caller&rsquo;s p99. The verdicts: ${escapeHtml(plainLegend().join('; '))}. &ldquo;Read with care&rdquo; names a flagged cell behind the ratio: see its scenario&rsquo;s table.</p>`,
    `<div class="cards">${entries.map((entry) => runtimeCard(report, entry)).join('\n')}</div>`,
  ].join('\n');
}

function howToRead(report: Report): string {
  return `<ul class="legend">
<li>Requests/s bars show the median of the runs; the error bar is the 95 % confidence interval. Hatched bars carry a mark: ⚠ flagged, ✗ invalid or failed.</li>
<li>Latency is what the load generator saw; the probe is a separate light client beside it (what one more caller waits); loop lag is how late the server's event loop ran. Both are on log scales.</li>
<li>⚠ client-bound: the load generator used ≥ ${CLIENT_BOUND_CPU_PERCENT} % of a core, so the server may be faster than shown.</li>
<li>⚠ unstable: requests/s varied by more than ${UNSTABLE_CV * 100} % (CV) between runs.</li>
<li>⚠ count-mismatch: the server counted more or fewer requests than the client sent.</li>
<li>⚠ latency censored: the latency figures cannot be told: the answered requests' mean is under a quarter of the time in the system Little's law gives (connections ÷ req/s: the runs held under half a turn of the queue), or more requests were left unanswered at the runs' end than answered, or those (counted at their age, a lower bound) lift the p99 1.5x; a p99 that is such a lower bound reads "≥ …".</li>
<li>⚠ shared host: other processes (outside the harness and its servers) used at least ${SHARED_HOST_CORES} cores' worth of CPU during a run: the host was shared, which the speed checks cannot see; bench:compare does not judge such a cell.</li>
<li>⚖ connections served unevenly: Jain's fairness index of the answers per connection under ${UNFAIR_JAIN} (1: every connection served alike); what one caller waits then differs from another's.</li>
<li>🐢 runs on a slow machine left out: the speed sampler read the machine under ${SLOW_RUN_SHARE} of the cell's median speed during those runs.</li>
<li>〰 machine's speed varied: the speed sampler read the machine during some of the cell's runs apart from its other runs by more than ${MOVE_FACTOR}x its floor; the cell's figures keep those runs unless they were slow.</li>
<li>✗ invalid: errors, timeouts, non-2xx answers or a failed answer check; ✗ failed: the server died (no figures).</li>
${driftCancelledLegend(report.results)
  .map((line) => `<li>${escapeHtml(line)}</li>`)
  .join('\n')}
<li>⚠ page faults ≈ x %: the server's page faults a request, at what a fresh page costs on this host (environment: fresh memory), took at least ${PAGE_FAULT_SHARE * 100} % of its CPU a request: the figure measures the host's memory handling as much as the endpoint${allocatorOf(report.parameters) === 'keep' ? '' : ' (<code>--allocator keep</code> measures it with the allocators keeping freed memory)'}.</li>
</ul>`;
}

/** What the scenario's endpoint does, with the settings it ran with. */
function scenarioBlurb(scenario: ScenarioName, p: Parameters): string {
  switch (scenario) {
    case 'hello':
      return 'a trivial answer: Hono (baseline) next to the raw server';
    case 'hash':
      return `bcrypt hash, cost ${p.hashCost}: hashSync vs hash`;
    case 'file':
      return `read one of ${p.fileCount} files of ${formatBytes(p.fileSizeBytes)} (${p.fileCache} page cache): readFileSync vs fs.promises`;
    case 'fib':
      return `fib(${p.fibN}): on the loop, async, and in a worker pool`;
    case 'sleep':
      return `wait ${p.sleepMs} ms: Atomics.wait vs a timer`;
    default:
      // Any other scenario: its module's own one-line description, as the plan recorded it.
      return p.scenarios?.find((s) => s.name === scenario)?.description ?? '';
  }
}

function chartFigure(scenario: ScenarioName, chart: string, caption: string, note: string): string {
  const label = `${caption} for ${scenario}`;
  return `<figure><figcaption>${escapeHtml(caption)} <small>${escapeHtml(note)}</small></figcaption><div class="chart-box"><canvas data-scenario="${escapeHtml(scenario)}" data-chart="${chart}" role="img" aria-label="${escapeHtml(label)}"></canvas></div></figure>`;
}

function scenarioSection(report: Report, scenario: ScenarioName): string {
  const s = escapeHtml(scenario);
  const sentences = report.comparisons.filter((c) => c.scenario === scenario).flatMap((c) => comparisonLines(report, c));
  return [
    `<section class="scenario" id="scenario-${s}" data-scenario="${s}">`,
    `<h2>${s}</h2>`,
    `<p class="muted">${escapeHtml(scenarioBlurb(scenario, report.parameters))}</p>`,
    sentences.length === 0 ? '' : `<ul>${sentences.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    '<div class="charts">',
    chartFigure(scenario, 'rps', 'Requests/s', 'median, 95 % interval'),
    chartFigure(scenario, 'latency', 'Load latency', 'p50 to max, ms'),
    chartFigure(scenario, 'loop', 'Probe and loop lag', 'a blocked loop, ms'),
    '</div>',
    cellTable(report, scenario),
    threadsDetails(report, scenario),
    profileHtml(
      report.results.filter((c) => c.scenario === scenario),
      connectionsSwept(report),
    ),
    '</section>',
  ].join('\n');
}

function scenarioNav(scenarios: readonly ScenarioName[]): string {
  const links = scenarios.map((s) => `<a href="#scenario-${escapeHtml(s)}">${escapeHtml(s)}</a>`);
  return `<p class="muted">Scenarios: ${links.join(' · ')} · <a href="#setup">environment and parameters</a></p>`;
}

function body(report: Report, extra: readonly ReportSection[]): string {
  const scenarios = scenariosOf(report);
  return [
    header(report),
    ...extra.filter((s) => s.lead === true).map((s) => s.html()),
    summary(report),
    ...extra.filter((s) => s.lead !== true).map((s) => s.html()),
    `<div class="side-by-side" id="setup">${environmentTable(report)}${parametersTable(report)}</div>`,
    '<h2>How to read the charts</h2>',
    howToRead(report),
    scenarios.length === 0 ? '<p>No cell was measured.</p>' : scenarioNav(scenarios),
    ...scenarios.map((s) => scenarioSection(report, s)),
    concurrencyHtml(report),
    processesHtml(report, escapeHtml),
    '<footer>The full report.json is embedded in this page (element #report-data); the charts are drawn from it.</footer>',
  ].join('\n');
}

/** `extra`: sections the features hand in (versions compared, ...), placed after the summary; a lead section after the header. */
export function renderHtml(report: Report, assets: ChartAssets, extra: readonly ReportSection[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Sync vs async benchmark, ${formatDate(report.createdAt)} (${report.status})`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
${body(report, extra)}
</main>
<script type="application/json" id="report-data">${jsonForScript(report)}</script>
<script>${inlineScript(assets.chartJs)}</script>
<script>${inlineScript(assets.errorBarsJs)}</script>
<script>${inlineScript(chartScript())}</script>
${connectionsSwept(report) ? `<script>${inlineScript(CONCURRENCY_SCRIPT)}</script>\n` : ''}</body>
</html>
`;
}
