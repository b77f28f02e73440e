/**
 * Report -> Markdown for a README or a pull request. Pure: formats, never measures.
 * The number formatters and the comparison sentences are shared with render-console.ts.
 */
import { concurrencyMarkdown } from './concurrency.ts';
import { markdownTable } from 'markdown-table';
import { escapeCell, formatBytes, formatDate, formatMs, formatRatio, formatRps } from './format.ts';

export { escapeCell, formatBytes, formatDate, formatMs, formatRatio, formatRps } from './format.ts';
import { cellRemarks, CLIENT_BOUND_CPU_PERCENT, flagLabel, PAGE_FAULT_SHARE, percent, UNSTABLE_CV } from '../flags.ts';
import { shownP99 } from '../../stats/littles-law.ts';
import { laneOf, MODE_ORDER } from '../merge.ts';
import type { CellResult } from '../../model/cell.ts';
import type { Comparison, Ratios } from '../../model/comparison.ts';
import type { NetworkPath, RoundTrip } from '../../model/environment.ts';
import type { ScenarioName } from '../../model/names.ts';
import type { Parameters } from '../../model/parameters.ts';
import type { Report, Timing } from '../../model/report.ts';
import { poolsSection, processesSection, runtimeLabel } from './processes.ts';
import type { ReportSection } from '../section.ts';
import {
  firstTouchText,
  machineSpeedRow,
  movingMachineText,
  hostCheckText,
  driftCancelledText,
  driftCancelledLegend,
  pairedRatioText,
  precisionLegend,
  precisionNotes,
  precisionText,
  runsText,
} from './precision.ts';

const DASH = '—';

/** What a reader must know before trusting the row: status first, then flags. */
export function cellNotes(cell: CellResult): string {
  const notes: string[] = [];
  if (cell.status !== 'ok') notes.push(`✗ ${cell.status}${cell.reason === undefined ? '' : `: ${cell.reason}`}`);
  for (const flag of cell.flags) notes.push(flagLabel(flag, cell));
  notes.push(...cellRemarks(cell));
  if (cell.fileCache === 'cold') notes.push('❄ cold cache');
  notes.push(...precisionNotes(cell));
  if (cell.crossCheck !== undefined)
    notes.push(`wrk ${formatRps(cell.crossCheck.requestsPerSec)} req/s (autocannon at ${formatRatio(cell.crossCheck.ratio)})`);
  if (cell.precision !== undefined && !cell.precision.met) {
    notes.push(`⚠ CV target ${(cell.precision.targetCv * 100).toFixed(1)} % not met in ${cell.requestsPerSec.runs.length} runs`);
  }
  return notes.join(', ');
}

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

/** The mode, with the connection count when the run swept them: "sync @100". */
export function modeLabel(cell: Pick<CellResult, 'mode' | 'connections'>): string {
  return cell.connections === undefined ? cell.mode : `${cell.mode} @${cell.connections}`;
}

function scenarioRow(cell: CellResult, withRatio: boolean): string[] {
  // A failed cell holds only zeros; showing them would read as a measurement.
  const measured = cell.status !== 'failed';
  const figure = (text: string): string => (measured ? text : DASH);
  const row = [modeLabel(cell), runtimeLabel(cell), figure(rpsWithSpread(cell))];
  if (withRatio) row.push(cell.ratioToFastest === undefined ? DASH : formatRatio(cell.ratioToFastest));
  row.push(
    figure(shownP99(cell, formatMs)),
    figure(formatMs(cell.probeLatencyMs.p99)),
    figure(cell.lagMissing === undefined ? formatMs(cell.eventLoopLagMs.p99) : 'n/a'),
    escapeCell(cellNotes(cell)),
  );
  return row;
}

/** One table per scenario: rows grouped by mode, runtimes next to each other within a mode. */
export function scenarioTable(cells: readonly CellResult[]): string {
  // Stable sort: within a mode, runtimes keep the report's order.
  const byMode = [...cells].sort((a, b) => modeRank(a) - modeRank(b));
  const withRatio = new Set(cells.map(laneOf)).size > 1;
  const head = ['mode', 'runtime', 'req/s', ...(withRatio ? ['× fastest'] : []), 'p99 ms', 'probe p99 ms', 'lag p99 ms', 'notes'];
  const align = ['l', 'l', 'r', ...(withRatio ? ['r'] : []), 'r', 'r', 'r', 'l'];
  return markdownTable([head, ...byMode.map((cell) => scenarioRow(cell, withRatio))], { align });
}

function modeRank(cell: CellResult): number {
  const index = MODE_ORDER.indexOf(cell.mode);
  return index === -1 ? MODE_ORDER.length : index;
}

