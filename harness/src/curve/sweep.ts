/**
 * The curves of one runtime: for each cell, its server (started once per kind, checked like
 * the bench's), the answer checked, a short closed-loop run to place the search's first rate,
 * then the capacity search (cell-search.ts) of open-loop steps, each on a quiet server after
 * /reset. This file owns the servers; the search knows only "measure this rate".
 */
import type { RuntimeName, ScenarioSettings, ServerKind } from '@bench/app';
import { runLoad } from '../load/autocannon.ts';
import { Interrupted } from '../cli/interrupt.ts';
import type { RuntimeSpec } from '../servers/runtimes.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import type { RunningServer } from '../servers/server.ts';
import { checkAnswer, checkModesAgree } from '../servers/validate.ts';
import type { RuntimeEntry } from '../model/report.ts';
import type { CurvePlan } from './curve-plan.ts';
import type { Curve, CurveStep } from './curve-types.ts';
import type { Generator, StepOptions } from '../load/generator.ts';
import { stepSeed } from '../load/arrivals.ts';
import { searchCell, type CellSearch, type MeasureRate } from './cell-search.ts';
import { summarizeCurve } from './ladder.ts';
import { openWindow, waitQuiet } from './server-figures.ts';
import { toStep } from './step.ts';
import type { SpeedSampler } from '../system/speed-sampler.ts';
import { LOCAL_SERVERS, type ServerSide } from './server-side.ts';

export interface SweepContext {
  plan: CurvePlan;
  generator: Generator;
  /** The servers' settings, as scenario modules' verify() checks answers with them. */
  settings: ScenarioSettings;
  serverArgs: string[];
  signal: AbortSignal;
  log(line: string): void;
  /** Each finished curve, at once (written to disk by the caller: it survives interruption). */
  onCurve(curve: Curve): void;
  /** Where the servers run (default: here; --server-host: another host over ssh). */
  servers?: ServerSide;
  /** The machine-speed sampler (system/speed-sampler.ts): each step records the machine's speed during it. */
  speed?: Pick<SpeedSampler, 'window'>;
}

/** Closed-loop connections for the ladder's reference throughput: the bench's default. */
const CLOSED_LOOP_CONNECTIONS = 10;
/** Longest wait for a server to finish what a step left it. */
const QUIET_DEADLINE_MS = 20_000;
/** The discarded step before a server's first search, at a tenth of the closed-loop rate. */
const WARMUP_STEP_SEC = 0.3;
/** Servers the generator has run a step against (its discarded warm-up step is behind it). */
const generatorWarmed = new WeakSet<RunningServer>();

export async function sweepRuntime(runtime: RuntimeName, cells: readonly CellSpec[], ctx: SweepContext): Promise<RuntimeEntry> {
  const { spec, probe: probed } = (ctx.servers ?? LOCAL_SERVERS).installation(runtime);
  if (!probed.ok) {
    ctx.log(`${runtime}: skipped: ${probed.reason}`);
    return { name: runtime, version: '', status: 'skipped', reason: probed.reason };
  }
  const entry: RuntimeEntry = {
    name: runtime,
    version: probed.version,
    status: 'ok',
    ...(spec.source === undefined ? {} : { source: spec.source }),
    binary: spec.binary,
  };
  const servers = new Map<ServerKind, RunningServer | string>();
  try {
    for (const [index, cell] of cells.entries()) {
      if (ctx.signal.aborted) throw new Interrupted('interrupted');
      let server = servers.get(cell.server);
      if (server === undefined || (typeof server !== 'string' && !server.alive)) {
        server = await start(spec, cell.server, ctx);
        servers.set(cell.server, server);
      }
      const curve =
        typeof server === 'string' ? failed(runtime, cell, `server did not start: ${server}`) : await cellCurve(runtime, cell, server, ctx);
      if (typeof server === 'string') {
        entry.status = 'failed';
        entry.reason = server;
      }
      ctx.onCurve(curve);
      // Servers no later cell needs are stopped.
      if (!cells.slice(index + 1).some((c) => c.server === cell.server)) {
        const running = servers.get(cell.server);
        if (running !== undefined && typeof running !== 'string') await running.stop();
        servers.delete(cell.server);
      }
    }
  } finally {
    for (const server of servers.values()) if (typeof server !== 'string') await server.stop();
  }
  return entry;
}

