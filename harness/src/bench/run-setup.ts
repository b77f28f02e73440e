/**
 * What a bench run needs once, before its first cell and after its last: the results folder and
 * its meta, the input files (only when a planned cell reads them), the cold page cache, CPU
 * pinning, wrk, the speed sampler with the host check and reference loop, and the round trip to
 * another server host. Built here in one place from the plan, so the rounds only read it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { ScenarioSettings } from '@bench/app';
import { findWrk, missingWrkReason } from '../load/wrk.ts';
import { Probe } from '../load/probe.ts';
import type { Environment } from '../model/environment.ts';
import { connectionsSwept, type Parameters } from '../model/parameters.ts';
import type { Found } from './run-meta.ts';
import { makeRunDir, readCells, writeMeta, type RunMeta } from '../model/run-files.ts';
import { readsDataFiles, scenarioSettings, scenariosFlag, type CellSpec } from '../servers/scenarios.ts';
import type { ServerHost } from '../servers/server-host.ts';
import { stopAllServers } from '../servers/server.ts';
import { allocatorEnv } from '../system/allocator.ts';
import { DEFAULT_DATA_DIR, ensureDataFiles, primeFiles } from '../system/data-files.ts';
import { environment } from '../system/environment.ts';
import { samplerMove } from '../system/host-speed.ts';
import { coldCacheSupport, residentFraction, type ColdCacheSupport } from '../system/page-cache.ts';
import { RESULTS_ROOT } from '../system/paths.ts';
import { pinSelf, planPinning, tasksetAvailable, type Pinning } from '../system/pinning.ts';
import { startSpeedSampler, type SpeedSampler } from '../system/speed-sampler.ts';
import type { RuntimeSpec } from '../servers/runtimes.ts';
import type { Plan } from './plan.ts';
import type { Progress } from './progress.ts';
import { checkBefore, checkTwice, referenceLoop, roundReference, withAfter } from './reference.ts';
import { reportParameters } from './settings.ts';

/** How every server of the run starts on this host, before a lane adds its own. */
export interface ServerSettings {
  args: string[];
  /** Added to every local server's environment (--allocator). */
  env?: Readonly<Record<string, string>>;
  /** CPUs for the servers when pinned. */
  cpus?: string;
}

/** What the run's entry point gives the setup. */
export interface SetupOptions {
  progress: Progress;
  /** The cells the run measures (plan.ts planCells). */
  cells: CellSpec[];
  /** Aborting it stops the load, keeps every finished cell and writes an interrupted report. */
  signal?: AbortSignal;
  resultsRoot?: string;
  /** The results folder, when the entry point chose it (to write what finished on a forced stop). */
  runDir?: string;
  /** --server-host: the other host the servers run on, as the entry point built it (servers/server-host.ts). */
  host?: ServerHost;
  /** Recorded in the report's parameters beside the plan's (bench:ab: what A and B were). */
  parameters?: Partial<Parameters>;
}

export interface RunSetup {
  runDir: string;
  /** When the run started: the time budget counts from here. */
  startedAt: number;
  /** The meta as the setup knew it (no runtimes yet): what the phases find is added to it at the end (run-meta.ts). */
  meta: RunMeta;
  /** Whether the report's cells are named by connection count, read from meta as every renderer reads it. */
  swept: boolean;
  /** The planned cells, sized by a --sweep. */
  cells: CellSpec[];
  /** --server-host: the servers are started there, through what the entry point built (servers/server-host.ts). */
  host?: ServerHost;
  signal: AbortSignal;
  log(line: string): void;
  /** The input files the planned cells read, on this host; none when no cell reads them. */
  filePaths: string[];
  /** --cold: whether eviction works (undefined: not asked for, or no cell reads the files). */
  cold?: ColdCacheSupport;
  /** Set with --cold where eviction works: the files to evict before each file run (on the server host's side). */
  evict?: string[];
  /** The servers' settings, as scenario modules' verify() checks answers with them. */
  settings: ScenarioSettings;
  servers: ServerSettings;
  /** The CPUs the servers may use: what --processes auto means. */
  serverCpuCount: number;
  /** autocannon worker threads (pinned with more than one client CPU); absent = in-process. */
  loadWorkers?: number;
  /** What a fresh page cost on this host (environment.memoryFirstTouch), to tell a cell how much of its CPU went to page faults. */
  faultUsPerPage?: number;
  /** The wrk binary when cross-checks are planned and wrk is installed. */
  wrk?: string;
  probe: Probe;
  /** The machine-speed sampler (system/speed-sampler.ts), on this host only, where the load runs. */
  speed?: SpeedSampler;
  /** The pinned reference loop (bench/reference.ts), measured before each round: ms, or undefined when it could not be. */
  reference?: () => Promise<number | undefined>;
}

