// `tsx src/calibrate-cli.ts [--runtimes node,bun,deno] [--servers raw,hono] [--duration 2] [--runs 3]
// [--connections 10,50] [--workers 0,1,2] [--wrk-threads 2] [--wrk-connections 50] [--no-open-loop] [--quick] [--out DIR]
// [--server-host [user@]host --server-dir DIR --server-bind ADDR --ssh-config FILE]`:
// how close autocannon gets to wrk on this machine, and how fast bench:curve's open-loop generator
// sends on schedule, as a table and calibration.json.
import { join, resolve } from 'node:path';
import { abortOnSignals, FlagError, nameList, numberFlag, parseFlags, runMain, writableDir } from './cli-flags.ts';
import { markdownTable } from 'markdown-table';
import type { RuntimeName, ServerKind } from '@bench/app';
import { calibrate, openLoopLine, type CalibrateOptions } from './calibrate/calibrate.ts';
import type { OpenLoopStep } from './calibrate/open-loop-ceiling.ts';
import { Generator } from './curve/generator.ts';
import { settingLabel, type CalibrationResult, type ServerCalibration } from './calibrate/calibration-math.ts';
import { environment } from './system/environment.ts';
import { makeRunDir, writeJsonAtomic } from './report/output.ts';
import { formatRps } from './report/render/markdown.ts';
import { RUNTIME_NAMES } from './run/runtimes.ts';
import { REPO_ROOT } from './system/paths.ts';
import { stopAllServers } from './run/server.ts';
import { preflight, PreflightError, type RemoteSetup } from './remote/preflight.ts';
import { REMOTE_FLAGS, remoteTarget, type RemoteTarget } from './remote/ssh.ts';

const SERVER_KINDS = ['raw', 'hono'] as const satisfies readonly ServerKind[];
const FULL = { durationSec: 2, runs: 3 } as const;
/** --quick: one short run per setting, to see the shape of things in well under a minute per server. */
const QUICK = { durationSec: 0.5, runs: 1 } as const;

type CliOptions = Omit<CalibrateOptions, 'progress' | 'signal' | 'remote' | 'openLoop'> & { outDir: string | undefined; target: RemoteTarget | undefined; openLoop: boolean };

function ints(flag: string, raw: string | undefined, min: number, max: number): number[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw new FlagError(`--${flag} is empty; give integers from ${min} to ${max}, e.g. ${min},${max}`);
  return [...new Set(items.map((item) => numberFlag(flag, item, min, max, true) ?? min))];
}

