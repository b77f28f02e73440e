import type { ServerKind } from '@bench/app';
import { failedCell, summarizeCell } from './cell.ts';
import { Interrupted } from '../cli/interrupt.ts';
import { crossCheckRun, measureRun, prepareCell, ServerLost, type CellContext } from './measure.ts';
import type { ScheduleSettings } from './settings.ts';
import type { CellResult } from '../model/cell.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import { stopKind } from '../servers/quiet.ts';
import { startServer, type RunningServer } from '../servers/server.ts';
import { laneName, laneStart, type Lane } from './lanes.ts';
import type { RunSetup } from './run-setup.ts';
import { halfWidthShare } from '../stats/paired.ts';
import { markSlowRuns, precisionTarget, withCrossCheck } from './run-rules.ts';
import { alternation, type LaneCell, type RoundPolicy, type RoundSteps } from './round-policy.ts';
import { driftCancelled } from './reference.ts';
import { keptRuns } from '../system/host-speed.ts';

/** What the scheduler reads of the run's setup (bench/run-setup.ts). */
export type ScheduleSetup = Pick<
  RunSetup,
  'probe' | 'settings' | 'evict' | 'servers' | 'host' | 'loadWorkers' | 'faultUsPerPage' | 'wrk' | 'speed' | 'reference' | 'signal' | 'log'
>;

export interface ScheduleContext {
  /** The settings of the pass under way (bench/settings.ts): its connections and run figures. */
  plan: ScheduleSettings;
  setup: ScheduleSetup;
  /** How the group's rounds go and when it has enough (bench/round-policy.ts); default: plain alternation. */
  policy?: RoundPolicy;
  /** How a cell is prepared and measured on a server; default: wall clock (bench/measure.ts). */
  measure?: CellMeasure;
  /** How a lane's server starts; default: startLaneServer (on this host, or the run's server host). */
  startServer?: (lane: Lane, kind: ServerKind, setup: ScheduleSetup) => Promise<RunningServer>;
  /**
   * Whether the run's time budget allows runs beyond the plan's minimum now (default: yes), for
   * a cell whose need (bench/budget.ts budgetNeed: 1 = at its goal or out of reach, up to 3) weighs its claim.
   */
  mayExtend?: (need: number) => boolean;
  onPhase(runtime: string, cell: CellSpec, phase: string): void;
  onRunStarted?: (server: RunningServer, cell: CellSpec) => void;
}

/** How a cell is checked, warmed up and measured on one server: bench/measure.ts's wall clock by default. */
export interface CellMeasure {
  prepare: typeof prepareCell;
  run: typeof measureRun;
  crossCheck: typeof crossCheckRun;
}

const wallClock: CellMeasure = { prepare: prepareCell, run: measureRun, crossCheck: crossCheckRun };

/** The group being measured: how to keep its finished runs when the process must end now. */
let unfinishedGroup: (() => void) | undefined;

/**
 * For a stop at once (a second Ctrl-C): the runs the group in progress has finished, settled
 * and handed to its onInterrupted synchronously, as an orderly interruption would.
 */
export function keepUnfinishedGroup(): void {
  unfinishedGroup?.();
}

/**
 * The cells of one scenario (its modes) on every lane given. Every server the group needs is
 * started, each cell checked and warmed up, then the measured runs go in rounds as the policy
 * orders them (bench/round-policy.ts: plain alternation, so the runs compared in a ratio are
 * neighbours in time and a drift of the machine lands on both sides of it; bench:ab's pairs of
 * processes). Each run carries its round, which pairs it with the other cells' runs of that round
 * (stats/paired.ts). After the rounds, the cells the plan cross-checks get a wrk run.
 */
