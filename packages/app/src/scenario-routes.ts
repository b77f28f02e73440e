import type { Context, Hono } from 'hono';
import { BadRequest, WorkerTimeout } from './errors.ts';
import { checkLoop } from './loop-check.ts';
import type { ScenarioMode, ScenarioModule, ScenarioSettings } from './scenario-contract.ts';
import type { LoadedScenario } from './scenario-loader.ts';
import type { ScenarioPool } from './workloads/scenario-pool.ts';

/**
 * Every scenario module's routes: /<name>/sync runs sync() on the loop, /<name>/async its async()
 * when it has one, /<name>/worker sync() in the worker pool. The same code for the built-ins and
 * the user's own modules. Beside each, /loop-check/<name>/<mode> (same query) says whether that
 * mode's call leaves the event loop (loop-check.ts); the harness asks it before measuring.
 */
export function mountScenarios(app: Hono, scenarios: readonly LoadedScenario[], pool: ScenarioPool, settings: ScenarioSettings): void {
  for (const { module: mod, unavailable } of scenarios) {
    if (unavailable !== undefined) {
      const why = `${mod.name} is not available on this server: ${unavailable}`;
      for (const mode of ['sync', 'async', 'worker']) app.get(`/${mod.name}/${mode}`, (c) => c.json({ error: why }, 503));
      continue;
    }
    const read = (c: Context) => readInput(mod, c, settings);
    const send = (c: Context, answer: unknown, input: unknown, mode: ScenarioMode) => {
      const body = mod.respond === undefined ? answer : mod.respond(answer, input, mode);
      return body instanceof Response ? body : c.json((body ?? null) as object);
    };
    // Kept a plain function (no await): the loop mode adds nothing to the work it runs.
    app.get(`/${mod.name}/sync`, (c) => {
      const input = read(c);
      const answer = mod.sync(input);
      // An async sync() would free the loop while "on the loop" is what this route measures.
      if (answer instanceof Promise) throw new Error(`${mod.name}: sync() returned a promise; the non-blocking version belongs in async()`);
      return send(c, answer, input, 'sync');
    });
    const offLoop = mod.async;
    if (offLoop !== undefined) {
      app.get(`/${mod.name}/async`, async (c) => {
        const input = read(c);
        return send(c, await offLoop(input), input, 'async');
      });
    }
    const inWorker = (input: unknown) => inPool(pool, mod, input);
    app.get(`/${mod.name}/worker`, async (c) => {
      const input = read(c);
      return send(c, await inWorker(input), input, 'worker');
    });
    const calls: Partial<Record<ScenarioMode, (input: unknown) => unknown>> = {
      sync: (input) => mod.sync(input),
      worker: inWorker,
      ...(offLoop === undefined ? {} : { async: offLoop }),
    };
    for (const [mode, call] of Object.entries(calls)) {
      app.get(`${LOOP_CHECK_PREFIX}/${mod.name}/${mode}`, async (c) => {
        const input = read(c);
        return c.json(await checkLoop(mode, () => call(input)));
      });
    }
  }
}

/** sync() in the pool, ended at the module's timeoutMs when it has one (a 504 naming it). */
async function inPool(pool: ScenarioPool, mod: ScenarioModule, input: unknown): Promise<unknown> {
  try {
    return await pool.run(mod.name, input, mod.timeoutMs);
  } catch (error) {
    if (mod.timeoutMs !== undefined && (error as Error).name === 'AbortError')
      throw new WorkerTimeout(
        `${mod.name}: the worker call was ended after ${mod.timeoutMs} ms (the module's timeoutMs); its thread was terminated`,
      );
    throw error;
  }
}

/** Where the loop checks are served: not counted in /stats, as they are not load. */
export const LOOP_CHECK_PREFIX = '/loop-check';

/** The module's input from the query; a RangeError (a bound) is the client's mistake: a 400 naming it. */
function readInput(mod: ScenarioModule, c: Context, settings: ScenarioSettings): unknown {
  if (mod.input === undefined) return undefined;
  try {
    return mod.input(new URL(c.req.url).searchParams, settings);
  } catch (error) {
    if (error instanceof RangeError) throw new BadRequest(error.message);
    throw error;
  }
}
