import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { BOUNDS, type AppConfig } from './config.ts';
import { BadRequest } from './errors.ts';
import { LagSampler } from './lag-sampler.ts';
import { RouteStats } from './route-stats.ts';
import type { AppContext, RouteGroup } from './routes/context.ts';
import { fibRoutes } from './routes/fib.ts';
import { fileRoutes } from './routes/file.ts';
import { hashRoutes } from './routes/hash.ts';
import { helloRoutes } from './routes/hello.ts';
import { sleepRoutes } from './routes/sleep.ts';
import { statsRoutes } from './routes/stats.ts';
import { loadManifest } from './workloads/data-files.ts';
import { FibPool } from './workloads/fib-pool.ts';

/** One entry per scenario: adding a scenario is one file in routes/ and one line here. */
const ROUTE_GROUPS: RouteGroup[] = [helloRoutes, hashRoutes, fileRoutes, fibRoutes, sleepRoutes, statsRoutes];

/** Routes that describe the server rather than load it: not counted in /stats. */
const UNCOUNTED = new Set(['/stats', '/reset', '/health']);

/** Runtimes' own limits on the request head differ (16 KiB on Node and Bun, more on Deno). */
const MAX_URL_LENGTH = 2048;

/** The Hono app plus what it started (worker pool, lag timer), stopped by `close()`. */
export type BenchApp = Hono & { close(): Promise<void> };

export function createApp(config: AppConfig): BenchApp {
  checkConfig(config);
  // Fails with a clear message before anything starts when the data files are missing.
  const manifest = loadManifest(config.dataDir);
  const ctx: AppContext = {
    config,
    manifest,
    pool: new FibPool(config.workerPoolSize, config.fibWorkerUrl),
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

  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    allowed.set(route.path, [...(allowed.get(route.path) ?? []), route.method]);
    if (!UNCOUNTED.has(route.path)) counted.add(route.path);
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
    if (error instanceof BadRequest) return c.json({ error: error.message }, error.status as ContentfulStatusCode);
    console.error(`error on ${c.req.method} ${c.req.path}:`, error);
    return c.json({ error: `internal error: ${error.message}` }, 500);
  });

  ctx.lag.start();
  return Object.assign(app, {
    async close() {
      ctx.lag.stop();
      await ctx.pool.close();
    },
  });
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