function ratioDetails(ratios: Ratios): string {
  return `(p99 ${formatRatio(ratios.p99)}, probe p99 ${formatRatio(ratios.probeP99)})`;
}

/** Cells a ratio was computed from that are not clean, so the sentence is not over-trusted. */
function caveat(cells: readonly (CellResult | undefined)[], paired = false): string {
  const notes = cells.flatMap((cell) => {
    if (cell === undefined) return [];
    if (cell.status !== 'ok') return [`${cell.mode} ${cell.status}`];
    // A paired interval already says how sure the ratio is: "unstable" adds nothing to it.
    return cell.flags.filter((flag) => !(paired && flag === 'unstable')).map((flag) => `${cell.mode} ${flag}`);
  });
  return notes.length === 0 ? '' : `, read with care: ${notes.join(', ')}`;
}

/** Why a throughput ratio could not be computed, side by side: "async not measured, sync failed". */
function whyNotComparable(sides: readonly [string, CellResult | undefined][]): string {
  const problems = sides.flatMap(([name, cell]) => {
    if (cell === undefined) return [`${name} not measured`];
    if (cell.status !== 'ok') return [`${name} ${cell.status}`];
    return cell.requestsPerSec.median === 0 ? [`${name} measured 0 req/s`] : [];
  });
  return problems.join(', ');
}

function ratioSentence(
  runtime: string,
  [over, overCell]: [string, CellResult | undefined],
  [base, baseCell]: [string, CellResult | undefined],
  ratios: Ratios,
): string {
  if (ratios.throughput === null) {
    return `${runtime}: ${over} vs ${base} not comparable (${whyNotComparable([
      [over, overCell],
      [base, baseCell],
    ])})`;
  }
  const paired = pairedRatioText(ratios);
  const note = caveat([overCell, baseCell], paired !== undefined);
  const figure = paired === undefined ? formatRatio(ratios.throughput) : paired.ratio;
  return `${runtime}: ${over} handles ${figure} the requests/s of ${base}${paired === undefined ? '' : ` ${paired.interval}`} ${ratioDetails(ratios)}${note}`;
}

/**
 * The sentences under a scenario, e.g.
 * "node: async handles 2.41x the requests/s of sync (p99 0.52x, probe p99 0.05x)".
 */
export function comparisonLines(report: Report, comparison: Comparison): string[] {
  const cell = (mode: CellResult['mode']): CellResult | undefined =>
    report.results.find(
      (c) =>
        laneOf(c) === laneOf(comparison) &&
        c.scenario === comparison.scenario &&
        c.mode === mode &&
        c.connections === comparison.connections &&
        c.processes === comparison.processes,
    );
  const runtime = `${runtimeLabel(comparison)}${comparison.connections === undefined ? '' : ` @${comparison.connections} conns`}`;
  const lines: string[] = [];
  if (comparison.honoOverRaw !== undefined) {
    lines.push(ratioSentence(runtime, ['Hono', cell('baseline')], ['the raw server', cell('raw')], comparison.honoOverRaw));
  }
  if (comparison.asyncOverSync !== undefined) {
    lines.push(ratioSentence(runtime, ['async', cell('async')], ['sync', cell('sync')], comparison.asyncOverSync));
  }
  if (comparison.workerOverSync !== undefined) {
    lines.push(ratioSentence(runtime, ['worker', cell('worker')], ['sync', cell('sync')], comparison.workerOverSync));
  }
  const overload = overloadSentence(
    comparison.runtime,
    (['sync', 'async', 'worker'] as const).map(cell),
    comparison.connections ?? report.parameters.connections,
  );
  if (overload !== undefined) lines.push(overload);
  return lines;
}

/**
 * Overload as a result: per mode, the share that timed out, and what was still served, e.g.
 * "node at 1000 connections: sync 96 % of requests timed out after 10 s (served 31 req/s);
 * async none timed out, served 4,700 req/s".
 */
export function overloadSentence(runtime: string, cells: readonly (CellResult | undefined)[], connections: number): string | undefined {
  const measured = cells.filter((c): c is CellResult => c !== undefined && c.status === 'ok');
  if (!measured.some((c) => c.overload !== undefined)) return undefined;
  const parts = measured.map((c) => {
    const served = `${formatRps(c.requestsPerSec.median)} req/s`;
    if (c.overload === undefined) return `${c.mode}: none timed out, served ${served}`;
    return `${c.mode}: ${percent(c.overload.timeoutShare)} of requests timed out after ${c.overload.timeoutSec} s (served ${served})`;
  });
  return `${runtime} at ${connections} connections, ${parts.join('; ')}`;
}

