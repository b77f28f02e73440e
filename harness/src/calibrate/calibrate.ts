/**
 * Calibration: how close autocannon, as the bench runs it, comes to the servers' real ceiling.
 * On a small machine the load generator is often the bottleneck; wrk (multi-threaded C) is the
 * reference. Per runtime and server kind: one server, a short warm-up, then autocannon and wrk
 * runs alternated on /hello so both see the same machine, and the ratio of their medians.
 */
import { loadavg } from 'node:os';
import type { RuntimeName, ServerKind } from '@bench/app';
import {
  clientFigures,
  closestSetting,
  judgeServer,
  ratioSummary,
  settingLabel,
  settingsGrid,
  type AutocannonSetting,
  type CalibrationParameters,
  type CalibrationResult,
  type ServerCalibration,
  type SettingResult,
} from './calibration-math.ts';
import { CEILING_OK_RATIO } from '../model/thresholds.ts';
import { autocannonVersion } from '../system/environment.ts';
import { runLoad } from '../load/autocannon.ts';
import { readProc } from '../system/proc.ts';
import { formatRps } from '../present/formats.ts';
import { probeRuntime, runtimeSpec } from '../servers/runtimes.ts';
import { startServer, type RunningServer } from '../servers/server.ts';
import type { RemoteSetup } from '../remote/preflight.ts';
import { startRemoteServer } from '../remote/remote-server.ts';
import { median } from '../stats/stats.ts';
import { checkAnswer } from '../servers/validate.ts';
import { openLoopCeiling, type OpenLoopStep } from './open-loop-ceiling.ts';
import { findWrk, missingWrkReason, runWrk, wrkDurationSec, wrkVersion } from '../load/wrk.ts';

export interface CalibrateOptions {
  runtimes: RuntimeName[];
  durationSec: number;
  runs: number;
  /** autocannon total connections to try, e.g. [10, 50]. */
  connections: number[];
  /** autocannon worker threads to try; 0 = in-process, as the bench runs it. */
  autocannonWorkers: number[];
  wrkThreads: number;
  wrkConnections: number;
  servers: ServerKind[];
  /** Discarded load before the first measured run; default 0.5 s. */
  warmupSec?: number;
  progress?: (line: string) => void;
  signal?: AbortSignal;
  /** --server-host: the servers run there, started over ssh (remote/). */
  remote?: RemoteSetup;
  /** bench:curve's open-loop generator, one step at a time: its ceiling is measured after autocannon's and wrk's. */
  openLoop?: OpenLoopStep;
}

const PATH = '/hello';
const TIMEOUT_SEC = 10;
const DEFAULT_WARMUP_SEC = 0.5;
/** Pause between runs so the previous client's connections are closed before the next starts. */
const SETTLE_MS = 200;

interface ClientRun {
  requestsPerSec: number;
  failedAnswers: number;
  /** This process, all threads (100 = one core); undefined for wrk, a separate process. */
  clientCpuPercent?: number;
  /** From /proc; undefined where there is none (a server on another host). */
  serverCpuPercent: number | undefined;
}

interface Context {
  parameters: CalibrationParameters;
  wrkBinary: string | undefined;
  noWrkReason: string | undefined;
  signal: AbortSignal;
  progress: (line: string) => void;
  remote?: RemoteSetup;
  openLoop?: OpenLoopStep;
}