async function start(spec: RuntimeSpec, kind: ServerKind, ctx: SweepContext): Promise<RunningServer | string> {
  try {
    return await (ctx.servers ?? LOCAL_SERVERS).start(spec, kind, ctx.serverArgs, ctx.signal);
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    ctx.log(`${spec.name}: ${(error as Error).message}`);
    return (error as Error).message;
  }
}

function failed(
  runtime: RuntimeName,
  cell: CellSpec,
  reason: string,
  steps: CurveStep[] = [],
  closedLoopPerSec = 0,
  status: Curve['status'] = 'failed',
): Curve {
  return {
    runtime,
    scenario: cell.scenario,
    mode: cell.mode,
    path: cell.path,
    status,
    reason,
    closedLoopPerSec,
    steps,
    capacityPerSec: null,
    capacityAtLeast: false,
    kneePerSec: null,
    stoppedEarly: false,
  };
}

async function cellCurve(runtime: RuntimeName, cell: CellSpec, server: RunningServer, ctx: SweepContext): Promise<Curve> {
  const { plan } = ctx;
  const name = `${runtime} ${cell.scenario}/${cell.mode}`;
  try {
    const res = await fetch(server.url + cell.path, { signal: AbortSignal.timeout(Math.ceil(plan.timeoutMs) + 10_000) });
    const copy = res.clone();
    const wrong =
      (await checkAnswer(cell.path, res, { settings: ctx.settings })) ??
      (await checkModesAgree(cell.path, await copy.text(), (path) =>
        fetch(server.url + path, { signal: AbortSignal.timeout(Math.ceil(plan.timeoutMs) + 10_000) }),
      ));
    if (wrong !== undefined) return failed(runtime, cell, `answer check failed: ${wrong}`, [], 0, 'invalid');
  } catch (error) {
    return failed(runtime, cell, `answer check failed: ${(error as Error).message}`);
  }

  let closedLoopPerSec = 0;
  const steps: CurveStep[] = [];
  let search: CellSearch | undefined;
  let warmupStep: Curve['warmupStep'];
  try {
    // A short closed-loop run (after one to warm up, which needs no answers to count) sizes the search.
    const warmupSec = plan.closedLoopWarmupSec ?? plan.closedLoopSec / 2;
    if (warmupSec > 0) await closedLoop(server, cell, warmupSec, plan, 0);
    closedLoopPerSec = Math.round((await closedLoop(server, cell, plan.closedLoopSec, plan, plan.closedLoopMinAnswers ?? 10)) * 10) / 10;
    if (plan.rates === undefined && !(closedLoopPerSec > 0))
      return failed(runtime, cell, 'the closed-loop run served nothing: no rate to start from', [], closedLoopPerSec);
    ctx.log(
      `${name}: closed loop ${closedLoopPerSec} req/s; ${plan.rates === undefined ? 'searching' : `offering ${plan.rates.join(', ')} req/s`} (${plan.arrivals} arrivals)`,
    );
    // A discarded step first, against a server the generator has not yet loaded: its code warmed
    // and its first connections open. Later cells of the same server need none (the generator
    // process is warm, each step opens its connections before sending, the closed-loop run warmed
    // the route): it cost 0.4 s a cell, 4.7 of the 62 s a --quick run took on Bun alone.
    if (!generatorWarmed.has(server)) {
      await waitQuiet(server, QUIET_DEADLINE_MS, ctx.signal);
      const options = stepOptions(server, cell, plan, plan.rates?.[0] ?? Math.max(1, closedLoopPerSec * 0.1));
      warmupStep = { offeredPerSec: options.ratePerSec, sent: (await ctx.generator.runStep(options)).sent };
      generatorWarmed.add(server);
    }
    // Quiet since the last step's own wait (nothing but /stats reached the server since): the next
    // step needs no second wait, which costs at least two /stats reads 50 ms apart.
    let quiet = false;
    const measure: MeasureRate = async (rate, { durationSec, decide, phase }) => {
      if (ctx.signal.aborted) throw new Interrupted('interrupted');
      if (!quiet) await waitQuiet(server, QUIET_DEADLINE_MS, ctx.signal);
      quiet = false;
      const window = await openWindow(server, QUIET_DEADLINE_MS);
      const from = Date.now();
      const measured = await ctx.generator.runStep({ ...stepOptions(server, cell, plan, rate), durationSec, decide });
      const machine = ctx.speed?.window(from, Date.now());
      if (!server.alive) throw new ServerDied(`server died at ${rate} req/s${server.stderrTail(3) ? `: ${server.stderrTail(3)}` : ''}`);
      // The answers still queued on the server (timed out here) come before /stats.
      await waitQuiet(server, QUIET_DEADLINE_MS, ctx.signal);
      quiet = true;
      const step = toStep(rate, measured, await window.stop(), plan.sloMs, { capSec: durationSec, phase });
      if (machine !== undefined) step.machine = machine;
      steps.push(step);
      return step;
    };
    search = await searchCell(
      plan,
      closedLoopPerSec,
      measure,
      (step, where) => ctx.log(`${name} @ ${stepLine(step)}${where === '' ? '' : `; ${where}`}`),
      () => ctx.signal.aborted,
    );
  } catch (error) {
    if (error instanceof Interrupted || ctx.signal.aborted) throw new Interrupted('interrupted');
    return failed(runtime, cell, (error as Error).message, steps, closedLoopPerSec);
  }
  const summary = summarizeCurve(
    steps.map((s) => ({
      offeredPerSec: s.offeredPerSec,
      achievedPerSec: s.achievedPerSec,
      p99Ms: s.latencyMs.p99,
      generatorBound: s.flags.includes('generator-bound'),
    })),
    plan.sloMs,
  );
  const { capacity } = search;
  return {
    runtime,
    scenario: cell.scenario,
    mode: cell.mode,
    path: cell.path,
    status: 'ok',
    closedLoopPerSec,
    steps,
    capacityPerSec: capacity.passPerSec,
    capacityAtLeast: capacity.passPerSec !== null && capacity.failPerSec === null,
    capacity,
    kneePerSec: summary.kneePerSec,
    stoppedEarly: search.stoppedEarly,
    ...(warmupStep === undefined ? {} : { warmupStep }),
  };
}

