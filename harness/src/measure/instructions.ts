// `--measure instructions`: each lane's server started once under callgrind, then per cell a
// checked answer, a warm-up with collection off, and rounds of a fixed number of requests with
// collection on: instructions per request of the whole server process, all its threads.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeName, ServerKind } from '@bench/app';
import type { LaneSpec } from '../bench/lanes.ts';
import type { Plan } from '../bench/plan.ts';
import { probeRuntime } from '../servers/runtimes.ts';
import { cellsFor, scenarioSettings, scenariosFlag, type CellSpec } from '../servers/scenarios.ts';
import { type RunningServer, startServer } from '../servers/server.ts';
import { checkAnswer } from '../servers/validate.ts';
import { DEFAULT_DATA_DIR, ensureDataFiles } from '../system/data-files.ts';
import { cellFigure } from './instruction-verdict.ts';
import { keepJitMap } from './jit-map.ts';
import { sendBatch } from './requests.ts';
import {
  CACHE_SIM_ENV,
  callgrindControl,
  determinism,
  determinismWords,
  dumpCounters,
  estimatedCycles,
  JITDUMP_DIR_ENV,
  readDumpEvents,
  underCallgrind,
  withoutTsx,
} from './valgrind.ts';

/** How each cell is counted; the defaults keep a CPU-heavy cell near 10-20 s under Valgrind. */
export interface CountSettings {
  warmupRequests: number;
  requests: number;
  rounds: number;
  concurrency: number;
}

/**
 * One connection: requests then arrive in the same order in every process, so the JIT compiles
 * and the collector runs at the same points; 500 warm-up requests take the HTTP path's code
 * through V8's and JSC's tiers before anything is counted.
 */
export const DEFAULT_COUNT: CountSettings = { warmupRequests: 500, requests: 100, rounds: 2, concurrency: 1 };

export interface InstructionCell {
  lane: string;
  runtime: RuntimeName;
  scenario: string;
  mode: string;
  status: 'ok' | 'failed';
  reason?: string;
  /** Instructions per request in each round, in order. */
  rounds: number[];
  /** What the process ran per second with no request in hand (timers, idle threads): counted after the rounds. */
  idlePerSecond?: number;
  /**
   * The cell's figure: the rounds after the first, their instructions over their requests
   * (instruction-verdict.ts cellFigure). A compilation or a collection that falls in a round is
   * part of the cost, at the same point in every process.
   */
  perRequest?: number;
  /** With the cache simulation on (BENCH_CALLGRIND_CACHE_SIM=1): cycles estimated per request in each round, and the figure from them. */
  cycleRounds?: number[];
  cyclesPerRequest?: number;
  /** Of the instructions counted in JIT code (memory no file is mapped to) in the cell's dumps, the share the runtime's JIT map named. */
  jitNamed?: number;
  /** The callgrind dumps of the rounds, relative to the run's folder. */
  files: string[];
  /** Wall time of the cell under Valgrind (answer check, warm-up, rounds), seconds. */
  seconds: number;
}

export interface InstructionLane {
  lane: string;
  runtime: RuntimeName;
  version: string;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  /** The determinism settings it ran with, in words. */
  settings: string;
  /** Seconds from spawning the server under Valgrind to its /health answering. */
  startSeconds?: number;
  /** What Valgrind said it could not run for this lane's servers (an unhandled syscall), each line once. */
  valgrindWarnings?: string[];
}

export interface InstructionRun {
  lanes: InstructionLane[];
  cells: InstructionCell[];
}

export interface InstructionOptions {
  runDir: string;
  count: CountSettings;
  log(line: string): void;
  signal: AbortSignal;
}

/** The server flags of a plan, as the wall-clock bench gives them, plus a quiet lag sampler. */
function serverArgs(plan: Plan, lane: LaneSpec, cells: readonly CellSpec[]): string[] {
  return [
    ...(plan.dataDir === undefined ? [] : ['--data-dir', plan.dataDir]),
    ...scenariosFlag(plan.scenarios),
    ...['--hash-cost', String(plan.hashCost), '--fib-n', String(plan.fibN), '--sleep-ms', String(plan.sleepMs)],
    ...plan.scenarioFiles.flatMap((file) => ['--scenario-file', file]),
    ...(lane.moduleFile === undefined ? [] : ['--scenario-file', lane.moduleFile]),
    // The lag sampler's timer fires by the wall clock, which Valgrind slows: once a second it adds
    // next to nothing to a window, where every 10 ms it would add instructions by elapsed time.
    '--lag-interval-ms',
    '1000',
    // Each idle pool thread runs code of its own by the clock: one thread when no cell asks for more.
    ...(cells.some((c) => c.mode === 'worker') || lane.env?.BENCH_WORKERS !== undefined ? [] : ['--workers', '1']),
  ];
}

