/**
 * The curves of one runtime: for each cell, its server (started once per kind, checked like
 * the bench's), the answer checked, a short closed-loop run to size the ladder, then the ladder
 * of open-loop steps, each on a quiet server after /reset. A ladder stops early once two steps
 * are clearly past saturation.
 */
import type { Manifest, RuntimeName, ServerKind } from '@bench/app';
import { runLoad } from '../run/load.ts';
import { Interrupted } from '../run/measure.ts';
import type { RuntimeSpec } from '../run/runtimes.ts';
import type { CellSpec } from '../run/scenarios.ts';
import type { RunningServer } from '../run/server.ts';
import { checkAnswer } from '../run/validate.ts';
import type { RuntimeEntry } from '../report/report-types.ts';
import type { CurvePlan } from './curve-plan.ts';
import type { Curve, CurveStep } from './curve-types.ts';
import type { Generator, StepOptions } from './generator.ts';
import { ladderRates, shouldStop, summarizeCurve } from './ladder.ts';
import { openWindow, waitQuiet } from './server-figures.ts';
import { toStep } from './step.ts';
import { LOCAL_SERVERS, type ServerSide } from './server-side.ts';

export interface SweepContext {
  plan: CurvePlan;
  generator: Generator;
  manifest: Manifest;
  serverArgs: string[];
  signal: AbortSignal;
  log(line: string): void;
  /** Each finished curve, at once (written to disk by the caller: it survives interruption). */
  onCurve(curve: Curve): void;
  /** Where the servers run (default: here; --server-host: another host over ssh). */
  servers?: ServerSide;
}

/** Closed-loop connections for the ladder's reference throughput: the bench's default. */
const CLOSED_LOOP_CONNECTIONS = 10;
const CLOSED_LOOP_MIN_REQUESTS = 10;
/** Longest wait for a server to finish what a step left it. */
const QUIET_DEADLINE_MS = 20_000;
/** The discarded step before a ladder, at its lowest rate. */
const WARMUP_STEP_SEC = 0.3;

/** Seconds a step runs: stepSec, longer at low rates to hold minSamples requests, capped. */
export function stepSeconds(plan: Pick<CurvePlan, 'stepSec' | 'minSamples' | 'maxStepSec'>, ratePerSec: number): number {
  return Math.min(plan.maxStepSec, Math.max(plan.stepSec, plan.minSamples / ratePerSec));
}