/** Everything the run needs once, in the order it must happen: files and cache before pinning, the host check before any load. */
export async function setUpRun(plan: Plan, options: SetupOptions): Promise<RunSetup> {
  const { progress, host } = options;
  const log = (line: string) => progress.log(line);
  const startedAt = Date.now();
  const signal = options.signal ?? new AbortController().signal;
  const root = options.resultsRoot ?? RESULTS_ROOT;
  const runDir = options.runDir ?? (plan.outDir === undefined ? makeRunDir(root) : resolve(plan.outDir));
  mkdirSync(runDir, { recursive: true });

  const { cells } = options;
  const dataDir = plan.dataDir === undefined ? undefined : resolve(plan.dataDir);
  const data = inputFiles(plan, cells, dataDir, runDir, host, log);
  const cold = plan.cold && data.filePaths.length > 0 ? await coldSupport(data, host, log) : undefined;
  // Servers on another host: this one is the load generator's alone, nothing to pin apart.
  const pinning: Pinning =
    host === undefined
      ? planPinning(availableParallelism(), tasksetAvailable(), plan.clientCpus, plan.serverCpus)
      : { reason: 'servers on another host (--server-host)' };
  if ('client' in pinning) pinSelf(pinning.client);
  const wrk = plan.crossCheck.length > 0 ? findWrk() : undefined;
  if (plan.crossCheck.length > 0 && wrk === undefined) log(`bench: no cross-check with wrk: ${missingWrkReason()}`);
  const meta: RunMeta = {
    createdAt: new Date().toISOString(),
    environment: { ...environment(), pinning, ...(host === undefined ? {} : { serverHost: host.environment }) },
    parameters: reportParameters(plan, {
      cold,
      noWrk: plan.crossCheck.length > 0 && wrk === undefined ? missingWrkReason() : undefined,
    }),
    runtimes: [],
  };
  if (options.parameters !== undefined) meta.parameters = { ...meta.parameters, ...options.parameters };
  writeMeta(runDir, meta);

  const speed = host === undefined ? startSpeedSampler({ taskset: tasksetAvailable() }) : undefined;
  // The independent check of the host's speed, before anything loads it (bench/reference.ts).
  const check = speed === undefined ? undefined : await checkBefore(speed, availableParallelism(), plan.checkCalls);
  if (check !== undefined) {
    meta.environment.hostCheck = check;
    log(
      `bench: host check: fib(${check.n}) ${check.before.alone.join('/')} ms per CPU alone, ${check.before.together.join('/')} together (floor ±${(check.floor * 100).toFixed(1)} %)`,
    );
  }
  const env = allocatorEnv(plan.allocator);
  const servers: ServerSettings = {
    args: serverArgs(plan, dataDir),
    ...('server' in pinning ? { cpus: pinning.server } : {}),
    ...(env === undefined ? {} : { env }),
  };
  return {
    runDir,
    startedAt,
    meta,
    swept: connectionsSwept(meta),
    cells,
    ...(host === undefined ? {} : { host }),
    signal,
    log,
    filePaths: data.filePaths,
    ...(cold === undefined ? {} : { cold }),
    ...(cold?.ok === true ? { evict: data.evictPaths } : {}),
    settings: scenarioSettings({ ...plan, dataDir: data.checkDir }),
    servers,
    // --processes auto: the CPUs the servers may use (on another host, that host's CPUs as its preflight counted them).
    serverCpuCount:
      host !== undefined
        ? host.environment.cpu.count
        : 'serverCpus' in pinning && pinning.serverCpus !== undefined
          ? pinning.serverCpus
          : availableParallelism(),
    ...('server' in pinning && (pinning.autocannonWorkers ?? 0) > 0 ? { loadWorkers: pinning.autocannonWorkers } : {}),
    // A fresh page's cost is this host's: with the servers on another host it says nothing of theirs.
    ...(host === undefined && meta.environment.memoryFirstTouch !== undefined
      ? { faultUsPerPage: meta.environment.memoryFirstTouch.usPerPage }
      : {}),
    ...(wrk === undefined ? {} : { wrk }),
    probe: new Probe(),
    ...(speed === undefined ? {} : { speed, reference: () => roundReference(speed) }),
  };
}