/** The idle window counted after a cell's rounds. */
const IDLE_WINDOW_MS = 5_000;

const fileName = (cell: CellSpec) => `${cell.scenario}-${cell.mode}`;

/**
 * Every lane's cells, lane after lane: instruction counts do not drift with the host, so A and B
 * need not alternate, and one server under Valgrind at a time leaves the other CPU to the client.
 */
export async function countInstructions(plan: Plan, lanes: readonly LaneSpec[], options: InstructionOptions): Promise<InstructionRun> {
  const { log, signal } = options;
  const cells = cellsFor(plan.scenarios, plan.modes);
  if (cells.some((c) => c.scenario === 'file')) ensureDataFiles(plan.dataDir, plan.fileCount, plan.fileSizeBytes, log);
  const settings = scenarioSettings({ ...plan, dataDir: plan.dataDir ?? DEFAULT_DATA_DIR });
  const out: InstructionRun = { lanes: [], cells: [] };
  const cacheSim = process.env[CACHE_SIM_ENV] === '1';
  for (const lane of lanes) {
    if (signal.aborted) break;
    const name = lane.spec.label ?? lane.spec.name;
    const d = determinism(lane.spec.name);
    const entry: InstructionLane = { lane: name, runtime: lane.spec.name, version: '', status: 'ok', settings: determinismWords(d) };
    out.lanes.push(entry);
    const probed = probeRuntime(lane.spec);
    if (!probed.ok) {
      Object.assign(entry, { status: 'skipped', reason: probed.reason });
      log(`${name}: skipped: ${probed.reason}`);
      continue;
    }
    entry.version = probed.version;
    const laneDir = join(options.runDir, 'instructions', name);
    mkdirSync(laneDir, { recursive: true });
    const servers = new Map<ServerKind, RunningServer>();
    const dumpsOf = new Map<ServerKind, { cell: InstructionCell; files: string[] }[]>();
    try {
      for (const cell of cells) {
        if (signal.aborted) break;
        let server = servers.get(cell.server);
        if (server === undefined) {
          const started = Date.now();
          const outFile = join(laneDir, `callgrind.out.${cell.server}`);
          log(`${name}: starting the ${cell.server} server under Valgrind (${entry.settings})`);
          server = await startServer(underCallgrind(withoutTsx(lane.spec, entry.version), d, outFile, cacheSim), {
            raw: cell.server === 'raw',
            serverArgs: serverArgs(plan, lane, cells),
            env: { ...lane.env, ...d.env, ...(lane.spec.name === 'bun' ? { [JITDUMP_DIR_ENV]: laneDir } : {}) },
            readyTimeoutMs: 240_000,
            signal,
          });
          servers.set(cell.server, server);
          entry.startSeconds ??= (Date.now() - started) / 1000;
          log(`${name}: ${cell.server} server ready in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${server.pid})`);
        }
        const result = await countCell(server, cell, join(laneDir, `callgrind.out.${cell.server}`), options, settings);
        const files = result.files.map((f, i) => {
          const kept = join(laneDir, `${fileName(cell)}.${i < result.rounds.length ? i + 1 : 'idle'}.callgrind.out`);
          renameSync(f, kept);
          return kept.slice(options.runDir.length + 1);
        });
        const counted: InstructionCell = {
          lane: name,
          runtime: lane.spec.name,
          scenario: cell.scenario,
          mode: cell.mode,
          ...result,
          files,
        };
        out.cells.push(counted);
        dumpsOf.set(cell.server, [
          ...(dumpsOf.get(cell.server) ?? []),
          { cell: counted, files: files.map((f) => join(options.runDir, f)) },
        ]);
        const figure =
          result.perRequest === undefined ? result.reason : `${Math.round(result.perRequest).toLocaleString('en')} instructions/request`;
        log(
          `${name} ${fileName(cell)}: ${figure} (${result.rounds.map((r) => Math.round(r)).join(' / ')}; ${result.seconds.toFixed(0)} s)`,
        );
      }
    } catch (error) {
      Object.assign(entry, { status: 'failed', reason: (error as Error).message.split('\n')[0] });
      log(`${name}: failed: ${entry.reason}`);
    } finally {
      for (const [kind, server] of servers) {
        await server.stop({ graceMs: 20_000 });
        const warnings = valgrindWarnings(server.stderrTail(2_000));
        if (warnings.length > 0) entry.valgrindWarnings = [...new Set([...(entry.valgrindWarnings ?? []), ...warnings])];
        // The map is complete only once the server has exited: the dumps are named then.
        const named = keepJitMap(
          server.pid,
          laneDir,
          join(laneDir, `perf-${kind}.map`),
          (dumpsOf.get(kind) ?? []).map((d) => d.files),
        );
        for (const [i, d] of (dumpsOf.get(kind) ?? []).entries()) if (named[i] !== undefined) d.cell.jitNamed = named[i];
        // What callgrind writes at exit with collection off: an empty profile, not worth keeping.
        const last = join(laneDir, `callgrind.out.${kind}`);
        if (existsSync(last) && statSync(last).size === 0) rmSync(last);
      }
    }
  }
  return out;
}