function parseCalibrateArgs(argv: string[]): CliOptions {
  const values = parseFlags(argv, ['runtimes', 'servers', 'duration', 'runs', 'warmup', 'connections', 'workers', 'wrk-threads', 'wrk-connections', 'out', ...REMOTE_FLAGS], ['quick', 'no-open-loop']);
  const str = (k: string) => values[k] as string | undefined;
  const opt = (k: string, min: number, max: number, integer: boolean) => numberFlag(k, str(k), min, max, integer);
  const base = values.quick === true ? QUICK : FULL;
  const wrkThreads = opt('wrk-threads', 1, 64, true) ?? 2;
  const wrkConnections = opt('wrk-connections', 1, 10_000, true) ?? 50;
  if (wrkConnections < wrkThreads) throw new FlagError(`--wrk-connections (${wrkConnections}) must be at least --wrk-threads (${wrkThreads})`);
  return {
    runtimes: nameList('runtimes', str('runtimes'), RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    servers: nameList('servers', str('servers'), SERVER_KINDS) ?? [...SERVER_KINDS],
    durationSec: opt('duration', 0.1, 600, false) ?? base.durationSec,
    runs: opt('runs', 1, 100, true) ?? base.runs,
    warmupSec: opt('warmup', 0.1, 60, false) ?? 0.5,
    connections: ints('connections', str('connections'), 1, 10_000) ?? [10, 50],
    // 2 workers on a 2-core machine: one thread per core; more only share the same cores.
    autocannonWorkers: ints('workers', str('workers'), 0, 16) ?? [0, 1, 2],
    wrkThreads,
    wrkConnections,
    outDir: str('out'),
    target: remoteTarget(str, REPO_ROOT),
    openLoop: values['no-open-loop'] !== true,
  };
}

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

function renderSummary(result: CalibrationResult): string {
  const head = ['runtime', 'server', 'autocannon req/s', 'best setting', 'client CPU', 'wrk req/s', 'ratio', 'open-loop req/s', 'open-loop / autocannon', 'verdict'];
  return markdownTable([head, ...result.results.map(summaryRow)], { align: ['l', 'l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'l'] });
}

/** Every setting on every server: the evidence behind "best". */
function renderSettings(result: CalibrationResult): string {
  const head = ['runtime', 'server', 'setting', 'autocannon req/s', 'cv', 'client CPU', 'server CPU (ac)', 'wrk req/s', 'cv', 'server CPU (wrk)', 'ratio'];
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

function renderHeader(result: CalibrationResult): string {
  const p = result.parameters;
  const wrk = result.wrk.available ? `wrk ${result.wrk.version ?? '?'} (${p.wrkThreads} threads, ${p.wrkConnections} connections)` : `no wrk: ${result.wrk.reason ?? ''}`;
  const rounded = p.durationSec !== p.requestedDurationSec ? ` (asked ${p.requestedDurationSec} s; wrk runs whole seconds)` : '';
  const status = result.status === 'interrupted' ? ' INTERRUPTED (partial results)' : '';
  const load = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
  return [
    `Calibration${status}: ${p.path}, ${p.runs} run(s) of ${p.durationSec} s per client and setting${rounded}; autocannon ${result.autocannon.version} vs ${wrk}`,
    `load average (1/5/15 min): ${load(result.loadAverage.start)} before, ${load(result.loadAverage.end)} after`,
  ].join('\n');
}

/** The open-loop generator's ladder on every server: each rate, its lateness and whether it held. */
function renderOpenLoop(result: CalibrationResult): string {
  const measured = result.results.filter((r) => r.openLoop !== undefined);
  if (measured.length === 0) return 'open-loop generator: not measured (--no-open-loop)';
  const lines = measured.map((r) => {
    const o = r.openLoop as NonNullable<ServerCalibration['openLoop']>;
    const rungs = o.steps.map((s) => `${formatRps(s.ratePerSec)} ${s.held ? 'held' : 'not held'} (lateness p99 ${s.latenessP99Ms.toFixed(2)} ms, achieved ${formatRps(s.achievedPerSec)}, dropped ${s.dropped}, busy ${Math.round(s.busyPercent)}%)`);
    return `${r.runtime} ${r.server}: ${openLoopLine(o)}\n  ${rungs.join('\n  ')}`;
  });
  return lines.join('\n');
}

function renderClosest(result: CalibrationResult): string {
  if (result.closest === null) return 'closest setting: n/a (no ratio measured)';
  return `closest setting to wrk overall: ${settingLabel(result.closest.setting)} (median ratio ${result.closest.medianRatio.toFixed(2)} over the servers measured)`;
}

async function main(): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCalibrateArgs(process.argv.slice(2));
    // pnpm runs scripts from the package folder: --out is relative to where the user typed it.
    if (options.outDir !== undefined) options.outDir = writableDir('out', resolve(process.env.INIT_CWD ?? process.cwd(), options.outDir));
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    console.error(`calibrate: ${error.message}`);
    return 2;
  }
  let remote: RemoteSetup | undefined;
  if (options.target !== undefined) {
    try {
      remote = await preflight(options.target, options.runtimes);
    } catch (error) {
      if (!(error instanceof PreflightError)) throw error;
      console.error(`calibrate: ${error.message}`);
      return 2;
    }
  }
  const controller = new AbortController();
  // A server still starting is not yet known to calibrate(): stop every one we spawned.
  const signalExit = abortOnSignals('calibrate', controller, () => void stopAllServers());
  const { outDir, target: _target, openLoop: withOpenLoop, ...calibrateOptions } = options;
  const generator = withOpenLoop ? new Generator() : undefined;
  const openLoop: OpenLoopStep | undefined =
    generator === undefined
      ? undefined
      : (url, ratePerSec, durationSec) => generator.runStep({ url, ratePerSec, durationSec, arrivals: 'poisson', seed: 1, maxInFlight: 512, timeoutMs: 2_000 });
  let result: CalibrationResult;
  try {
    result = await calibrate({
      ...calibrateOptions,
      progress: (line) => console.error(line),
      signal: controller.signal,
      ...(remote === undefined ? {} : { remote }),
      ...(openLoop === undefined ? {} : { openLoop }),
    });
  } finally {
    await generator?.close();
  }
  await stopAllServers();
  const dir = outDir ?? makeRunDir(resolve(REPO_ROOT, 'data/results'), new Date(), 'calibration-');
  const file = join(dir, 'calibration.json');
  writeJsonAtomic(file, { ...result, environment: { ...environment(), ...(remote === undefined ? {} : { serverHost: remote.environment, mtu: remote.mtu }) } });
  console.log(['', renderHeader(result), '', renderSummary(result), '', renderSettings(result), '', renderOpenLoop(result), '', renderClosest(result), '', `written: ${file}`].join('\n'));
  return signalExit() ?? (result.results.some((r) => r.status === 'ok') ? 0 : 1);
}

runMain('calibrate', main, stopAllServers);