class ServerDied extends Error {}

/** "46 req/s: pass (312 requests, 0 over, share ≤ 0.96 %) p99 62 ms [flags]" for the progress line. */
function stepLine(step: CurveStep): string {
  const d = step.decision;
  const verdict =
    d === undefined
      ? step.meetsTarget
        ? 'meets target'
        : 'misses target'
      : `${step.meetsTarget ? 'pass' : d.outcome === 'pass' ? 'fail (did not keep up)' : d.outcome} after ${d.stoppedAtSec} s (${d.requests} requests${d.designEffect === undefined ? '' : ` (design effect ${d.designEffect})`}, ${d.overTarget} over, share in [${(d.lowerBound * 100).toFixed(2)}, ${(d.upperBound * 100).toFixed(2)}] %)`;
  return `${step.offeredPerSec} req/s: ${verdict}, achieved ${step.achievedPerSec}, p99 ${step.latencyMs.p99} ms${step.flags.length > 0 ? ` [${step.flags.join(', ')}]` : ''}`;
}

function stepOptions(server: RunningServer, cell: CellSpec, plan: CurvePlan, rate: number): StepOptions {
  return {
    url: server.url + cell.path,
    ratePerSec: rate,
    durationSec: WARMUP_STEP_SEC,
    arrivals: plan.arrivals,
    seed: stepSeed(plan.seed, rate),
    maxInFlight: plan.maxInFlight,
    timeoutMs: plan.timeoutMs,
  };
}

/**
 * The closed-loop throughput the search is sized from. A slow cell (bcrypt on a cold thread
 * pool) may finish next to nothing in a short run: the run is doubled, twice at most, until it
 * holds `minRequests` answers (the warm-up before it asks none: it is not counted).
 */
async function closedLoop(
  server: RunningServer,
  cell: CellSpec,
  durationSec: number,
  plan: CurvePlan,
  minRequests: number,
): Promise<number> {
  let rate = 0;
  for (let attempt = 0, sec = durationSec; attempt < 3; attempt++, sec *= 2) {
    await waitQuiet(server, QUIET_DEADLINE_MS);
    const result = await runLoad({
      url: server.url + cell.path,
      connections: CLOSED_LOOP_CONNECTIONS,
      durationSec: sec,
      timeoutSec: Math.ceil(plan.timeoutMs / 1000),
    }).done;
    rate = result.requestsPerSec;
    if (result.completed >= minRequests) break;
  }
  return rate;
}