/** Scenarios in the order of the (already sorted) results. */
function scenariosOf(report: Report): ScenarioName[] {
  return [...new Set(report.results.map((c) => c.scenario))];
}

/** The server-thread figures as table cells: the loop thread's CPU and wait, the other threads. */
export function threadFigures(cell: CellResult): string[] | undefined {
  const t = cell.threads;
  if (t === undefined || cell.status === 'failed') return undefined;
  const busiest = t.busiest
    .filter((b) => b.cpuPercent >= 1)
    .map((b) => `${b.name} ${b.cpuPercent.toFixed(0)} %`)
    .join(', ');
  return [
    t.mainCpuPercent.toFixed(0),
    formatMs(t.mainWaitMsPerSec),
    formatMs(t.mainWaitPerSliceMs),
    String(t.busyThreads),
    t.othersCpuPercent.toFixed(0),
    busiest === '' ? DASH : busiest,
    cell.pageFaultsPerRequest === undefined ? DASH : formatRps(cell.pageFaultsPerRequest),
  ];
}

export const THREAD_HEAD = [
  'loop thread CPU %',
  'loop thread waited for a CPU, ms/s',
  'ms per wake',
  'other busy threads',
  'their CPU %',
  'busiest',
  'page faults / request',
];

/**
 * Which threads did the work and how long the loop thread waited for a CPU (run-queue wait):
 * on a machine with few cores, work moved off the loop still competes with it for the cores.
 */
function threadsTable(cells: readonly CellResult[]): string | undefined {
  const rows = [...cells]
    .sort((a, b) => modeRank(a) - modeRank(b))
    .flatMap((cell) => {
      const figures = threadFigures(cell);
      return figures === undefined ? [] : [[modeLabel(cell), cell.runtime, ...figures.map(escapeCell)]];
    });
  if (rows.length === 0) return undefined;
  const table = markdownTable([['mode', 'runtime', ...THREAD_HEAD], ...rows], { align: ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'r'] });
  // A fault hands the server a fresh page: on a VM that can cost 14-17 µs (environment's "fresh memory").
  return `Server threads and page faults (from /proc, medians over runs):\n\n${table}`;
}

function scenarioSection(report: Report, scenario: ScenarioName): string {
  const cells = report.results.filter((c) => c.scenario === scenario);
  const lines = report.comparisons.filter((c) => c.scenario === scenario).flatMap((c) => comparisonLines(report, c));
  const bullets = lines.map((line) => `- ${line}`).join('\n');
  const threads = threadsTable(cells);
  return [`## ${scenario}`, scenarioTable(cells), ...(bullets === '' ? [] : [bullets]), ...(threads === undefined ? [] : [threads])].join(
    '\n\n',
  );
}

function titleSection(report: Report): string {
  const title = `# Sync vs async HTTP benchmark, ${formatDate(report.createdAt)} (${report.status})`;
  const status =
    report.status === 'interrupted'
      ? '**⚠ Interrupted:** the run stopped before finishing its plan; only the cells below were measured.'
      : 'Status: complete, every planned cell was attempted.';
  const lines = [movingMachineText(report.environment), hostCheckText(report.environment)].filter((l) => l !== undefined);
  return [title, status, ...lines].join('\n\n');
}

function howToRead(report: Report): string {
  const p = report.parameters;
  const figures = [
    `Each figure is the median of ${runsText(p)} of ${p.durationSec} s (after ${p.warmupSec} s of warm-up) at ${p.connections} connections.`,
    ...precisionLegend(p),
    ...driftCancelledLegend(report.results),
    "req/s is ± the half-width of the 95 % confidence interval of the mean; p99 is the load's latency;",
    "probe p99 is the latency of a separate light client (what one more caller waits); lag p99 is the server's event-loop lateness.",
  ].join('\n');
  const legend = [
    `- ⚠ client-bound: the load generator used ≥ ${CLIENT_BOUND_CPU_PERCENT} % of a core, so the server may be faster than shown`,
    `- ⚠ unstable: requests/s varied by more than ${UNSTABLE_CV * 100} % (CV) between runs`,
    '- ⚠ count-mismatch: the server counted more or fewer requests than the client sent',
    "- ⚠ latency censored: the latency figures cannot be told: the answered requests' mean is under a quarter of the time in the system Little's law gives (connections ÷ req/s: the runs held under half a turn of the queue), or more requests were left unanswered at the runs' end than answered, or those (counted at their age, a lower bound) lift the p99 1.5x; a p99 that is such a lower bound reads \"≥ …\"",
    '- ⚠ overloaded: requests waited past the timeout and the client gave up on them; the figures are of the answered ones, and the share that timed out is given',
    '- ✗ invalid: errors (without overload), non-2xx answers or a failed answer check; ✗ failed: the server died or hung (alive but doing no work at all)',
    `- ⚠ page faults ≈ x %: the server's page faults a request, at what a fresh page costs on this host ("fresh memory" below), took at least ${PAGE_FAULT_SHARE * 100} % of its CPU a request: the figure measures the host's memory handling as much as the endpoint${report.parameters.serverEnv === undefined ? '; `--keep-freed-memory` measures it with the allocators keeping freed memory' : ''} (docs/methodology.md)`,
  ].join('\n');
  return `${figures}\n\n${legend}`;
}

