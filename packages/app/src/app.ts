import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { BOUNDS, type AppConfig } from './config.ts';
import { BadRequest, WorkerTimeout } from './errors.ts';
import { LagSampler } from './lag-sampler.ts';
import { RouteStats } from './route-stats.ts';
import type { AppContext, RouteGroup } from './routes/context.ts';
import { helloRoutes } from './routes/hello.ts';
import { statsRoutes } from './routes/stats.ts';
import type { ScenarioSettings } from './scenario-contract.ts';
import { loadScenarios, selectScenarios, setupScenarios, type LoadedScenario } from './scenario-loader.ts';
import { LOOP_CHECK_PREFIX, mountScenarios } from './scenario-routes.ts';
import { ScenarioPool } from './workloads/scenario-pool.ts';

/** The app's own routes; every scenario is a module in scenarios/ (or --scenario-file), mounted by mountScenarios. */
const ROUTE_GROUPS: RouteGroup[] = [helloRoutes, statsRoutes];

/** Routes that describe the server rather than load it: not counted in /stats. */
const UNCOUNTED = new Set(['/stats', '/stats/late', '/reset', '/health']);

/** Runtimes' own limits on the request head differ (16 KiB on Node and Bun, more on Deno). */
const MAX_URL_LENGTH = 2048;

/** The Hono app plus what it started (worker pool, lag timer), stopped by `close()`. */
export type BenchApp = Hono & { close(): Promise<void>; scenarios: readonly LoadedScenario[] };

/**
 * Loads the scenario modules it serves and runs their setup() here and in each worker thread before it
 * returns, so the server listens (and /health answers) only once all are ready. A module that
 * does not load, breaks the contract or throws in setup() is an error naming its file.
 */
export async function createApp(config: AppConfig): Promise<BenchApp> {
  checkConfig(config);
  const settings = scenarioSettings(config);
  const loaded = await loadScenarios(config.scenarioFiles, config.scenarios);
  const scenarios = await selectScenarios(loaded, config.scenarios, config.scenarioFiles);
  await setupScenarios(scenarios, settings);
  // Threads load only the scenarios that set up here: an unavailable one would fail every thread.
  const available = scenarios.filter((s) => s.unavailable === undefined).map((s) => s.url);
  const pool = new ScenarioPool(config.workerPoolSize, { modules: available, settings }, config.workerUrl);
  try {
    await pool.ready;
  } catch (error) {
    await pool.close();
    throw error;
  }
  const ctx: AppContext = {
    config,
    pool,
    stats: new RouteStats(),
    lag: new LagSampler(config.lagIntervalMs),
  };

  const app = new Hono();
  const counted = new Set<string>();
  const allowed = new Map<string, string[]>();

  app.use('*', async (c, next) => {
    // Every valid request is short; a long one is refused as a whole before any parsing of it.
    if (c.req.url.length > MAX_URL_LENGTH) {
      return c.json({ error: `request URL is ${c.req.url.length} characters; the limit is ${MAX_URL_LENGTH}` }, 414);
    }
    if (!counted.has(c.req.path)) return next();
    const start = performance.now();
    // Asked before the handler runs: once the client has closed the connection (a load that
    // stopped while this request was in hand), Bun no longer knows its peer.
    const peer = config.peerPort?.(c.env, c.req.raw);
    ctx.stats.inFlight++;
    try {
      await next();
    } finally {
      ctx.stats.inFlight--;
    }
    if (c.res.status < 400) ctx.stats.record(c.req.path, performance.now() - start, peer);
  });
  for (const group of ROUTE_GROUPS) group(app, ctx);
  mountScenarios(app, scenarios, pool, settings);

  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    allowed.set(route.path, [...(allowed.get(route.path) ?? []), route.method]);
    if (!UNCOUNTED.has(route.path) && !route.path.startsWith(`${LOOP_CHECK_PREFIX}/`)) counted.add(route.path);
  }

  app.notFound((c) => {
    const methods = allowed.get(c.req.path);
    if (methods !== undefined) {
      c.header('Allow', methods.join(', '));
      return c.json({ error: `method ${c.req.method} not allowed on ${c.req.path}; use ${methods.join(', ')}` }, 405);
    }
    return c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404);
  });
  app.onError((error, c) => {
    if (error instanceof BadRequest || error instanceof WorkerTimeout)
      return c.json({ error: error.message }, error.status as ContentfulStatusCode);
    console.error(`error on ${c.req.method} ${c.req.path}:`, error);
    return c.json({ error: `internal error: ${error.message}` }, 500);
  });

  ctx.lag.start();
  return Object.assign(app, {
    scenarios,
    async close() {
      ctx.lag.stop();
      await ctx.pool.close();
    },
  });
}

/** What the built-in scenarios read from the server's flags, as a plain object worker threads can take. */
function scenarioSettings(config: AppConfig): ScenarioSettings {
  const { dataDir, hashCost, fibN, fibVariant, busyExponent, asyncDepth, sleepMs } = config;
  return { dataDir, hashCost, fibN, fibVariant, busyExponent, asyncDepth, sleepMs };
}

function checkConfig(config: AppConfig): void {
  const within = (name: string, value: number, { min, max }: { min: number; max: number }) => {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${name} must be an integer from ${min} to ${max}, got ${value}`);
    }
  };
  within('hash cost', config.hashCost, BOUNDS.hashCost);
  within('busy exponent', config.busyExponent, BOUNDS.busyExponent);
  within('async depth', config.asyncDepth, BOUNDS.asyncDepth);
  within('default sleep ms', config.sleepMs, BOUNDS.sleepMs);
  within('worker pool size', config.workerPoolSize, { min: 1, max: 64 });
  within('lag interval ms', config.lagIntervalMs, { min: 1, max: 1000 });
}