export async function benchGroup(
  cells: readonly CellSpec[],
  lanes: Lane[],
  ctx: ScheduleContext,
  /**
   * Called when the group is interrupted, with its cells that had finished runs (settled from
   * those runs, reason "interrupted"): the runs already measured survive on disk.
   */
  onInterrupted?: (partial: CellResult[]) => void,
): Promise<CellResult[]> {
  const byLane = lanes.map((lane) =>
    cells.map(
      (cell): LaneCell => ({
        lane,
        cell,
        meta: {
          runtime: lane.spec.name,
          scenario: cell.scenario,
          mode: cell.mode,
          path: cell.path,
          ...(cell.query === undefined ? {} : { query: cell.query }),
          ...(lane.processes === undefined ? {} : { processes: lane.processes }),
        },
        runs: [],
        restarts: [],
        pids: [],
      }),
    ),
  );
  const states = byLane.flat();
  // A group runs its cells' runs in rounds, so an interruption can leave every cell of it
  // unfinished: the runs measured so far are settled and handed back before giving up, by the
  // orderly stop below or, synchronously, by a stop at once (keepUnfinishedGroup).
  const keepPartial = () => {
    const partial = states
      .filter((state) => state.result !== undefined || state.runs.length > 0)
      .map((state) =>
        withInstallation(
          { ...(state.result ?? summarizeLane(state, ctx)), reason: `interrupted after ${state.runs.length} run(s)` },
          state.lane,
        ),
      );
    if (partial.length > 0) onInterrupted?.(partial);
  };
  unfinishedGroup = keepPartial;
  try {
    await startServers(cells, lanes, ctx);
    for (const state of states) await prepare(state, state.cell, ctx);
    const steps: RoundSteps = {
      cells,
      lanes,
      byLane,
      settings: ctx.plan,
      ...(ctx.mayExtend === undefined ? {} : { mayExtend: ctx.mayExtend }),
      log: ctx.setup.log,
      restart: (round, starting) => restartServers(cells, lanes, ctx, round, starting),
      reference: async () => await ctx.setup.reference?.(),
      run: (state, round, referenceMs) => runOnce(state, state.cell, ctx, round, referenceMs),
    };
    const policy = ctx.policy ?? alternation;
    for (let round = 1; await policy.round(round, steps); round++);
  } catch (error) {
    if (error instanceof Interrupted) keepPartial();
    throw error;
  } finally {
    unfinishedGroup = undefined;
  }
  if (ctx.setup.wrk !== undefined) {
    for (const state of states)
      if (state.result === undefined && ctx.plan.crossCheck.includes(state.cell.scenario))
        await crossCheck(state, state.cell, ctx, ctx.setup.wrk);
  }
  return states.map((state) => withInstallation(state.result ?? summarizeLane(state, ctx), state.lane));
}

/**
 * Every server the group's cells need, on every lane, started side by side: a start is not
 * measured (each is checked, then warmed up, one at a time before its runs), so there is no
 * reason to wait out each runtime's start-up in turn.
 */
async function startServers(cells: readonly CellSpec[], lanes: readonly Lane[], ctx: ScheduleContext): Promise<void> {
  const kinds = [...new Set(cells.map((c) => c.server))];
  await Promise.all(lanes.flatMap((lane) => kinds.map((kind) => serverFor(lane, kind, ctx))));
}

/**
 * Replaces the group's servers on every lane (`starting`: only on these; the others' are
 * stopped): the next run of each cell checks and warms up a fresh one. The old processes stop
 * while the new ones start: nothing is measured during either, and the check waits for both.
 */
async function restartServers(
  cells: readonly CellSpec[],
  lanes: Lane[],
  ctx: ScheduleContext,
  round: number,
  starting: readonly Lane[] = lanes,
): Promise<void> {
  // A new set of server processes is its own phase: the run before it ended when its figures were
  // read, and charging the start-up to it (or to the next run) would make a run look seconds
  // longer in the report's timing than it took.
  const [first] = cells;
  if (first !== undefined) ctx.onPhase(lanes.map(laneName).join(' '), first, 'restart (new server processes)');
  const kinds = [...new Set(cells.map((c) => c.server))];
  const detached = lanes.map((lane) => {
    const servers = new Map<ServerKind, RunningServer>();
    for (const kind of kinds) {
      const server = lane.servers.get(kind);
      if (server !== undefined) servers.set(kind, server);
      lane.servers.delete(kind);
    }
    return { servers };
  });
  await Promise.all([...kinds.map((kind) => stopKind(detached, kind, ctx.plan.drainCapSec)), startServers(cells, starting, ctx)]);
  const per = ctx.plan.roundsPerProcess;
  const scenario = cells[0]?.scenario ?? '';
  if (per === undefined) ctx.setup.log(`bench: ${scenario} servers restarted midway: the runs after this use a second server process`);
  else if (round === per + 1) ctx.setup.log(`bench: ${scenario} servers restarted: a new pair of server processes every ${per} rounds`);
}

/** A cell of a lane the plan named by version carries that installation's label and exact version. */
export function withInstallation(cell: CellResult, lane: Pick<Lane, 'spec' | 'entry'>): CellResult {
  if (lane.spec.label === undefined) return cell;
  const { runtime, ...rest } = cell;
  return { runtime, runtimeVersion: lane.entry.version, runtimeLabel: lane.spec.label, ...rest };
}

