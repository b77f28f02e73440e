/**
 * --profile: where each cell's time goes. After every measured run, each runtime's server is
 * started once more under the runtime's own CPU profiler and each cell's load is run against it
 * in turn, so the profiler's cost never reaches a measured figure. The process's profile is cut
 * at each cell's load (the runtime's clock is known: profile/cpu-profile.ts) into one
 * `.cpuprofile` a cell, kept beside the report, its summary beside the cell's file, with the intervals the
 * server's own lag sampler saw its loop late in that load placed on the profile's clock.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runLoad } from '../load/autocannon.ts';
import { type LateInput, parseCpuProfile, sliceProfile, summariseProfile, threadProfile, type CpuProfile } from '../profile/cpu-profile.ts';
import { flameTree } from '../profile/flame-tree.ts';
import { writeCellProfile } from '../model/run-files.ts';
import type { CellResult } from '../model/cell.ts';
import type { CellProfile, ThreadProfile } from '../model/profile.ts';
import { collectProfiles, PROFILE_INTERVAL_US } from '../servers/profiler.ts';
import { startServer, stopAllServers } from '../servers/server.ts';
import { waitQuiet } from '../servers/quiet.ts';
import { type ControlContext, control as controlRequest, post } from '../servers/server-control.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import type { ServerKind } from '@bench/app';
import { Interrupted } from '../cli/interrupt.ts';
import { laneName, laneStart, type Lane } from './lanes.ts';
import type { RunSetup, ServerSettings } from './run-setup.ts';
import type { Plan } from './plan.ts';
import type { ProgressLines } from './progress.ts';

interface ProfileRunSettings {
  runDir: string;
  servers: ServerSettings;
  connections: number;
  durationSec: number;
  warmupSec: number;
  timeoutSec: number;
  /** Whether the report's cells are named by connection count (a --connections list). */
  connectionsSwept: boolean;
  signal: AbortSignal;
  log(line: string): void;
  /** How a cell's profile is said in the log. */
  line: ProgressLines['profile'];
}

/**
 * A cell's profiling load lasts as long as its measured runs, within these bounds: long enough
 * for thousands of samples at 100 µs even on a short plan, and no longer than insight needs.
 */
export const PROFILE_MIN_SEC = 1;
export const PROFILE_MAX_SEC = 5;
/** A warm-up before each cell's window, so the window shows the served load, not compilation. */
const PROFILE_WARMUP_SEC = { min: 0.3, max: 1 };
/** How long a load's leftovers may take; past it the next load starts anyway. */
const QUIET_DEADLINE_MS = 15_000;
/** A tick of the server's lag sampler later than this is a stall: what ran then held the loop. */
const LATE_MS = 10;

function rethrowInterrupted(error: unknown): void {
  if (error instanceof Interrupted) throw error;
}

/** A moment on both clocks a runtime's profile may use (see windowIn). */
export interface Mark {
  wallMs: number;
  monotonicUs: number;
}
const mark = (): Mark => ({ wallMs: Date.now(), monotonicUs: Number(process.hrtime.bigint() / 1000n) });

/**
 * --profile, after every measured cell (`measured`, as the rounds returned them): the measured
 * servers are stopped first, so only one server is ever under load. Servers on another host are
 * not profiled: their profiles would be written there. Each cell's profile goes to a file beside
 * the cell's (model/run-files.ts writeCellProfile); the cell's own file is not written again.
 */
export async function profilePhase(
  plan: Plan,
  lanes: Lane[],
  measured: readonly CellResult[],
  setup: Pick<RunSetup, 'host' | 'runDir' | 'swept' | 'cells' | 'servers' | 'signal' | 'log'>,
  line: ProgressLines['profile'],
): Promise<void> {
  const { host, runDir, swept, cells, servers, signal, log } = setup;
  if (host !== undefined) {
    log('profile: servers on another host are not profiled (their profiles would be written there)');
    return;
  }
  await stopAllServers();
  const settings: ProfileRunSettings = {
    runDir,
    servers,
    connections: plan.connections[0] ?? 10,
    durationSec: Math.min(PROFILE_MAX_SEC, Math.max(PROFILE_MIN_SEC, plan.durationSec)),
    warmupSec: Math.min(PROFILE_WARMUP_SEC.max, Math.max(PROFILE_WARMUP_SEC.min, plan.warmupSec)),
    timeoutSec: plan.timeoutSec,
    connectionsSwept: swept,
    signal,
    log,
    line,
  };
  for (const lane of lanes) {
    if (lane.processes !== undefined && lane.processes > 1) {
      log(`profile: ${laneName(lane)} x${lane.processes}: not profiled (one serving process is)`);
      continue;
    }
    for (const kind of ['hono', 'raw'] as const) {
      const toProfile = cells
        .filter((spec) => spec.server === kind)
        .map((spec) => ({ spec, cell: measuredCell(measured, lane, spec, settings.connections) }))
        .filter((p): p is { spec: CellSpec; cell: CellResult } => p.cell !== undefined && p.cell.status !== 'failed');
      if (toProfile.length > 0) await profileServer(lane, kind, toProfile, settings);
    }
  }
}

