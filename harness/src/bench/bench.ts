import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_DATA_DIR, ensureDataFiles, primeFiles } from '../system/data-files.ts';
import { coldCacheSupport, residentFraction, type ColdCacheSupport } from '../system/page-cache.ts';
import { pinSelf, planPinning, tasksetAvailable } from '../system/pinning.ts';
import { allocatorEnv } from '../system/allocator.ts';
import { findWrk, missingWrkReason } from '../load/wrk.ts';
import { environment } from '../system/environment.ts';
import { Interrupted } from '../cli/interrupt.ts';
import { mergeReport } from '../report/merge.ts';
import { connectionsSwept } from '../report/lanes.ts';
import { makeRunDir, readCells, writeCell, writeMeta, type RunMeta } from '../report/output.ts';
import type { Plan } from './plan.ts';
import { reportParameters, scheduleSettings } from './settings.ts';
import { Probe } from '../load/probe.ts';
import type { Progress } from './progress.ts';
import { formatMs, formatRps } from '../report/text/formats.ts';
import { percent } from '../report/flags.ts';
import type { CellResult } from '../model/cell.ts';
import type { Parameters } from '../model/parameters.ts';
import type { Report, RuntimeEntry } from '../model/report.ts';
import { withFeatures, type ReportFeatures } from '../report/section.ts';
import { probeRuntime, runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import { REPO_ROOT } from '../system/paths.ts';
import { resolveRequest } from '../servers/runtime-install.ts';
import { cellsFor, scenarioModule, scenarioSettings, type CellSpec } from '../servers/scenarios.ts';
import { benchGroup, type Lane, type PairNeed, type ScheduleContext } from './schedule.ts';
import { stopKind } from '../servers/quiet.ts';
import { startSpeedSampler, type SpeedSampler } from '../system/speed-sampler.ts';
import { cellMachineMoved, samplerMove } from '../system/host-speed.ts';
import { checkBefore, checkTwice, referenceLoop, roundReference, withAfter } from './reference.ts';
import { scenarioGroups, weightedPace } from './budget.ts';
import { stopAllServers, type RunningServer } from '../servers/server.ts';
import { createPhaseClock, phaseKind } from './phase-clock.ts';
import { sizedCells } from './sweep-plan.ts';
import { hopOptions, withHopCosts } from './sweep-hop.ts';
import type { ServerHost } from '../servers/server-host.ts';
import { profilePhase } from './profile-runs.ts';

export const DEFAULT_RESULTS_ROOT = resolve(REPO_ROOT, 'data/results');

export interface BenchOptions {
  progress: Progress;
  /** Aborting it stops the load, keeps every finished cell and writes an interrupted report. */
  signal?: AbortSignal;
  resultsRoot?: string;
  /** The results folder, when the entry point chose it (to write what finished on a forced stop). */
  runDir?: string;
  /**
   * The installations to run, one lane each (bench-cli resolves plan.versions before anything
   * starts, so an unknown version exits 2). Default: the plan's versions resolved here, or each
   * runtime's pinned installation.
   */
  specs?: RuntimeSpec[];
  /** --server-host: the other host the servers run on, as the entry point built it (servers/server-host.ts). */
  host?: ServerHost;
  /** Called as each measured run starts, with its server (fault-injection tests kill or stop it). */
  onRunStarted?: (server: RunningServer, cell: CellSpec) => void;
  /** What the features add to the report (versions compared, their sections); given by bench-cli. */
  features?: ReportFeatures;
  /** Recorded in the report's parameters beside the plan's (bench:ab: what A and B were). */
  parameters?: Partial<Parameters>;
  /** bench:ab: each cell's lanes run back to back in every round (ScheduleContext.pairLanes). */
  pairLanes?: boolean;
  /** bench:ab: whether a cell's lanes need another pair of processes past the plan's runs (ScheduleContext.pairNeed). */
  pairNeed?: PairNeed;
}

export interface BenchOutcome {
  /** The merged report with what the features derive; rendering and writing it is the entry point's. */
  report: Report;
  /** Where the cells (and meta.json) went, and where the report files belong. */
  runDir: string;
}

/**
 * The whole run: for each cell, on each runtime, check and warm up, then the measured runs,
 * interleaved across runtimes (or one runtime after another with --schedule sequential). Only
 * one server is ever under load. Each finished cell goes to disk at once; at the end (or on
 * interruption) the cells on disk are merged into the report returned (the entry point renders
 * and writes it: report/bench-files.ts).
 */
export async function runBench(plan: Plan, options: BenchOptions): Promise<BenchOutcome> {
  const { progress } = options;
  const clock = createPhaseClock();
  const startedAt = Date.now();
  const signal = options.signal ?? new AbortController().signal;
  const root = options.resultsRoot ?? DEFAULT_RESULTS_ROOT;
  const runDir = options.runDir ?? (plan.outDir === undefined ? makeRunDir(root) : resolve(plan.outDir));
  mkdirSync(runDir, { recursive: true });

  const dataDir = plan.dataDir === undefined ? undefined : resolve(plan.dataDir);
  const host = options.host;
  // On another host the servers read that host's files: its manifest (from the preflight) checks them.
  const manifest = host?.manifest ?? ensureDataFiles(dataDir, plan.fileCount, plan.fileSizeBytes, (line) => progress.log(line));
  // Answers are checked here against the manifest: another host's goes beside the results.
  const checkDir = host?.manifest === undefined ? (dataDir ?? DEFAULT_DATA_DIR) : join(runDir, 'server-data');
  if (host?.manifest !== undefined) {
    mkdirSync(checkDir, { recursive: true });
    writeFileSync(join(checkDir, 'manifest.json'), JSON.stringify(host.manifest));
  }
  const filePaths = manifest.files.map((f) => join(dataDir ?? DEFAULT_DATA_DIR, f.name));
  // On another host the files are that host's copies: same names, under its checkout.
  const evictPaths = host === undefined ? filePaths : filePaths.map((p) => host.movePath(p));
  const cold = plan.cold
    ? host === undefined
      ? await coldCache(dataDir ?? DEFAULT_DATA_DIR, progress)
      : await remoteCold(host, evictPaths, progress)
    : undefined;
  // Servers on another host: this one is the load generator's alone, nothing to pin apart.
  const pinning =
    host === undefined
      ? planPinning(availableParallelism(), tasksetAvailable(), plan.clientCpus, plan.serverCpus)
      : { reason: 'servers on another host (--server-host)' };
  if ('client' in pinning) pinSelf(pinning.client);
  const wrk = plan.crossCheck.length > 0 ? findWrk() : undefined;
  if (plan.crossCheck.length > 0 && wrk === undefined) progress.log(`bench: no cross-check with wrk: ${missingWrkReason()}`);
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

  const planned = cellsFor(plan.scenarios, plan.modes);
  const cells = plan.sweep === undefined ? planned : sizedCells(planned, plan.sweep);
  const passes = plan.connections;
  // From the report's own parameters, as every renderer reads it: the cell files and progress
  // lines name a count exactly when the report's tables do.
  const swept = connectionsSwept(meta);
  // --processes: one lane per runtime and process count; auto = the CPUs the servers may use
  // (on another host, that host's CPUs as its preflight counted them).
  const serverCpuCount =
    host !== undefined
      ? host.environment.cpu.count
      : 'serverCpus' in pinning && pinning.serverCpus !== undefined
        ? pinning.serverCpus
        : availableParallelism();
  const counts = plan.processes?.map((p) => (p === 'auto' ? serverCpuCount : p));
  const processCounts = counts === undefined ? [undefined] : [...new Set(counts)];
  if (plan.processes?.includes('auto') === true)
    meta.parameters.autoProcesses = { count: serverCpuCount, cpusOf: host?.environment.host ?? 'this host' };
  const specs = options.specs ?? planSpecs(plan, (line) => progress.log(line));
  const total = cells.length * specs.length * processCounts.length * passes.length;
  const perUnitSec = plan.warmupSec + plan.runs * (plan.durationSec + 0.4) + 0.3;
  let done = 0;
  // How fast the machine is through every run; on this host only, where the load runs.
  const speed: SpeedSampler | undefined = host === undefined ? startSpeedSampler({ taskset: tasksetAvailable() }) : undefined;
  // The independent check of the host's speed, before anything loads it (bench/reference.ts).
  const check = speed === undefined ? undefined : await checkBefore(speed, availableParallelism());
  if (check !== undefined) {
    meta.environment.hostCheck = check;
    progress.log(
      `bench: host check: fib(${check.n}) ${check.before.alone.join('/')} ms per CPU alone, ${check.before.together.join('/')} together (floor ±${(check.floor * 100).toFixed(1)} %)`,
    );
  }
  let groupUnits = 0;
  // The pace starts with the first cell: what setup took (input files, fingerprint) comes off the budget first.
  let pace: ((done: number, current: number, need?: number) => boolean) | undefined;
  const probe = new Probe();
  const lanes: Lane[] = [];
  const context: ScheduleContext = {
    plan: scheduleSettings(plan, passes[0]),
    probe,
    settings: scenarioSettings({ ...plan, dataDir: checkDir }),
    evict: cold?.ok === true ? evictPaths : undefined,
    signal,
    serverArgs: serverArgs(plan, dataDir),
    serverEnv: allocatorEnv(plan.allocator),
    // A fresh page's cost is this host's: with the servers on another host it says nothing of theirs.
    faultUsPerPage: host === undefined ? meta.environment.memoryFirstTouch?.usPerPage : undefined,
    serverCpus: 'server' in pinning ? pinning.server : undefined,
    loadWorkers: 'server' in pinning && (pinning.autocannonWorkers ?? 0) > 0 ? pinning.autocannonWorkers : undefined,
    wrk,
    host,
    log: (line) => progress.log(line),
    speed,
    reference: speed === undefined ? undefined : () => roundReference(speed),
    mayExtend: plan.budgetSec === undefined ? undefined : (need: number) => pace?.(done, groupUnits, need) ?? false,
    onRunStarted: options.onRunStarted,
    ...(options.pairLanes === true ? { pairLanes: true } : {}),
    ...(options.pairNeed === undefined ? {} : { pairNeed: options.pairNeed }),
    onPhase: (runtime, cell, phase) => {
      clock.enter(phaseKind(phase));
      progress.update({
        cell: done + 1,
        cells: total,
        runtime,
        scenario: cell.scenario,
        mode: cell.mode,
        phase,
        etaSec: (total - done) * perUnitSec,
      });
    },
  };
  try {
    for (const spec of specs) {
      const first = openLane(spec, progress, host);
      meta.runtimes.push(first.entry);
      for (const processes of processCounts) {
        // Lanes of one installation share its report entry (one version, one status).
        const lane: Lane = { ...first, servers: new Map(), startErrors: new Map(), ...(processes === undefined ? {} : { processes }) };
        if (lane.entry.status === 'ok') lanes.push(lane);
        else done += cells.length * passes.length;
      }
    }
    if (host !== undefined && lanes[0] !== undefined) {
      progress.log(`bench: measuring the round trips to ${host.environment.host} (${host.networkProbeDescription})`);
      try {
        const { network, line } = await host.measureNetwork(lanes[0].spec, context.serverArgs);
        meta.environment.network = { ...network, mtu: host.mtu };
        progress.log(line);
      } catch (error) {
        // The cells' own server starts will say why in their results; the run goes on.
        const reason = (error as Error).message;
        meta.environment.network = { rttUnavailable: reason, mtu: host.mtu };
        progress.log(`bench: round trip not measured: ${reason}`);
      }
    }
    writeMeta(runDir, meta);
    // Interleaved: every runtime takes part in each cell, run by run. Sequential: one runtime
    // at a time through every cell, the other runtimes' servers not even started.
    const groups = plan.schedule === 'interleaved' ? [lanes] : lanes.map((lane) => [lane]);
    // A --connections list: the whole plan once per count (a pass), each cell measured at its pass's count.
    for (const connections of passes) {
      context.plan = scheduleSettings(plan, connections);
      for (const group of groups) {
        // One scenario's modes at a time, their runs alternating (sync async | async sync): paired.
        const groupsOfCells = scenarioGroups(cells);
        for (const [index, group2] of groupsOfCells.entries()) {
          if (signal.aborted) throw new Interrupted('interrupted');
          groupUnits = group2.length * group.length;
          // Warm reads mean warm: the inputs are read through right before the file cells.
          if (host === undefined && cold?.ok !== true && group2.some((c) => scenarioModule(c.scenario)?.readsDataFiles === true))
            meta.parameters.filesPrimed = await primeInputs(filePaths, progress);
          if (plan.budgetSec !== undefined && pace === undefined)
            pace = weightedPace(Math.max(0, plan.budgetSec - (Date.now() - startedAt) / 1000), total, Date.now(), perUnitSec);
          const tagged = (measured: CellResult): CellResult => ({
            ...measured,
            connections,
            ...(host === undefined ? {} : { serverHost: host.environment.host }),
          });
          const keepPartial = (partial: CellResult[]) => {
            for (const cell of partial) writeCell(runDir, tagged(cell), swept);
          };
          const measuredGroup = await benchGroup(group2, group, context, keepPartial);
          const finished =
            plan.sweep === undefined
              ? measuredGroup
              : await withHopCosts(
                  measuredGroup,
                  group2,
                  group,
                  hopOptions(plan, signal, (line) => progress.log(line)),
                );
          for (const measured of finished) {
            const result = tagged(measured);
            writeCell(runDir, result, swept);
            done++;
            progress.log(cellLine(result, swept));
          }
          clock.enter('other');
          // Servers no later cell needs are stopped: idle servers are few, not many.
          const later = groupsOfCells.slice(index + 1).flat();
          for (const kind of new Set(group2.map((c) => c.server)))
            if (!later.some((c) => c.server === kind)) await stopKind(group, kind, plan.drainCapSec);
        }
        writeMeta(runDir, meta);
      }
    }
    if (plan.profile) clock.enter('profile');
    if (plan.profile) await profilePhase(plan, lanes, cells, context, { runDir, swept, log: (line) => progress.log(line) });
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    probe.close();
    await stopAllServers();
    // With every server stopped; not after an interruption (the user is waiting, and Ctrl-C reached the sampler's children too).
    if (speed !== undefined && meta.environment.hostCheck !== undefined && !signal.aborted)
      meta.environment.hostCheck = withAfter(meta.environment.hostCheck, (await checkTwice(speed, availableParallelism()))?.reading);
    speed?.stop();
    progress.done();
  }

  if (speed !== undefined) {
    const measured = readCells(runDir);
    const perRun = measured.flatMap((c) => c.runDetails.map((r) => r.machine?.coresWorth));
    const summary = speed.summary(perRun);
    const cells = measured.map((c) => ({
      cell: `${c.runtimeLabel ?? c.runtime} ${c.scenario}/${c.mode}`,
      runs: c.runDetails.map((r) => r.machine),
    }));
    meta.environment.machineSpeed = { ...summary, moved: samplerMove(cells, summary.idleFloor ?? 0) };
    // Where a cell's runs read the machine apart beyond the floor, the cell says so itself: the
    // top of the report speaks of the host only through the independent check.
    for (const cell of measured) {
      const moved = cellMachineMoved(
        cell.runDetails.map((r) => r.machine),
        summary.idleFloor ?? 0,
      );
      if (moved !== undefined) writeCell(runDir, { ...cell, machineMoved: moved }, swept);
    }
    const loop = referenceLoop(measured);
    if (loop !== undefined) meta.environment.referenceLoop = loop;
    writeMeta(runDir, meta);
  }
  const merged = mergeReport({
    createdAt: meta.createdAt,
    status: signal.aborted ? 'interrupted' : 'complete',
    environment: meta.environment,
    parameters: meta.parameters,
    runtimes: meta.runtimes,
    results: readCells(runDir),
    timing: clock.read(),
  });
  return { report: withFeatures(merged, options.features), runDir };
}

/** Reads the file scenario's inputs into the page cache and says how much of them was there before. */
async function primeInputs(paths: string[], progress: Progress): Promise<NonNullable<Parameters['filesPrimed']>> {
  const resident = () => residentFraction(paths).catch(() => undefined);
  const before = await resident();
  const started = performance.now();
  primeFiles(paths);
  const sec = Math.round(performance.now() - started) / 1000;
  const after = await resident();
  const share = (f: number | undefined) => (f === undefined ? '?' : `${Math.round(f * 100)} %`);
  progress.log(
    `bench: file inputs read into the page cache in ${sec.toFixed(1)} s (resident before ${share(before)}, after ${share(after)})`,
  );
  return {
    ...(before === undefined ? {} : { residentBefore: Math.round(before * 1000) / 1000 }),
    ...(after === undefined ? {} : { residentAfter: Math.round(after * 1000) / 1000 }),
    sec,
  };
}

/** Whether --cold can be honoured here; when not, the run says why and reads stay warm. */
async function coldCache(dir: string, progress: Progress): Promise<ColdCacheSupport> {
  const support = await coldCacheSupport(dir);
  if (!support.ok) progress.log(`bench: --cold: cannot evict files here (${support.reason}); file reads will be warm`);
  return support;
}

/** One spec per lane: each named version's installation (fetched if needed), or each runtime's pinned one. */
export function planSpecs(plan: Plan, log: (line: string) => void): RuntimeSpec[] {
  return plan.versions === undefined
    ? plan.runtimes.map((name) => runtimeSpec(name))
    : plan.versions.map((request) => resolveRequest(request, { log }));
}

/** --cold on another host: one verified eviction there first, or the reason reads stay warm. */
async function remoteCold(host: ServerHost, paths: string[], progress: Progress): Promise<ColdCacheSupport> {
  const support = await host.coldSupport(paths);
  if (!support.ok)
    progress.log(`bench: --cold: cannot evict files on ${host.environment.host} (${support.reason}); file reads will be warm`);
  return support;
}

/**
 * A lane for one installation, or its entry saying why it is skipped (binary missing or broken,
 * here or on the server host). With --server-host the server host's own installation of that
 * runtime is used (found by the preflight), not this host's.
 */
export function openLane(local: RuntimeSpec, progress: Progress, host?: ServerHost): Lane {
  const there = host?.installation(local);
  const spec = there?.spec ?? local;
  const probed = there?.probe ?? probeRuntime(spec);
  const name = spec.label ?? spec.name;
  if (!probed.ok) progress.log(`${name}: skipped: ${probed.reason}`);
  const where = {
    ...(spec.source === undefined ? {} : { source: spec.source }),
    ...(spec.binary === '' ? {} : { binary: spec.binary }),
    ...(spec.label === undefined ? {} : { label: spec.label }),
  };
  const entry: RuntimeEntry = probed.ok
    ? { name: spec.name, version: probed.version, status: 'ok', ...where }
    : { name: spec.name, version: '', status: 'skipped', reason: probed.reason, ...where };
  return { spec, entry, servers: new Map(), startErrors: new Map() };
}

function serverArgs(plan: Plan, dataDir: string | undefined): string[] {
  // Only the modules measured are set up: the others' setup is start-up time every server pays.
  const modules = plan.scenarios.filter((name) => scenarioModule(name) !== undefined);
  return [
    ...(dataDir === undefined ? [] : ['--data-dir', dataDir]),
    ...['--scenarios', modules.length === 0 ? 'none' : modules.join(',')],
    ...['--hash-cost', String(plan.hashCost), '--fib-n', String(plan.fibN), '--sleep-ms', String(plan.sleepMs)],
    ...plan.scenarioFiles.flatMap((file) => ['--scenario-file', file]),
  ];
}

/**
 * 0 when something was measured; 1 when nothing ran (every runtime skipped or failed, or every
 * cell failed). With --strict, 1 as soon as anything did not run cleanly.
 */
export function exitCode(report: Report, strict: boolean): number {
  const ran = report.results.some((r) => r.status !== 'failed');
  if (!ran) return 1;
  const clean = report.runtimes.every((r) => r.status === 'ok') && report.results.every((r) => r.status === 'ok');
  return strict && !clean ? 1 : 0;
}

/** One plain line per finished cell, so a log shows results as they come. */
export function cellLine(cell: CellResult, connectionsSwept: boolean): string {
  const name = `${cell.runtimeLabel ?? cell.runtime}${cell.processes === undefined ? '' : ` x${cell.processes}`} ${cell.scenario}/${cell.mode}${connectionsSwept ? ` @${cell.connections} conns` : ''}`;
  if (cell.status === 'failed') return `${name}: FAILED: ${cell.reason ?? ''}`;
  const rps = cell.requestsPerSec;
  const figures = `${formatRps(rps.median)} req/s (CV ${(rps.cv * 100).toFixed(1)}%), p99 ${formatMs(cell.latencyMs.p99)} ms, probe p99 ${formatMs(cell.probeLatencyMs.p99)} ms`;
  const overload =
    cell.overload === undefined
      ? []
      : [`${cell.overload.timeouts} of ${cell.overload.sent} requests timed out (${percent(cell.overload.timeoutShare)})`];
  const restarts = cell.restarts === undefined ? [] : [`${cell.restarts.length} restart${cell.restarts.length === 1 ? '' : 's'}`];
  const notes = [...(cell.status === 'invalid' ? [`INVALID: ${cell.reason ?? ''}`] : []), ...cell.flags, ...overload, ...restarts];
  return `${name}: ${figures}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`;
}