async function crossCheck(state: LaneCell, cell: CellSpec, ctx: ScheduleContext, wrk: string): Promise<void> {
  const server = state.lane.servers.get(cell.server);
  if (server === undefined || !server.alive) return;
  await guarded(state, cell.server, ctx.setup.signal, async () => {
    const context = cellContext(state, server, cell, ctx);
    const result = await (ctx.measure ?? wallClock).crossCheck(cell, context, wrk);
    state.wrk = { requestsPerSec: result.requestsPerSec, connections: ctx.plan.connections, threads: Math.min(2, ctx.plan.connections) };
  });
}

function summarizeLane(state: LaneCell, ctx: ScheduleContext): CellResult {
  const plan = ctx.plan;
  const kept = keptRuns(state.runs);
  const summary = summarizeCell(state.meta, kept, {
    connections: plan.connections,
    timeoutSec: plan.timeoutSec,
    minRequests: plan.minRequests,
    faultUsPerPage: ctx.setup.faultUsPerPage,
  });
  // Every run stays in runDetails; the figures come from those not taken on a slow machine.
  const excluded = state.runs.length - kept.length;
  const cancelled = driftCancelled(kept);
  const result = withCrossCheck(
    {
      ...summary,
      runDetails: [...state.runs],
      ...(excluded === 0 ? {} : { slowRunsExcluded: excluded }),
      ...(cancelled === undefined || summary.status === 'failed' ? {} : { driftCancelled: cancelled }),
    },
    state.wrk,
  );
  const caches = state.runs.map((r) => r.fileCache).filter((c) => c !== undefined);
  const restarts = [...state.restarts, ...(result.restarts ?? [])];
  return {
    ...result,
    ...(restarts.length === 0 ? {} : { restarts }),
    ...(caches.length === 0 ? {} : { fileCache: caches.every((c) => c === 'cold') ? ('cold' as const) : ('warm' as const) }),
    ...(plan.targetCv === undefined ? {} : { precision: { targetCv: plan.targetCv, met: result.requestsPerSec.cv <= plan.targetCv } }),
    ...precisionGoal(result, plan),
    ...(state.loop === undefined || result.status === 'failed' ? {} : { loop: state.loop }),
  };
}

function precisionGoal(result: CellResult, plan: ScheduleSettings): Pick<CellResult, 'precisionGoal'> {
  if (plan.targetPrecision === undefined || result.status === 'failed') return {};
  const goal = precisionTarget(plan.targetPrecision, result.scenario);
  return { precisionGoal: { halfWidthShare: goal, met: halfWidthShare(result.requestsPerSec) <= goal } };
}

async function prepare(state: LaneCell, cell: CellSpec, ctx: ScheduleContext): Promise<void> {
  const server = await serverFor(state.lane, cell.server, ctx);
  if (typeof server === 'string') {
    state.result = failedCell(state.meta, `server did not start: ${server}`);
    return;
  }
  if (server.health.pools !== undefined) state.meta = { ...state.meta, pools: server.health.pools };
  await guarded(state, cell.server, ctx.setup.signal, async () => {
    const context = cellContext(state, server, cell, ctx);
    const { checkError, loop, atSpeedAfter } = await (ctx.measure ?? wallClock).prepare(cell, context);
    state.preparedOn = context.server.pid;
    state.loop = loop ?? state.loop;
    state.atSpeedAfter ??= atSpeedAfter;
    if (checkError !== undefined) {
      state.result = summarizeCell(state.meta, [], {
        connections: ctx.plan.connections,
        timeoutSec: ctx.plan.timeoutSec,
        validationError: checkError,
      });
    }
  });
}

async function runOnce(state: LaneCell, cell: CellSpec, ctx: ScheduleContext, round: number, referenceMs?: number): Promise<void> {
  const current = state.lane.servers.get(cell.server);
  // Another cell of the group lost the shared server (it failed that cell): this one gets a new
  // server, checked and warmed up again, instead of failing with it.
  if (current === undefined || !current.alive || current.pid !== state.preparedOn) {
    await prepare(state, cell, ctx);
    if (state.result !== undefined) return;
  }
  const server = state.lane.servers.get(cell.server);
  if (server === undefined || !server.alive) {
    state.result = failedCell(state.meta, 'server lost before the run');
    return;
  }
  const total = Math.max(ctx.plan.runs, round);
  await guarded(state, cell.server, ctx.setup.signal, async () => {
    const context = cellContext(state, server, cell, ctx, false);
    const from = Date.now();
    const run = await (ctx.measure ?? wallClock).run(cell, context, `run ${round}/${total}`);
    // A restart inside the run checked and warmed the new server for this cell.
    state.preparedOn = context.server.pid;
    const machine = ctx.setup.speed?.window(from, Date.now());
    if (!state.pids.includes(context.server.pid)) state.pids.push(context.server.pid);
    state.runs.push({
      ...run,
      round,
      serverProcess: state.pids.indexOf(context.server.pid) + 1,
      ...(machine === undefined ? {} : { machine }),
      ...(referenceMs === undefined ? {} : { referenceMs }),
    });
    markSlowRuns(state.runs);
  });
}