function measuredCell(measured: readonly CellResult[], lane: Lane, spec: CellSpec, connections: number): CellResult | undefined {
  return measured.find(
    (c) =>
      c.runtime === lane.spec.name &&
      c.runtimeLabel === lane.spec.label &&
      c.processes === lane.processes &&
      c.scenario === spec.scenario &&
      c.mode === spec.mode &&
      c.query === spec.query &&
      (c.connections === undefined || c.connections === connections),
  );
}

/** One server process under the profiler, every cell's load in turn; then its profile cut per cell. */
async function profileServer(
  lane: Lane,
  kind: ServerKind,
  toProfile: { spec: CellSpec; cell: CellResult }[],
  settings: ProfileRunSettings,
): Promise<void> {
  const first = toProfile[0]?.cell;
  if (first === undefined) return;
  const dir = join(settings.runDir, 'profiles', `${laneName(lane)}-${kind}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = {
    requestedIntervalUs: PROFILE_INTERVAL_US,
    load: { connections: settings.connections, durationSec: settings.durationSec, requestsPerSec: 0 },
  };
  const spawned = mark();
  const server = await startServer(lane.spec, {
    raw: kind === 'raw',
    ...laneStart(lane, settings.servers, false),
    profile: { dir, intervalUs: PROFILE_INTERVAL_US },
    signal: settings.signal,
  }).catch((error: unknown) => {
    if (error instanceof Interrupted) throw error;
    return (error as Error).message;
  });
  if (typeof server === 'string') {
    for (const { cell } of toProfile) settings.log(`profile: ${cellName(cell)}: the profiled server did not start: ${server}`);
    return;
  }
  const windows: { from: Mark; to: Mark; requestsPerSec: number; late?: LateRead }[] = [];
  const control = { server, plan: { drainCapSec: QUIET_DEADLINE_MS / 1000, timeoutSec: settings.timeoutSec }, signal: settings.signal };
  // A raw server has no lag sampler: its cells say what held the loop from the profile alone.
  const lagSampler = kind === 'hono';
  try {
    for (const { spec } of toProfile) {
      if (settings.signal.aborted) throw new Interrupted('interrupted');
      const load = (sec: number) =>
        runLoad({ url: server.url + spec.path, connections: settings.connections, durationSec: sec, timeoutSec: settings.timeoutSec }).done;
      // The server finishes what each load left in hand before the next begins: a window holds
      // its own cell's requests only (a bcrypt load leaves up to a second of hashes behind).
      const quiet = () => waitQuiet(control, QUIET_DEADLINE_MS, 'still busy').catch(rethrowInterrupted);
      await quiet();
      const recording = lagSampler && (await post(control, `/reset?late-ms=${LATE_MS}`).then(() => true, unlessInterrupted(false)));
      await load(settings.warmupSec);
      const from = mark();
      const result = await load(settings.durationSec);
      const to = mark();
      await quiet();
      const late = recording ? await readLate(control) : undefined;
      windows.push({ from, to, requestsPerSec: Math.round(result.requestsPerSec), ...(late === undefined ? {} : { late }) });
    }
  } finally {
    // Writing a profile of many seconds at 100 µs takes the runtime a moment as it exits.
    await server.stop({ graceMs: 15_000 });
  }
  const files = collectProfiles(dir);
  const rel = (path: string) => relative(settings.runDir, path);
  const main = files.main === undefined ? undefined : readProfile(files.main);
  const threads = files.threads.flatMap((file) => {
    const profile = readProfile(file);
    return typeof profile === 'string' ? [] : [{ file: rel(file), profile }];
  });
  for (const [i, { spec, cell }] of toProfile.entries()) {
    const window = windows[i];
    const loaded = { ...base, load: { ...base.load, requestsPerSec: window?.requestsPerSec ?? 0 } };
    let profile: CellProfile;
    if (window === undefined || files.main === undefined || main === undefined || typeof main === 'string') {
      const reason =
        window === undefined
          ? 'its profiling load did not run'
          : typeof main === 'string'
            ? `the profile did not parse: ${main}`
            : `${lane.spec.name} wrote no profile when stopped`;
      profile = { ...loaded, file: '', processFile: files.main === undefined ? '' : rel(files.main), windowUs: { from: 0, to: 0 }, reason };
    } else {
      const at = windowIn(main.startTime, spawned, window);
      const input = spec.query === undefined ? '' : `-${spec.query.replace(/[^A-Za-z0-9.]+/g, '')}`;
      const file = join(dir, `${spec.scenario}-${spec.mode}${input}.cpuprofile`);
      writeFileSync(file, JSON.stringify(sliceProfile(main, at.fromUs, at.toUs)));
      const others: ThreadProfile[] = threads.map((t) => {
        const s = summariseProfile(t.profile, windowIn(t.profile.startTime, spawned, window));
        return threadProfile(t.file, s);
      });
      profile = {
        ...loaded,
        file: rel(file),
        processFile: rel(files.main),
        windowUs: { from: Math.round(at.fromUs), to: Math.round(at.toUs) },
        summary: summariseProfile(main, {
          ...at,
          ...(window.late === undefined ? {} : { late: lateIn(main.startTime, spawned, window.late) }),
        }),
        flame: flameTree(main, at),
        ...(others.length === 0 ? {} : { threads: others }),
      };
    }
    writeCellProfile(settings.runDir, cell, settings.connectionsSwept, profile);
    settings.log(settings.line(cell, profile));
  }
}

function readProfile(path: string): CpuProfile | string {
  try {
    return parseCpuProfile(readFileSync(path, 'utf8'));
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A window in a profile's own µs. Bun's profile clock is the wall clock; Node's and Deno's is
 * the system's monotonic clock, the one process.hrtime reads here. Which one a profile used is
 * told by its startTime, near one of them; a profile near neither is placed from the process's
 * spawn, which its start follows by the runtime's start-up.
 */
export function windowIn(startTimeUs: number, spawned: Mark, window: { from: Mark; to: Mark }): { fromUs: number; toUs: number } {
  const hour = 3600e6;
  const [from, to] =
    Math.abs(startTimeUs - spawned.wallMs * 1000) < hour
      ? [window.from.wallMs * 1000, window.to.wallMs * 1000]
      : Math.abs(startTimeUs - spawned.monotonicUs) < hour
        ? [window.from.monotonicUs, window.to.monotonicUs]
        : [startTimeUs + (window.from.wallMs - spawned.wallMs) * 1000, startTimeUs + (window.to.wallMs - spawned.wallMs) * 1000];
  return { fromUs: Math.max(0, from - startTimeUs), toUs: Math.max(0, to - startTimeUs) };
}

/** The server's late intervals (GET /stats/late) and the moments just before and after it answered. */
export interface LateRead {
  thresholdMs: number;
  /** The server's clock (ms) as it answered, and the intervals on that clock. */
  nowMs: number;
  intervals: [number, number][];
  asked: { before: Mark; after: Mark };
}

const unlessInterrupted =
  <T>(value: T) =>
  (error: unknown): T => {
    rethrowInterrupted(error);
    return value;
  };

/**
 * The intervals the server recorded since the cell's reset, read once it is quiet (a quiet server
 * answers at once, so the moment it answered is known to a round trip). An app that cannot record
 * them (a ref: variant from before it could) gives none, and its cells fall back on the profile alone.
 */
async function readLate(ctx: ControlContext): Promise<LateRead | undefined> {
  const before = mark();
  const answer = await controlRequest(ctx, '/stats/late', 'GET', QUIET_DEADLINE_MS)
    .then((res) => res.json() as Promise<{ thresholdMs?: number | null; nowMs?: number; intervals?: [number, number][] }>)
    .catch(unlessInterrupted(undefined));
  const after = mark();
  if (typeof answer?.thresholdMs !== 'number' || typeof answer.nowMs !== 'number' || !Array.isArray(answer.intervals)) return undefined;
  return { thresholdMs: answer.thresholdMs, nowMs: answer.nowMs, intervals: answer.intervals, asked: { before, after } };
}

/**
 * The server's late intervals in a profile's own µs (as windowIn places a window): the server
 * gave them on its clock with that clock's reading as it answered, which is taken as the midpoint
 * of the request on the harness's clocks.
 */
export function lateIn(startTimeUs: number, spawned: Mark, read: LateRead): LateInput {
  const { before, after } = read.asked;
  const mid = { wallMs: (before.wallMs + after.wallMs) / 2, monotonicUs: (before.monotonicUs + after.monotonicUs) / 2 };
  const at = (serverMs: number): Mark => {
    const agoMs = read.nowMs - serverMs;
    return { wallMs: mid.wallMs - agoMs, monotonicUs: mid.monotonicUs - agoMs * 1000 };
  };
  return {
    thresholdMs: read.thresholdMs,
    intervals: read.intervals.map(([from, to]) => {
      const w = windowIn(startTimeUs, spawned, { from: at(from), to: at(to) });
      return { fromUs: w.fromUs, toUs: w.toUs };
    }),
  };
}

const cellName = (cell: CellResult) => `${cell.runtimeLabel ?? cell.runtime} ${cell.scenario}/${cell.mode}`;