function runtimeProblems(report: Report): string | undefined {
  const problems = report.runtimes.filter((r) => r.status !== 'ok');
  if (problems.length === 0) return undefined;
  const items = problems.map((r) => `- ${r.name}: ${r.status}${r.reason === undefined ? '' : ` (${r.reason})`}`);
  return ['## Runtimes not measured', items.join('\n')].join('\n\n');
}

/** The environment as label/value rows, shared by the Markdown and HTML reports. */
export function environmentRows(report: Report): [string, string][] {
  const env = report.environment;
  return [
    ['OS', env.os],
    ['kernel', env.kernel],
    ['CPU', `${env.cpu.model} × ${env.cpu.count}`],
    ...(machineSpeedRow(env) === undefined ? [] : [machineSpeedRow(env) as [string, string]]),
    ['memory', formatBytes(env.memoryBytes)],
    ...(env.memoryFirstTouch === undefined ? [] : [['fresh memory', firstTouchText(env.memoryFirstTouch)] as [string, string]]),
    ['commit', `${env.commit}${env.dirty ? ' (dirty: uncommitted changes)' : ''}`],
    ['load generator', `${env.loadGenerator.name} ${env.loadGenerator.version}`],
    ['harness Node', env.harnessNode],
    ...(env.pinning === undefined
      ? []
      : [
          [
            'CPU pinning',
            'reason' in env.pinning
              ? `none: ${env.pinning.reason}`
              : `load generator on CPU ${env.pinning.client}${env.pinning.autocannonWorkers ? ` (${env.pinning.autocannonWorkers} autocannon workers)` : ''}, servers on ${env.pinning.server}`,
          ] as [string, string],
        ]),
    ...serverHostRows(env),
    ...report.runtimes.map((r): [string, string] => [
      r.label ?? r.name,
      `${r.status === 'ok' ? r.version : `${r.version === '' ? '' : `${r.version} `}(${r.status})`}${r.source === undefined ? '' : ` from ${r.source}`}`,
    ]),
  ];
}

const PHASE_LABELS: [keyof Timing['phasesSec'], string][] = [
  ['run', 'runs'],
  ['warm-up', 'warm-ups'],
  ['check', 'checks'],
  ['cross-check', 'wrk cross-checks'],
  ['restart', 'restarts'],
  ['setup', 'setup'],
  ['other', 'between cells'],
];

/** "58.3 s: runs 30.1 s, warm-ups 12.0 s, …" (phases that took no time are left out). */
export function timingText(timing: Timing): string {
  const parts = PHASE_LABELS.filter(([kind]) => (timing.phasesSec[kind] ?? 0) > 0).map(
    ([kind, label]) => `${label} ${(timing.phasesSec[kind] ?? 0).toFixed(1)} s`,
  );
  return `${timing.wallSec.toFixed(1)} s${parts.length === 0 ? '' : `: ${parts.join(', ')}`}`;
}

/** --server-host: the other machine and the path to it; the rows above are then the load host's. */
function serverHostRows(env: Report['environment']): [string, string][] {
  const s = env.serverHost;
  if (s === undefined) return [];
  const rtt = env.network?.rttMs;
  const mtu = env.network?.mtu;
  return [
    [
      'servers on',
      `${s.host}: ${s.os}, kernel ${s.kernel}, ${s.cpu.model} × ${s.cpu.count}, ${formatBytes(s.memoryBytes)}; bound to ${s.bind}; checkout ${s.dir}`,
    ],
    ...tcpRows(env.network),
    [
      'HTTP round trip',
      rtt === undefined
        ? `not measured: ${env.network?.rttUnavailable ?? 'unknown'}`
        : `${rtt.median} ms median of ${rtt.samples} GET /health on one keep-alive connection (min ${rtt.min}, max ${rtt.max}): network, both TCP stacks, client and app`,
    ],
    ...(mtu === undefined || (mtu.client === undefined && mtu.server === undefined)
      ? []
      : [['MTU', `load host ${mtu.client ?? '?'}, server host ${mtu.server ?? '?'}`] as [string, string]]),
    [
      'server figures',
      "CPU, RSS and loop lag from each server's own /stats (no /proc across hosts); RSS at the end of each run, not its peak",
    ],
  ];
}