/**
 * A lost server (dead or hung) fails this lane's cell and is stopped; the next cell starts a
 * new one. Anything that breaks while the run is being interrupted is the interruption.
 */
async function guarded(state: LaneCell, kind: ServerKind, signal: AbortSignal, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (signal.aborted) throw new Interrupted('interrupted');
    if (!(error instanceof ServerLost)) throw error;
    state.result = failedCell(state.meta, error.message);
    await state.lane.servers.get(kind)?.stop();
    state.lane.servers.delete(kind);
  }
}

/**
 * `recordRestarts`: whether a restart is noted on the cell here (outside runs) or by the run
 * that needed it (measureRun puts it in its RunResult).
 */
function cellContext(state: LaneCell, server: RunningServer, cell: CellSpec, ctx: ScheduleContext, recordRestarts = true): CellContext {
  return {
    server,
    restart: async (reason) => {
      if (recordRestarts) state.restarts.push(reason);
      ctx.setup.log(`${laneName(state.lane)} ${cell.scenario}/${cell.mode}: ${reason}`);
      // No grace: a server is restarted because it is still working through a backlog, so its
      // SIGTERM handler runs only behind that backlog and the grace would be waited out in full.
      await state.lane.servers.get(cell.server)?.stop({ graceMs: 0 });
      state.lane.servers.delete(cell.server);
      const fresh = await serverFor(state.lane, cell.server, ctx);
      if (typeof fresh === 'string') throw new ServerLost(`could not restart the server: ${fresh}`);
      return fresh;
    },
    plan: ctx.plan,
    ...(state.atSpeedAfter === undefined ? {} : { atSpeedAfter: state.atSpeedAfter }),
    ...(state.loop === undefined ? {} : { loopChecked: true }),
    loadWorkers: ctx.setup.loadWorkers,
    probe: ctx.setup.probe,
    settings: ctx.setup.settings,
    evict: ctx.setup.evict,
    host: ctx.setup.host,
    signal: ctx.setup.signal,
    onPhase: (phase) => ctx.onPhase(laneName(state.lane), cell, phase),
    onRunStarted: (running) => ctx.onRunStarted?.(running, cell),
  };
}

/** The lane's running server of this kind, started if needed; or why it cannot start. */
async function serverFor(lane: Lane, kind: ServerKind, ctx: ScheduleContext): Promise<RunningServer | string> {
  const known = lane.startErrors.get(kind);
  if (known !== undefined) return known;
  const running = lane.servers.get(kind);
  if (running?.alive === true) return running;
  if (ctx.setup.signal.aborted) throw new Interrupted('interrupted');
  try {
    const server = await (ctx.startServer ?? startLaneServer)(lane, kind, ctx.setup);
    lane.servers.set(kind, server);
    // The pools this server runs with, as it named them: on the runtime's entry (first lane) and its cells.
    if (server.health.pools !== undefined && kind === 'hono') lane.entry.pools ??= server.health.pools;
    return server;
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    const reason = (error as Error).message;
    lane.startErrors.set(kind, reason);
    lane.entry.status = 'failed';
    lane.entry.reason = reason;
    ctx.setup.log(`${laneName(lane)}: ${reason}`);
    return reason;
  }
}

/** A lane's server of this kind, on this host or (--server-host) on the run's server host. */
function startLaneServer(lane: Lane, kind: ServerKind, setup: ScheduleSetup): Promise<RunningServer> {
  const { host, servers, signal } = setup;
  return host !== undefined
    ? host.startServer(lane.spec, {
        raw: kind === 'raw',
        // The server host's wrapper passes --processes itself (remote/remote-server.ts).
        serverArgs: laneStart(lane, servers, false).serverArgs,
        signal,
        ...(lane.processes === undefined ? {} : { processes: lane.processes }),
      })
    : startServer(lane.spec, { raw: kind === 'raw', ...laneStart(lane, servers, true), signal });
}
