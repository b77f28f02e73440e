/**
 * The labels and label/value rows the renderers share (Markdown, HTML, console, the results
 * site and the features' sections): modes, runtimes, the environment, the parameters, the
 * server-thread figures and the wall time. Pure text: no renderer is imported here.
 */
import { allocatorText } from './allocator.ts';
import type { CellResult } from '../../model/cell.ts';
import type { NetworkPath, RoundTrip } from '../../model/environment.ts';
import type { Parameters } from '../../model/parameters.ts';
import type { Report, Timing } from '../../model/report.ts';
import { formatBytes, formatMs, formatRps } from '../../present/formats.ts';
import { firstTouchText, machineSpeedRow, referenceLoopRow } from '../../present/precision.ts';

/** What a table shows where there is no figure. */
export const DASH = '—';

/** "node x2": the runtime, and the process count when the cell has one. */
export function runtimeLabel(cell: Pick<CellResult, 'runtime' | 'runtimeLabel' | 'processes'>): string {
  const lane = cell.runtimeLabel ?? cell.runtime;
  return cell.processes === undefined ? lane : `${lane} x${cell.processes}`;
}

/** The mode, with the connection count when the run swept them ("sync @100") and a --sweep's input ("sync kb=64"). */
export function modeLabel(cell: Pick<CellResult, 'mode' | 'connections' | 'query'>, connectionsSwept: boolean): string {
  const mode = connectionsSwept && cell.connections !== undefined ? `${cell.mode} @${cell.connections}` : cell.mode;
  return cell.query === undefined ? mode : `${mode} ${cell.query}`;
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
    ...(['loopMs', 'poolMs', 'helperMs'] as const).map((k) => {
      const ms = cell.cpuPerRequestMs?.[k];
      return ms === undefined ? DASH : formatMs(ms);
    }),
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
  'CPU ms a request: loop thread',
  'pool and workers',
  'engine helpers',
];

/** The environment as label/value rows, shared by the Markdown and HTML reports. */
export function environmentRows(report: Report): [string, string][] {
  const env = report.environment;
  return [
    ['OS', env.os],
    ['kernel', env.kernel],
    ['CPU', `${env.cpu.model} × ${env.cpu.count}`],
    ...(machineSpeedRow(env) === undefined ? [] : [machineSpeedRow(env) as [string, string]]),
    ...(referenceLoopRow(env) === undefined ? [] : [referenceLoopRow(env) as [string, string]]),
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
  ['profile', 'profiling (--profile)'],
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

/** The network's own round trip (TCP connect), each side's view, where the report has it. */
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
    ['server allocators', allocatorText(p)],
  ];
}

/** "; read through before the file cells in 0.4 s (12 % → 100 % resident)". */
function primed(f: Parameters['filesPrimed']): string {
  if (f === undefined) return '';
  const share = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x * 100)} %`);
  return `; read through before the file cells in ${f.sec.toFixed(1)} s (${share(f.residentBefore)} → ${share(f.residentAfter)} resident)`;
}