/** The network's own round trip (TCP connect), each side's view, where the report has it (issue 24). */
function tcpRows(network: NetworkPath | undefined): [string, string][] {
  const tcp = network?.tcpConnectMs;
  if (tcp === undefined) return [];
  const side = (label: string, figure: RoundTrip | undefined, why: string | undefined): [string, string] => [
    `network round trip (TCP connect, ${label})`,
    figure === undefined
      ? `not measured: ${why ?? 'unknown'}`
      : `${figure.median} ms median of ${figure.samples} (min ${figure.min}, max ${figure.max})`,
  ];
  return [
    side('from the load host', tcp.fromLoadHost, tcp.unavailable?.fromLoadHost),
    side('from the server host', tcp.fromServerHost, tcp.unavailable?.fromServerHost),
  ];
}

/** The parameters as label/value rows, shared by the Markdown and HTML reports. */
export function parameterRows(p: Parameters, timing?: Timing): [string, string][] {
  return [
    ...(timing === undefined ? [] : [['wall time', timingText(timing)] as [string, string]]),
    ['connections', String(p.connections)],
    ['duration', `${p.durationSec} s`],
    ['warm-up', `${p.warmupSec} s`],
    [
      'runs per cell',
      p.targetCv === undefined ? String(p.runs) : `${p.runs}, more up to ${p.maxRuns} until CV ≤ ${(p.targetCv * 100).toFixed(1)} %`,
    ],
    [
      'schedule',
      p.schedule === 'interleaved'
        ? 'interleaved (runs alternate between runtimes: A B C A B C)'
        : 'sequential (one runtime after another)',
    ],
    ['probe rate', `${p.probeRatePerSec} req/s`],
    ...(p.crossCheck === undefined
      ? []
      : [
          ['cross-check', Array.isArray(p.crossCheck) ? `wrk on ${p.crossCheck.join(', ')} cells` : `none: ${p.crossCheck.reason}`] as [
            string,
            string,
          ],
        ]),
    ['hash cost (bcrypt)', String(p.hashCost)],
    ['fib n', String(p.fibN)],
    ['sleep', `${p.sleepMs} ms`],
    ['files', `${p.fileCount} × ${formatBytes(p.fileSizeBytes)}`],
    [
      'file cache',
      p.fileCache === 'cold'
        ? 'cold: files evicted from the page cache before each run (verified); later reads in a run hit the cache again'
        : `warm (reads hit the page cache)${p.coldUnavailable === undefined ? '' : `: --cold was asked for but ${p.coldUnavailable}`}${primed(p.filesPrimed)}`,
    ],
    [
      'server allocators',
      p.serverEnv === undefined
        ? 'as the runtimes ship'
        : `keep freed memory (--keep-freed-memory): ${Object.entries(p.serverEnv)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
    ],
  ];
}

/** "; read through before the file cells in 0.4 s (12 % → 100 % resident)". */
function primed(f: Parameters['filesPrimed']): string {
  if (f === undefined) return '';
  const share = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x * 100)} %`);
  return `; read through before the file cells in ${f.sec.toFixed(1)} s (${share(f.residentBefore)} → ${share(f.residentAfter)} resident)`;
}

function environmentSection(report: Report): string {
  return ['## Environment', markdownTable([['', ''], ...environmentRows(report).map((row) => row.map(escapeCell))])].join('\n\n');
}

function parametersSection(report: Report): string {
  return ['## Parameters', markdownTable([['parameter', 'value'], ...parameterRows(report.parameters, report.timing)])].join('\n\n');
}

/** `extra`: sections the features hand in (versions compared, ...), placed after the summary. */
export function renderMarkdown(report: Report, extra: readonly ReportSection[] = []): string {
  const scenarios = scenariosOf(report);
  const sections = [
    titleSection(report),
    howToRead(report),
    ...extra.map((s) => s.markdown()),
    ...(scenarios.length === 0 ? ['No cell was measured.'] : scenarios.map((s) => scenarioSection(report, s))),
    concurrencyMarkdown(report),
    processesSection(report),
    poolsSection(report),
    runtimeProblems(report),
    environmentSection(report),
    parametersSection(report),
  ];
  return `${sections.filter((s) => s !== undefined).join('\n\n')}\n`;
}
