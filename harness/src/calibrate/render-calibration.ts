// calibration.json as text: the summary per server, every setting, the open-loop generator's
// ladder, the header and the closest setting. Used by calibrate-cli's console output and by the
// results site's calibrate section.
import { markdownTable } from 'markdown-table';
import { formatRps } from '../present/formats.ts';
import { openLoopLine } from './calibrate.ts';
import { settingLabel, type CalibrationResult, type ServerCalibration } from './calibration-math.ts';

const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x)}%`);

function summaryRow(r: ServerCalibration): string[] {
  const best = r.best;
  if (r.status !== 'ok' || best === null) return [r.runtime, r.server, '-', '-', '-', '-', '-', '-', '-', `${r.status}: ${r.reason ?? ''}`];
  const open = r.openLoop;
  return [
    `${r.runtime} ${r.version}`,
    r.server,
    formatRps(best.autocannon.median),
    settingLabel(best.setting),
    pct(best.autocannon.clientCpuPercent),
    best.wrk === null ? 'n/a' : formatRps(best.wrk.median),
    best.ratio === null ? 'n/a' : best.ratio.toFixed(2),
    open === undefined ? 'n/a' : `${open.atLeast ? '≥ ' : ''}${formatRps(open.ceilingPerSec)}`,
    open?.overAutocannon == null ? 'n/a' : open.overAutocannon.toFixed(2),
    best.text,
  ];
}

export function renderSummary(result: CalibrationResult): string {
  const head = [
    'runtime',
    'server',
    'autocannon req/s',
    'best setting',
    'client CPU',
    'wrk req/s',
    'ratio',
    'open-loop req/s',
    'open-loop / autocannon',
    'verdict',
  ];
  return markdownTable([head, ...result.results.map(summaryRow)], { align: ['l', 'l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'l'] });
}

/** Every setting on every server: the evidence behind "best". */
export function renderSettings(result: CalibrationResult): string {
  const head = [
    'runtime',
    'server',
    'setting',
    'autocannon req/s',
    'cv',
    'client CPU',
    'server CPU (ac)',
    'wrk req/s',
    'cv',
    'server CPU (wrk)',
    'ratio',
  ];
  const rows = result.results.flatMap((r) =>
    r.settings.map((s) => [
      r.runtime,
      r.server,
      settingLabel(s.setting),
      formatRps(s.autocannon.median),
      s.autocannon.cv.toFixed(2),
      pct(s.autocannon.clientCpuPercent),
      pct(s.autocannon.serverCpuPercent),
      s.wrk === null ? 'n/a' : formatRps(s.wrk.median),
      s.wrk === null ? 'n/a' : s.wrk.cv.toFixed(2),
      s.wrk === null ? 'n/a' : pct(s.wrk.serverCpuPercent),
      s.ratio === null ? 'n/a' : s.ratio.toFixed(2),
    ]),
  );
  return markdownTable([head, ...rows], { align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] });
}

export function renderHeader(result: CalibrationResult): string {
  const p = result.parameters;
  const wrk = result.wrk.available
    ? `wrk ${result.wrk.version ?? '?'} (${p.wrkThreads} threads, ${p.wrkConnections} connections)`
    : `no wrk: ${result.wrk.reason ?? ''}`;
  const rounded = p.durationSec !== p.requestedDurationSec ? ` (asked ${p.requestedDurationSec} s; wrk runs whole seconds)` : '';
  const status = result.status === 'interrupted' ? ' INTERRUPTED (partial results)' : '';
  const load = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
  return [
    `Calibration${status}: ${p.path}, ${p.runs} run(s) of ${p.durationSec} s per client and setting${rounded}; autocannon ${result.autocannon.version} vs ${wrk}`,
    `load average (1/5/15 min): ${load(result.loadAverage.start)} before, ${load(result.loadAverage.end)} after`,
  ].join('\n');
}

/** The open-loop generator's ladder on every server: each rate, its lateness and whether it held. */
export function renderOpenLoop(result: CalibrationResult): string {
  const measured = result.results.filter((r) => r.openLoop !== undefined);
  if (measured.length === 0) return 'open-loop generator: not measured (--no-open-loop)';
  const lines = measured.map((r) => {
    const o = r.openLoop as NonNullable<ServerCalibration['openLoop']>;
    const rungs = o.steps.map(
      (s) =>
        `${formatRps(s.ratePerSec)} ${s.held ? 'held' : 'not held'} (lateness p99 ${s.latenessP99Ms.toFixed(2)} ms, achieved ${formatRps(s.achievedPerSec)}, dropped ${s.dropped}, busy ${Math.round(s.busyPercent)}%)`,
    );
    return `${r.runtime} ${r.server}: ${openLoopLine(o)}\n  ${rungs.join('\n  ')}`;
  });
  return lines.join('\n');
}

export function renderClosest(result: CalibrationResult): string {
  if (result.closest === null) return 'closest setting: n/a (no ratio measured)';
  return `closest setting to wrk overall: ${settingLabel(result.closest.setting)} (median ratio ${result.closest.medianRatio.toFixed(2)} over the servers measured)`;
}
