import { Interrupted } from '../cli/interrupt.ts';
import { mergeReport } from '../report/merge.ts';
import { readCells, writeCell, writeMeta } from '../report/output.ts';
import type { Plan } from './plan.ts';
import { scheduleSettings } from './settings.ts';
import { formatMs, formatRps } from '../report/text/formats.ts';
import { percent } from '../report/flags.ts';
import type { CellResult } from '../model/cell.ts';
import type { Report } from '../model/report.ts';
import { withFeatures, type ReportFeatures } from '../report/section.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import { benchGroup, type PairNeed, type ScheduleContext } from './schedule.ts';
import { runLanes, type LaneSpec } from './lanes.ts';
import { stopKind } from '../servers/quiet.ts';
import { scenarioGroups, weightedPace } from './budget.ts';
import type { RunningServer } from '../servers/server.ts';
import { createPhaseClock, phaseKind } from './phase-clock.ts';
import { hopOptions, withHopCosts } from './sweep-hop.ts';
import { profilePhase } from './profile-runs.ts';
import { closeRun, measureRoundTrip, primeFor, recordMachineSpeed, setUpRun, type SetupOptions } from './run-setup.ts';

export interface BenchOptions extends SetupOptions {
  /**
   * What is measured against what, before --processes multiplies it (bench-cli resolves
   * plan.versions before anything starts, so an unknown version exits 2; bench:ab gives its A and
   * B sides). Default: the plan's versions resolved here, or each runtime's pinned installation.
   */
  lanes?: LaneSpec[];
  /** Called as each measured run starts, with its server (fault-injection tests kill or stop it). */
  onRunStarted?: (server: RunningServer, cell: CellSpec) => void;
  /** What the features add to the report (versions compared, their sections); given by bench-cli. */
  features?: ReportFeatures;
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
 * The whole run: what it needs once (bench/run-setup.ts), then for each cell, on each runtime, check and warm up, then the measured runs,
 * interleaved across runtimes (or one runtime after another with --schedule sequential). Only
 * one server is ever under load. Each finished cell goes to disk at once; at the end (or on
 * interruption) the cells on disk are merged into the report returned (the entry point renders
 * and writes it: report/bench-files.ts).
 */
export async function runBench(plan: Plan, options: BenchOptions): Promise<BenchOutcome> {
  const { progress } = options;
  const clock = createPhaseClock();
  const setup = await setUpRun(plan, options);
  const { runDir, meta, cells, swept, host, signal } = setup;
  const passes = plan.connections;
  const perUnitSec = plan.warmupSec + plan.runs * (plan.durationSec + 0.4) + 0.3;
  let done = 0;
  let total = 0;
  let groupUnits = 0;
  // The pace starts with the first cell: what setup took (input files, fingerprint) comes off the budget first.
  let pace: ((done: number, current: number, need?: number) => boolean) | undefined;
  const context: ScheduleContext = {
    plan: scheduleSettings(plan, passes[0]),
    probe: setup.probe,
    settings: setup.settings,
    evict: setup.evict,
    signal,
    serverArgs: setup.servers.args,
    serverEnv: setup.servers.env,
    faultUsPerPage: setup.faultUsPerPage,
    serverCpus: setup.servers.cpus,
    loadWorkers: setup.loadWorkers,
    wrk: setup.wrk,
    host,
    log: setup.log,
    speed: setup.speed,
    reference: setup.reference,
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
    const run = runLanes(plan, setup, options.lanes);
    const lanes = run.lanes;
    total = cells.length * (lanes.length + run.skipped) * passes.length;
    done = run.skipped * cells.length * passes.length;
    await measureRoundTrip(setup, lanes[0]?.spec);
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
          await primeFor(setup, group2);
          if (plan.budgetSec !== undefined && pace === undefined)
            pace = weightedPace(Math.max(0, plan.budgetSec - (Date.now() - setup.startedAt) / 1000), total, Date.now(), perUnitSec);
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
    if (plan.profile) await profilePhase(plan, lanes, setup);
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    await closeRun(setup);
    progress.done();
  }
  recordMachineSpeed(setup);
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
