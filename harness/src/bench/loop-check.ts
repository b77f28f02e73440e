/**
 * Before a cell's runs: the server's own check of whether the cell's mode leaves the event loop
 * (the app's /loop-check/<name>/<mode>, same query as the cell's route). Its ticks share goes on
 * the cell; report/loop-verdict.ts turns it, with the loop lag against sync, into words.
 */
import { LOOP_CHECK_PREFIX, type LoopCheckAnswer } from '@bench/app';
import type { LoopUse } from '../model/cell.ts';
import { ServerLost, whileAlive } from '../servers/liveness.ts';
import { scenarioModule, type CellSpec } from '../servers/scenarios.ts';
import type { RunningServer } from '../servers/server.ts';
import { hungAfterMs } from '../servers/server-control.ts';

/** What the check needs of a cell's context. */
interface LoopCheckContext {
  server: RunningServer;
  plan: { timeoutSec: number };
  onPhase(phase: string): void;
}

/**
 * The check's figures for a scenario module's cell on the Hono server; undefined for hello and
 * the raw server, or when the server does not answer the check (an older app): the verdict then
 * rests on the loop lag alone. Throws ServerLost when the server dies or hangs meanwhile.
 */
export async function checkLoopUse(spec: CellSpec, ctx: LoopCheckContext): Promise<LoopUse | undefined> {
  if (spec.server !== 'hono' || scenarioModule(spec.scenario) === undefined) return undefined;
  // Counted with the answer check in the run's timing: both are what a cell costs before its warm-up.
  ctx.onPhase('check (loop)');
  const path = `${LOOP_CHECK_PREFIX}${spec.path}`;
  const abort = new AbortController();
  try {
    const res = await whileAlive(ctx.server, fetch(ctx.server.url + path, { signal: abort.signal }), {
      hungAfterMs: hungAfterMs(ctx.plan),
      deadlineMs: ctx.plan.timeoutSec * 1000,
      what: `the loop check of ${spec.path}`,
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      return undefined;
    }
    const body = (await res.json()) as Partial<LoopCheckAnswer>;
    const { ticksShare, calls, elapsedMs } = body;
    if (typeof ticksShare !== 'number' || typeof calls !== 'number' || typeof elapsedMs !== 'number') return undefined;
    return { ticksShare, calls, elapsedMs };
  } catch (error) {
    abort.abort();
    if (error instanceof ServerLost) throw error;
    return undefined;
  }
}