export async function sweepRuntime(runtime: RuntimeName, cells: readonly CellSpec[], ctx: SweepContext): Promise<RuntimeEntry> {
  const { spec, probe: probed } = (ctx.servers ?? LOCAL_SERVERS).installation(runtime);
  if (!probed.ok) {
    ctx.log(`${runtime}: skipped: ${probed.reason}`);
    return { name: runtime, version: '', status: 'skipped', reason: probed.reason };
  }
  const entry: RuntimeEntry = { name: runtime, version: probed.version, status: 'ok', ...(spec.source === undefined ? {} : { source: spec.source }), binary: spec.binary };
  const servers = new Map<ServerKind, RunningServer | string>();
  try {
    for (const [index, cell] of cells.entries()) {
      if (ctx.signal.aborted) throw new Interrupted('interrupted');
      let server = servers.get(cell.server);
      if (server === undefined || (typeof server !== 'string' && !server.alive)) {
        server = await start(spec, cell.server, ctx);
        servers.set(cell.server, server);
      }
      const curve = typeof server === 'string' ? failed(runtime, cell, `server did not start: ${server}`) : await cellCurve(runtime, cell, server, ctx);
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
    return await (ctx.servers ?? LOCAL_SERVERS).start(spec, kind, ctx.serverArgs);
  } catch (error) {
    ctx.log(`${spec.name}: ${(error as Error).message}`);
    return (error as Error).message;
  }
}

function failed(runtime: RuntimeName, cell: CellSpec, reason: string, steps: CurveStep[] = [], closedLoopPerSec = 0, status: Curve['status'] = 'failed'): Curve {
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
    const wrong = await checkAnswer(cell.path, res, { manifest: ctx.manifest, hashCost: plan.hashCost });
    if (wrong !== undefined) return failed(runtime, cell, `answer check failed: ${wrong}`, [], 0, 'invalid');
  } catch (error) {
    return failed(runtime, cell, `answer check failed: ${(error as Error).message}`);
  }

  let closedLoopPerSec = 0;
  const steps: CurveStep[] = [];
  try {
    // A short closed-loop run (after one to warm up) sizes the ladder.
    await closedLoop(server, cell, plan.closedLoopSec / 2, plan);
    closedLoopPerSec = Math.round((await closedLoop(server, cell, plan.closedLoopSec, plan)) * 10) / 10;
    const rates = plan.rates ?? ladderRates(closedLoopPerSec, plan.ladderSteps, ...plan.ladderShares);
    if (rates.length === 0) return failed(runtime, cell, 'the closed-loop run served nothing: no ladder', [], closedLoopPerSec);
    ctx.log(`${name}: closed loop ${closedLoopPerSec} req/s; offering ${rates.join(', ')} req/s`);
    // A discarded step first: the generator's code warmed and its connections open.
    await waitQuiet(server, QUIET_DEADLINE_MS);
    await ctx.generator.runStep({ ...stepOptions(server, cell, plan, rates[0] ?? 1), durationSec: WARMUP_STEP_SEC });
    for (const rate of rates) {
      if (ctx.signal.aborted) throw new Interrupted('interrupted');
      await waitQuiet(server, QUIET_DEADLINE_MS);
      const window = await openWindow(server, QUIET_DEADLINE_MS);
      const measured = await ctx.generator.runStep(stepOptions(server, cell, plan, rate));
      if (!server.alive) return failed(runtime, cell, `server died at ${rate} req/s${server.stderrTail(3) ? `: ${server.stderrTail(3)}` : ''}`, steps, closedLoopPerSec);
      // The answers still queued on the server (timed out here) come before /stats.
      await waitQuiet(server, QUIET_DEADLINE_MS);
      const step = toStep(rate, measured, await window.stop(), plan.sloMs);
      steps.push(step);
      ctx.log(`${name} @ ${rate} req/s: achieved ${step.achievedPerSec}, p99 ${step.latencyMs.p99} ms${step.flags.length > 0 ? ` [${step.flags.join(', ')}]` : ''}`);
      if (shouldStop(steps.map((s) => ({ offeredPerSec: s.offeredPerSec, achievedPerSec: s.achievedPerSec, p99Ms: s.latencyMs.p99 })), plan.sloMs)) break;
    }
  } catch (error) {
    if (error instanceof Interrupted || ctx.signal.aborted) throw new Interrupted('interrupted');
    return failed(runtime, cell, (error as Error).message, steps, closedLoopPerSec);
  }
  const summary = summarizeCurve(
    steps.map((s) => ({ offeredPerSec: s.offeredPerSec, achievedPerSec: s.achievedPerSec, p99Ms: s.latencyMs.p99, generatorBound: s.flags.includes('generator-bound') })),
    plan.sloMs,
  );
  const stoppedEarly = steps.length < (plan.rates ?? ladderRates(closedLoopPerSec, plan.ladderSteps, ...plan.ladderShares)).length;
  return { runtime, scenario: cell.scenario, mode: cell.mode, path: cell.path, status: 'ok', closedLoopPerSec, steps, ...summary, stoppedEarly };
}

function stepOptions(server: RunningServer, cell: CellSpec, plan: CurvePlan, rate: number): StepOptions {
  return {
    url: server.url + cell.path,
    ratePerSec: rate,
    durationSec: stepSeconds(plan, rate),
    arrivals: plan.arrivals,
    seed: plan.seed,
    maxInFlight: plan.maxInFlight,
    timeoutMs: plan.timeoutMs,
  };
}

/**
 * The closed-loop throughput the ladder is sized from. A slow cell (bcrypt on a cold thread
 * pool) may finish next to nothing in a short run: the run is doubled, twice at most, until it
 * holds CLOSED_LOOP_MIN_REQUESTS answers.
 */
async function closedLoop(server: RunningServer, cell: CellSpec, durationSec: number, plan: CurvePlan): Promise<number> {
  let rate = 0;
  for (let attempt = 0, sec = durationSec; attempt < 3; attempt++, sec *= 2) {
    await waitQuiet(server, QUIET_DEADLINE_MS);
    const result = await runLoad({ url: server.url + cell.path, connections: CLOSED_LOOP_CONNECTIONS, durationSec: sec, timeoutSec: Math.ceil(plan.timeoutMs / 1000) }).done;
    rate = result.requestsPerSec;
    if (result.completed >= CLOSED_LOOP_MIN_REQUESTS) break;
  }
  return rate;
}