interface InputFiles {
  /** The files on this host, as the harness reads them. */
  filePaths: string[];
  /** The same files where the servers read them (on another host, that host's copies). */
  evictPaths: string[];
  /** Where answers are checked against the manifest. */
  checkDir: string;
  /** The folder the files are in, here. */
  dir: string;
}

/**
 * The input files, made (or reused) only when a planned cell reads them. On another host the
 * servers read that host's files: its manifest (from the preflight) checks them, and goes beside
 * the results.
 */
function inputFiles(
  plan: Plan,
  cells: readonly CellSpec[],
  dataDir: string | undefined,
  runDir: string,
  host: ServerHost | undefined,
  log: (line: string) => void,
): InputFiles {
  const dir = dataDir ?? DEFAULT_DATA_DIR;
  const reads = cells.some((cell) => readsDataFiles(cell.scenario));
  const manifest = host?.manifest ?? (reads ? ensureDataFiles(dataDir, plan.fileCount, plan.fileSizeBytes, log) : undefined);
  const checkDir = host?.manifest === undefined ? dir : join(runDir, 'server-data');
  if (host?.manifest !== undefined) {
    mkdirSync(checkDir, { recursive: true });
    writeFileSync(join(checkDir, 'manifest.json'), JSON.stringify(host.manifest));
  }
  const filePaths = manifest?.files.map((f) => join(dir, f.name)) ?? [];
  const evictPaths = host === undefined ? filePaths : filePaths.map((p) => host.movePath(p));
  return { filePaths, evictPaths, checkDir, dir };
}

/** Whether --cold can be honoured (here, or on the server host after one verified eviction there); when not, the run says why and reads stay warm. */
async function coldSupport(data: InputFiles, host: ServerHost | undefined, log: (line: string) => void): Promise<ColdCacheSupport> {
  const support = host === undefined ? await coldCacheSupport(data.dir) : await host.coldSupport(data.evictPaths);
  if (!support.ok)
    log(
      `bench: --cold: cannot evict files ${host === undefined ? 'here' : `on ${host.environment.host}`} (${support.reason}); file reads will be warm`,
    );
  return support;
}

function serverArgs(plan: Plan, dataDir: string | undefined): string[] {
  return [
    ...(dataDir === undefined ? [] : ['--data-dir', dataDir]),
    ...scenariosFlag(plan.scenarios),
    ...['--hash-cost', String(plan.hashCost), '--fib-n', String(plan.fibN), '--sleep-ms', String(plan.sleepMs)],
    ...plan.scenarioFiles.flatMap((file) => ['--scenario-file', file]),
  ];
}