/** Valgrind's own warnings in a server's stderr ("==123== WARNING: unhandled amd64-linux syscall: 441"), without the pid prefix. */
export function valgrindWarnings(stderr: string): string[] {
  const lines = stderr.split('\n').flatMap((line) => {
    // Upper case: the core's warnings; "warning: L3 cache found" and the like are the tool's notes.
    const match = /^(?:==|--)\d+(?:==|--)\s*(WARNING:.*|.*[Uu]nhandled.*)$/.exec(line.trim());
    return match?.[1] === undefined ? [] : [match[1].trim()];
  });
  return [...new Set(lines)];
}

async function countCell(
  server: RunningServer,
  cell: CellSpec,
  outFile: string,
  options: InstructionOptions,
  settings: ReturnType<typeof scenarioSettings>,
): Promise<Omit<InstructionCell, 'lane' | 'runtime' | 'scenario' | 'mode'> & { files: string[] }> {
  const started = Date.now();
  const { count, signal } = options;
  const seconds = () => (Date.now() - started) / 1000;
  const wrong = await checkAnswer(cell.path, await fetch(`${server.url}${cell.path}`, { signal }), { settings });
  if (wrong !== undefined) return { status: 'failed', reason: wrong, rounds: [], files: [], seconds: seconds() };
  const batch = { url: server.url, path: cell.path, concurrency: count.concurrency };
  await sendBatch({ ...batch, count: count.warmupRequests }, signal);
  const rounds: number[] = [];
  const files: string[] = [];
  const windows: { total: number; cycles: number | undefined; seconds: number }[] = [];
  // Each window is timed from asking for collection on to hearing it is off.
  const counted = async (label: string, body: () => Promise<void>) => {
    const from = performance.now();
    await callgrindControl(server.pid, ['-i', 'on']);
    await body();
    await callgrindControl(server.pid, ['-i', 'off']);
    const window = (performance.now() - from) / 1000;
    const file = await dumpCounters(server.pid, outFile, label);
    files.push(file);
    const events = readDumpEvents(file);
    return { total: events.Ir ?? 0, cycles: estimatedCycles(events), seconds: window };
  };
  for (let r = 0; r < count.rounds && !signal.aborted; r++)
    windows.push(await counted(`${fileName(cell)}-${r + 1}`, () => sendBatch({ ...batch, count: count.requests }, signal)));
  // What the process runs per second with no request in hand (timers, the pool's threads): not
  // subtracted (a 5 s window holds too few timer ticks to be a steadier rate than the rounds
  // themselves), but reported, as the bound on what a longer round on a busier host adds.
  const idle = await counted(`${fileName(cell)}-idle`, () => new Promise<void>((resolve) => setTimeout(resolve, IDLE_WINDOW_MS)));
  const idlePerSecond = idle.total / idle.seconds;
  for (const w of windows) rounds.push(w.total / count.requests);
  const cycleRounds = windows.flatMap((w) => (w.cycles === undefined ? [] : [w.cycles / count.requests]));
  const cycles = cycleRounds.length === rounds.length ? { cycleRounds, cyclesPerRequest: cellFigure(cycleRounds) } : {};
  return { status: 'ok', rounds, perRequest: cellFigure(rounds), ...cycles, idlePerSecond, files, seconds: seconds() };
}