export async function calibrate(options: CalibrateOptions): Promise<CalibrationResult> {
  const wrkBinary = findWrk();
  const signal = options.signal ?? new AbortController().signal;
  const parameters = calibrationParameters(options, wrkBinary !== undefined);
  if (parameters.settings.length === 0 || !(parameters.runs >= 1))
    throw new RangeError('calibrate needs at least one connections x workers setting and one run');
  const ctx: Context = {
    parameters,
    wrkBinary,
    noWrkReason: wrkBinary === undefined ? missingWrkReason() : undefined,
    signal,
    progress: options.progress ?? (() => {}),
    ...(options.remote === undefined ? {} : { remote: options.remote }),
    ...(options.openLoop === undefined ? {} : { openLoop: options.openLoop }),
  };
  const result: CalibrationResult = {
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    status: 'complete',
    parameters,
    wrk: wrkInfo(wrkBinary),
    autocannon: { version: autocannonVersion() },
    results: [],
    closest: null,
    loadAverage: { start: loadavg(), end: [] },
  };
  try {
    for (const runtime of options.runtimes) {
      for (const kind of options.servers) result.results.push(await calibrateServer(runtime, kind, ctx));
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    result.status = 'interrupted';
  }
  result.closest = closestSetting(result.results);
  result.loadAverage.end = loadavg();
  return result;
}

/**
 * wrk runs whole seconds only (see wrkDurationSec), and a ratio of runs of different lengths
 * would mix in start-up effects, so with wrk both clients run the rounded-up duration.
 */
function calibrationParameters(options: CalibrateOptions, withWrk: boolean): CalibrationParameters {
  return {
    path: PATH,
    requestedDurationSec: options.durationSec,
    durationSec: withWrk ? wrkDurationSec(options.durationSec) : options.durationSec,
    warmupSec: options.warmupSec ?? DEFAULT_WARMUP_SEC,
    runs: options.runs,
    settings: settingsGrid(options.connections, options.autocannonWorkers),
    wrkThreads: options.wrkThreads,
    wrkConnections: options.wrkConnections,
    ceilingOkRatio: CEILING_OK_RATIO,
  };
}

/** One runtime's server of one kind, start to stop. Throws only when interrupted. */
async function calibrateServer(runtime: RuntimeName, kind: ServerKind, ctx: Context): Promise<ServerCalibration> {
  const entry = { runtime, server: kind, version: '', settings: [], best: null };
  const there = ctx.remote?.runtimes.get(runtime);
  const spec = there?.spec ?? runtimeSpec(runtime);
  const probe = there?.probe ?? probeRuntime(spec);
  if (!probe.ok) {
    ctx.progress(`${runtime} ${kind}: skipped: ${probe.reason}`);
    return { ...entry, status: 'skipped', reason: probe.reason };
  }
  let server: RunningServer | undefined;
  try {
    server =
      ctx.remote === undefined
        ? await startServer(spec, { raw: kind === 'raw', serverArgs: [], signal: ctx.signal })
        : await startRemoteServer(spec, ctx.remote.target, { raw: kind === 'raw', serverArgs: [], signal: ctx.signal });
    const wrong = await checkAnswer(PATH, await fetch(server.url + PATH, { signal: AbortSignal.timeout(TIMEOUT_SEC * 1000) }));
    if (wrong !== undefined) throw new Error(`answer check failed: ${wrong}`);
    const settings = await measureServer(server, ctx);
    const calibration: ServerCalibration = {
      ...entry,
      version: probe.version,
      status: 'ok',
      settings,
      best: judgeServer(settings, ctx.noWrkReason),
      ...(ctx.noWrkReason === undefined ? {} : { reason: ctx.noWrkReason }),
    };
    ctx.progress(
      `${runtime} ${kind}: best ${calibration.best === null ? '-' : `${settingLabel(calibration.best.setting)}: ${calibration.best.text}`}`,
    );
    if (ctx.openLoop !== undefined && calibration.best !== null) {
      await pause(ctx.signal);
      const best = calibration.best;
      const closed = { autocannonPerSec: best.autocannon.median, wrkPerSec: best.wrk?.median ?? null };
      calibration.openLoop = await openLoopCeiling(ctx.openLoop, server.url + PATH, closed, ctx.parameters.durationSec, ctx.signal);
      ctx.progress(`${runtime} ${kind}: ${openLoopLine(calibration.openLoop)}`);
    }
    return calibration;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const reason = (error as Error).message;
    ctx.progress(`${runtime} ${kind}: failed: ${reason}`);
    return { ...entry, version: probe.version, status: 'failed', reason };
  } finally {
    await server?.stop();
  }
}

/**
 * Warm-up, then `runs` rounds; in each round every setting runs once, each autocannon run followed
 * by a wrk run (A W A W ...). Rounds rather than one setting after another, so a machine that gets
 * busier midway weighs on every setting alike.
 */
async function measureServer(server: RunningServer, ctx: Context): Promise<SettingResult[]> {
  const { parameters } = ctx;
  const maxConnections = Math.max(...parameters.settings.map((s) => s.connections));
  await runAutocannon(server, { connections: maxConnections, workers: 0 }, parameters.warmupSec, ctx.signal);
  const runs = parameters.settings.map(() => ({ autocannon: [] as ClientRun[], wrk: [] as ClientRun[] }));
  for (let round = 1; round <= parameters.runs; round++) {
    for (const [i, setting] of parameters.settings.entries()) {
      const slot = runs[i];
      if (slot === undefined) continue;
      await pause(ctx.signal);
      const a = await runAutocannon(server, setting, parameters.durationSec, ctx.signal);
      slot.autocannon.push(a);
      let w: ClientRun | undefined;
      if (ctx.wrkBinary !== undefined) {
        await pause(ctx.signal);
        w = await wrkRun(server, ctx);
        slot.wrk.push(w);
      }
      ctx.progress(runLine(server, setting, round, parameters.runs, a, w));
    }
  }
  return parameters.settings.map((setting, i) =>
    settingResult(setting, runs[i]?.autocannon ?? [], runs[i]?.wrk ?? [], ctx.wrkBinary !== undefined),
  );
}

function settingResult(setting: AutocannonSetting, a: ClientRun[], w: ClientRun[], withWrk: boolean): SettingResult {
  const rps = ratioSummary(
    a.map((r) => r.requestsPerSec),
    w.map((r) => r.requestsPerSec),
  );
  const figures = (runs: ClientRun[]) => ({
    ...clientFigures(runs.map((r) => r.requestsPerSec)),
    failedAnswers: runs.reduce((sum, r) => sum + r.failedAnswers, 0),
    serverCpuPercent: serverCpuOf(runs),
  });
  return {
    setting,
    autocannon: { ...figures(a), clientCpuPercent: median(a.map((r) => r.clientCpuPercent ?? 0)) },
    wrk: withWrk ? figures(w) : null,
    ratio: rps.ratio,
  };
}

/** The median server CPU of the runs that have one; null when none could be read (never 0 for "unknown"). */
export function serverCpuOf(runs: readonly Pick<ClientRun, 'serverCpuPercent'>[]): number | null {
  const known = runs.flatMap((r) => (r.serverCpuPercent === undefined ? [] : [r.serverCpuPercent]));
  return known.length === 0 ? null : median(known);
}

async function wrkRun(server: RunningServer, ctx: Context): Promise<ClientRun> {
  const { parameters } = ctx;
  return withServerCpu(server, async () => {
    const r = await runWrk({
      url: server.url + PATH,
      connections: parameters.wrkConnections,
      threads: parameters.wrkThreads,
      durationSec: parameters.durationSec,
      timeoutSec: TIMEOUT_SEC,
      signal: ctx.signal,
      ...(ctx.wrkBinary === undefined ? {} : { binary: ctx.wrkBinary }),
    });
    const e = r.socketErrors;
    return { requestsPerSec: r.requestsPerSec, failedAnswers: e.connect + e.read + e.write + e.timeout + r.non2xx };
  });
}

/** One autocannon run as the bench makes it (load.ts), with this setting's worker threads. */
async function runAutocannon(
  server: RunningServer,
  setting: AutocannonSetting,
  durationSec: number,
  signal: AbortSignal,
): Promise<ClientRun> {
  return withServerCpu(server, async () => {
    if (signal.aborted) throw signal.reason;
    const run = runLoad({
      url: server.url + PATH,
      connections: setting.connections,
      durationSec,
      timeoutSec: TIMEOUT_SEC,
      workers: setting.workers,
    });
    const onAbort = () => run.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await run.done;
      if (signal.aborted) throw signal.reason;
      return {
        requestsPerSec: result.requestsPerSec,
        failedAnswers: result.errors + result.timeouts + result.non2xx,
        clientCpuPercent: result.clientCpuPercent,
      };
    } catch (error) {
      throw signal.aborted ? signal.reason : error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  });
}

/** Runs one load and adds the server process's CPU over it (from /proc; undefined where there is none, as on another host). */
async function withServerCpu(server: RunningServer, load: () => Promise<Omit<ClientRun, 'serverCpuPercent'>>): Promise<ClientRun> {
  const local = server.remote === undefined;
  const before = local ? readProc(server.pid) : undefined;
  const wallBefore = performance.now();
  const run = await load();
  const after = local ? readProc(server.pid) : undefined;
  const wallMs = performance.now() - wallBefore;
  const serverCpuPercent = before !== undefined && after !== undefined ? ((after.cpuMs - before.cpuMs) / wallMs) * 100 : undefined;
  return { ...run, serverCpuPercent };
}

async function pause(signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw signal.reason;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  if (signal.aborted) throw signal.reason;
}

function runLine(
  server: RunningServer,
  setting: AutocannonSetting,
  round: number,
  runs: number,
  a: ClientRun,
  w: ClientRun | undefined,
): string {
  const wrk =
    w === undefined
      ? ''
      : `, wrk ${formatRps(w.requestsPerSec)} req/s (ratio ${(a.requestsPerSec / Math.max(w.requestsPerSec, 1e-9)).toFixed(2)})`;
  return `${server.runtime} ${server.kind} ${settingLabel(setting)} run ${round}/${runs}: autocannon ${formatRps(a.requestsPerSec)} req/s at ${Math.round(a.clientCpuPercent ?? 0)}% CPU${wrk}`;
}

/** "open-loop generator: 20,500 req/s on schedule (0.95x autocannon, 0.21x wrk)". */
export function openLoopLine(o: NonNullable<ServerCalibration['openLoop']>): string {
  const vs = [
    o.overAutocannon === null ? '' : `${o.overAutocannon.toFixed(2)}x autocannon`,
    o.overWrk === null ? '' : `${o.overWrk.toFixed(2)}x wrk`,
  ]
    .filter(Boolean)
    .join(', ');
  return `open-loop generator: ${o.atLeast ? '>= ' : ''}${formatRps(o.ceilingPerSec)} req/s on schedule (lateness p99 < 1 ms${vs === '' ? '' : `; ${vs}`})`;
}

function wrkInfo(binary: string | undefined): CalibrationResult['wrk'] {
  if (binary === undefined) return { available: false, reason: missingWrkReason() };
  const version = wrkVersion(binary);
  return { available: true, binary, ...(version === undefined ? {} : { version }) };
}