/** --server-host: the round trips to the server host, through a server of `spec` (the first lane's). */
export async function measureRoundTrip(
  setup: Pick<RunSetup, 'host' | 'log' | 'servers'>,
  spec: RuntimeSpec | undefined,
): Promise<Environment['network']> {
  const { host, log } = setup;
  if (host === undefined || spec === undefined) return undefined;
  log(`bench: measuring the round trips to ${host.environment.host} (${host.networkProbeDescription})`);
  try {
    const { network, line } = await host.measureNetwork(spec, setup.servers.args);
    log(line);
    return { ...network, mtu: host.mtu };
  } catch (error) {
    // The cells' own server starts will say why in their results; the run goes on.
    const reason = (error as Error).message;
    log(`bench: round trip not measured: ${reason}`);
    return { rttUnavailable: reason, mtu: host.mtu };
  }
}

/** Warm reads mean warm: the inputs are read through right before a group of cells that reads them; what that found, when it did. */
export async function primeFor(
  setup: Pick<RunSetup, 'host' | 'cold' | 'filePaths' | 'log'>,
  cells: readonly CellSpec[],
): Promise<Parameters['filesPrimed']> {
  if (setup.host !== undefined || setup.cold?.ok === true || !cells.some((c) => readsDataFiles(c.scenario))) return undefined;
  return await primeInputs(setup.filePaths, setup.log);
}

/** Reads the file scenario's inputs into the page cache and says how much of them was there before. */
async function primeInputs(paths: string[], log: (line: string) => void): Promise<NonNullable<Parameters['filesPrimed']>> {
  const resident = () => residentFraction(paths).catch(() => undefined);
  const before = await resident();
  const started = performance.now();
  primeFiles(paths);
  const sec = Math.round(performance.now() - started) / 1000;
  const after = await resident();
  const share = (f: number | undefined) => (f === undefined ? '?' : `${Math.round(f * 100)} %`);
  log(`bench: file inputs read into the page cache in ${sec.toFixed(1)} s (resident before ${share(before)}, after ${share(after)})`);
  return {
    ...(before === undefined ? {} : { residentBefore: Math.round(before * 1000) / 1000 }),
    ...(after === undefined ? {} : { residentAfter: Math.round(after * 1000) / 1000 }),
    sec,
  };
}

/**
 * Ends what the setup started: the probe, every server, then the host check once more (with
 * every server stopped; not after an interruption: the user is waiting, and Ctrl-C reached the
 * sampler's children too; readings of as many calls as before, so the two compare) and the
 * sampler. Returns the host check with its reading after, when taken.
 */
export async function closeRun(setup: Pick<RunSetup, 'speed' | 'meta' | 'probe' | 'signal'>): Promise<Environment['hostCheck']> {
  const { speed, meta } = setup;
  setup.probe.close();
  await stopAllServers();
  const before = meta.environment.hostCheck;
  const after =
    speed !== undefined && before !== undefined && !setup.signal.aborted
      ? withAfter(before, (await checkTwice(speed, availableParallelism(), before.calls))?.reading)
      : undefined;
  speed?.stop();
  return after;
}

/**
 * The machine's speed through the runs, for the meta, from the cells on disk (an interrupted
 * run's too). Where a cell's runs read the machine apart beyond the floor, the cell says so
 * itself (report/bench-files.ts derives it from this summary): the top of the report speaks of
 * the host only through the independent check.
 */
export function recordMachineSpeed(setup: Pick<RunSetup, 'speed' | 'runDir'>): Pick<Found, 'machineSpeed' | 'referenceLoop'> {
  const { speed, runDir } = setup;
  if (speed === undefined) return {};
  const measured = readCells(runDir);
  const perRun = measured.flatMap((c) => c.runDetails.map((r) => r.machine?.coresWorth));
  const summary = speed.summary(perRun);
  const cells = measured.map((c) => ({
    cell: `${c.runtimeLabel ?? c.runtime} ${c.scenario}/${c.mode}`,
    runs: c.runDetails.map((r) => r.machine),
  }));
  const machineSpeed = { ...summary, moved: samplerMove(cells, summary.idleFloor ?? 0) };
  const loop = referenceLoop(measured);
  return { machineSpeed, ...(loop === undefined ? {} : { referenceLoop: loop }) };
}
