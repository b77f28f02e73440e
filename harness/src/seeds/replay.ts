// Each source's load shape against this project's own servers, one runtime at a time: the same
// client (ab or autocannon), connection and request counts, keep-alive or not. Measuring only;
// the verdicts and sentences come from judge.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS, type Manifest, type RuntimeName } from '@bench/app';
import { scenarioSettings } from '../servers/scenarios.ts';
import { median } from '../stats/stats.ts';
import { runLoad } from '../load/autocannon.ts';
import { probeRuntime, runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import { startServer, type RunningServer } from '../servers/server.ts';
import { HUNG_AFTER_SEC_BETWEEN_LOADS, waitQuiet } from '../servers/server-control.ts';
import { checkAnswer } from '../servers/validate.ts';
import { evictAndVerify } from '../system/page-cache.ts';
import { runAb } from './ab.ts';
import type { ClaimId } from './claims.ts';

export interface ReplayShape {
  runs: number;
  /** 000: ab -k -c 20 -n this. */
  hashRequests: number;
  /** 001: autocannon run length per endpoint (its default is 10 s). */
  fileDurationSec: number;
  /** 003: ab -n this -c this, no keep-alive. */
  staticRequests: number;
  /** 002: sequential requests per variant and run. */
  fibRequests: number;
  timeoutSec: number;
}

export const FULL_SHAPE: ReplayShape = {
  runs: 3,
  hashRequests: 250,
  fileDurationSec: 10,
  staticRequests: 1000,
  fibRequests: 10,
  timeoutSec: 60,
};
/** --quick: every claim, fewer requests; 003 keeps its 1,000 connections, it is fast. */
export const QUICK_SHAPE: ReplayShape = {
  runs: 2,
  hashRequests: 20,
  fileDurationSec: 0.5,
  staticRequests: 1000,
  fibRequests: 3,
  timeoutSec: 30,
};

/** What one claim's replay measured on one runtime: a figure per run for each side. */
export interface Measured {
  claim: ClaimId;
  runtime: RuntimeName;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  replayedSetup: string;
  unit: string;
  /** The claim's numerator (async, or async memo) and denominator (sync, or async plain), per run. */
  over: number[];
  base: number[];
  overLabel: string;
  baseLabel: string;
  /** Side figures the explanation draws on (ab connect times, handler ms, cache state...). */
  detail: Record<string, number | string>;
}

export interface ReplayContext {
  shape: ReplayShape;
  dataDir: string;
  manifest: Manifest;
  staticDir: string;
  staticManifest: Manifest;
  /** Why ab cannot run, when it cannot. */
  abMissing: string | undefined;
  abBinary: string;
  signal: AbortSignal;
  progress(line: string): void;
}

const FIB = { plainN: 20, busyN: 13, busyExp: 6, allTheWay: 32 } as const;

export const FIB_PATHS = {
  plainSync: `/fib/sync?n=${FIB.plainN}&variant=plain`,
  plainAsync: `/fib/async?n=${FIB.plainN}&variant=plain&depth=${FIB.allTheWay}`,
  busySync: `/fib/sync?n=${FIB.busyN}&variant=busy&exp=${FIB.busyExp}`,
  busyAsync: `/fib/async?n=${FIB.busyN}&variant=busy&exp=${FIB.busyExp}&depth=${FIB.allTheWay}`,
  /** Seed 002's asyncMemoFib as written (value stored after the await). */
  memoLateAsync: `/fib/async?n=${FIB.plainN}&variant=memo-late`,
  /** The app's own memo, which stores the promise: what a working async memo costs. */
  memoAsync: `/fib/async?n=${FIB.plainN}&variant=memo`,
  memoSync: `/fib/sync?n=${FIB.plainN}&variant=memo`,
} as const;

type Json = Record<string, unknown>;

/**
 * The bench's quiet-wait (servers/server-control.ts) before each load, so work left over from one
 * load (queued hashes, unread requests of closed connections) never lands in the next; a server
 * that dies or hangs meanwhile ends the replay at once instead of a deadline later.
 */
export async function quiesce(server: RunningServer, timeoutSec: number): Promise<void> {
  const ctx = { server, plan: { drainCapSec: timeoutSec, timeoutSec: HUNG_AFTER_SEC_BETWEEN_LOADS } };
  await waitQuiet(ctx, timeoutSec * 1000, `server still busy ${timeoutSec} s after the load stopped`);
}

async function getJson(server: RunningServer, path: string, timeoutSec: number, method = 'GET'): Promise<Json> {
  const res = await fetch(server.url + path, { method, signal: AbortSignal.timeout(timeoutSec * 1000) });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${(await res.text()).slice(0, 160)}`);
  return (await res.json()) as Json;
}

function routeStats(stats: Json, route: string): { count: number; avgMs: number } {
  const entry = (stats.routes as Record<string, { count: number; avgMs: number }>)[route];
  return entry ?? { count: 0, avgMs: 0 };
}

/** Never time an answer not checked: each path is fetched and checked once first. */
async function checked(server: RunningServer, path: string, ctx: ReplayContext, manifest: Manifest): Promise<void> {
  const res = await fetch(server.url + path, { signal: AbortSignal.timeout(ctx.shape.timeoutSec * 1000) });
  if (path.includes('body=bytes')) {
    const data = new Uint8Array(await res.arrayBuffer());
    const file = manifest.files.find((f) => f.name === res.headers.get('x-file'));
    if (res.status !== 200 || file === undefined || data.byteLength !== file.bytes)
      throw new Error(`${path}: answered ${res.status}, ${data.byteLength} bytes`);
    return;
  }
  const settings = scenarioSettings({ dataDir: ctx.dataDir, hashCost: 10, fibN: DEFAULTS.fibN, sleepMs: DEFAULTS.sleepMs });
  const why = await checkAnswer(path, res, { settings });
  if (why !== undefined) throw new Error(`answer check failed: ${why}`);
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new Error('interrupted');
}

async function replay000(server: RunningServer, ctx: ReplayContext): Promise<Partial<Measured>> {
  const { shape } = ctx;
  const detail: Record<string, number> = {};
  const [over, base]: [number[], number[]] = [[], []];
  for (const p of ['/hash/sync', '/hash/async']) await checked(server, p, ctx, ctx.manifest);
  for (let run = 0; run < shape.runs; run++) {
    for (const mode of ['sync', 'async'] as const) {
      throwIfAborted(ctx.signal);
      await quiesce(server, shape.timeoutSec);
      const r = await runAb({
        url: `${server.url}/hash/${mode}`,
        requests: shape.hashRequests,
        concurrency: 20,
        keepAlive: true,
        timeoutSec: shape.timeoutSec,
        signal: ctx.signal,
        binary: ctx.abBinary,
      });
      if (r.failed > 0 || r.non2xx > 0) throw new Error(`ab on /hash/${mode}: ${r.failed} failed, ${r.non2xx} non-2xx of ${r.complete}`);
      (mode === 'async' ? over : base).push(r.requestsPerSec);
      detail[`${mode}TimePerRequestMs`] = r.timePerRequestMs;
    }
  }
  return {
    over,
    base,
    unit: 'req/s',
    overLabel: 'async',
    baseLabel: 'sync',
    detail,
    replayedSetup: `ab -k -c 20 -n ${shape.hashRequests}, bcrypt cost 10, ${shape.runs} runs`,
  };
}

async function replay001(server: RunningServer, ctx: ReplayContext, cold: boolean): Promise<Partial<Measured>> {
  const { shape } = ctx;
  const paths = ctx.manifest.files.map((f) => join(ctx.dataDir, f.name));
  const detail: Record<string, number | string> = { cache: cold ? 'cold' : 'warm', files: ctx.manifest.count };
  const [over, base, syncMs, asyncMs]: [number[], number[], number[], number[]] = [[], [], [], []];
  for (const p of ['/file/sync', '/file/async']) await checked(server, p, ctx, ctx.manifest);
  // Warm: every file read once, so the runs find them all in the page cache.
  if (!cold) for (const p of paths) readFileSync(p);
  for (let run = 0; run < shape.runs; run++) {
    await quiesce(server, shape.timeoutSec);
    await getJson(server, '/reset', shape.timeoutSec, 'POST');
    for (const mode of ['sync', 'async'] as const) {
      throwIfAborted(ctx.signal);
      if (cold) {
        const evicted = await evictAndVerify(paths);
        if (!evicted.ok) throw new Error(`cold replay needs page-cache eviction: ${evicted.reason}`);
        detail.evictedWith = evicted.method ?? '';
      }
      // autocannon's defaults, as the source ran it: 10 connections, no pipelining.
      const load = runLoad({
        url: `${server.url}/file/${mode}`,
        connections: 10,
        durationSec: shape.fileDurationSec,
        timeoutSec: shape.timeoutSec,
      });
      const stop = () => load.stop();
      ctx.signal.addEventListener('abort', stop, { once: true });
      const result = await Promise.race([
        load.done,
        server.exited.then(() => {
          stop();
          return Promise.reject(new Error(`server died during /file/${mode}`));
        }),
      ]).finally(() => ctx.signal.removeEventListener('abort', stop));
      throwIfAborted(ctx.signal);
      if (result.errors > 0 || result.non2xx > 0)
        throw new Error(`autocannon on /file/${mode}: ${result.errors} errors, ${result.non2xx} non-2xx`);
      await quiesce(server, shape.timeoutSec);
    }
    const stats = await getJson(server, '/stats', shape.timeoutSec);
    const [s, a] = [routeStats(stats, '/file/sync'), routeStats(stats, '/file/async')];
    base.push(s.count);
    over.push(a.count);
    syncMs.push(s.avgMs);
    asyncMs.push(a.avgMs);
  }
  detail.syncAvgMs = median(syncMs);
  detail.asyncAvgMs = median(asyncMs);
  return {
    over,
    base,
    unit: 'requests (server /stats)',
    overLabel: 'async',
    baseLabel: 'sync',
    detail,
    replayedSetup: `autocannon 10 connections ${shape.fileDurationSec} s per endpoint, ${ctx.manifest.count} files of ${ctx.manifest.sizeBytes / 1048576} MiB at random, ${cold ? 'evicted from the page cache before each endpoint' : 'all in the page cache'}, counts from /stats, ${shape.runs} runs`,
  };
}

async function replay003(server: RunningServer, ctx: ReplayContext): Promise<Partial<Measured>> {
  const { shape } = ctx;
  const n = shape.staticRequests;
  const detail: Record<string, number> = {};
  const [over, base]: [number[], number[]] = [[], []];
  for (const p of ['/file/sync?body=bytes', '/file/async?body=bytes']) await checked(server, p, ctx, ctx.staticManifest);
  for (let run = 0; run < shape.runs; run++) {
    for (const mode of ['sync', 'async'] as const) {
      throwIfAborted(ctx.signal);
      await quiesce(server, shape.timeoutSec);
      const r = await runAb({
        url: `${server.url}/file/${mode}?body=bytes`,
        requests: n,
        concurrency: n,
        keepAlive: false,
        timeoutSec: shape.timeoutSec,
        signal: ctx.signal,
        binary: ctx.abBinary,
      });
      if (r.failed > 0 || r.non2xx > 0)
        throw new Error(`ab on /file/${mode}?body=bytes: ${r.failed} failed, ${r.non2xx} non-2xx of ${r.complete}`);
      (mode === 'async' ? over : base).push(r.requestsPerSec);
      detail[`${mode}ConnectMs`] = r.connectMeanMs;
      detail[`${mode}TotalMs`] = r.totalMeanMs;
      detail[`${mode}P50Ms`] = r.percentilesMs['50'] ?? Number.NaN;
      detail[`${mode}LongestMs`] = r.percentilesMs['100'] ?? Number.NaN;
    }
  }
  const kib = ctx.staticManifest.sizeBytes / 1024;
  return {
    over,
    base,
    unit: 'req/s',
    overLabel: 'async',
    baseLabel: 'sync',
    detail,
    replayedSetup: `ab -n ${n} -c ${n} (no keep-alive), one ${kib} KiB file read and sent per request (/file/*?body=bytes), ${shape.runs} runs`,
  };
}

/** Handler time per request from the server's own /stats, requests one after another. */
async function handlerMs(server: RunningServer, path: string, ctx: ReplayContext): Promise<number> {
  const { shape } = ctx;
  await quiesce(server, shape.timeoutSec);
  await getJson(server, '/reset', shape.timeoutSec, 'POST');
  for (let i = 0; i < shape.fibRequests; i++) {
    throwIfAborted(ctx.signal);
    await getJson(server, path, shape.timeoutSec);
  }
  const route = path.split('?', 1)[0] ?? path;
  return routeStats(await getJson(server, '/stats', shape.timeoutSec), route).avgMs;
}

async function replay002(
  server: RunningServer,
  ctx: ReplayContext,
  overPath: string,
  basePath: string,
  labels: [string, string],
  setup: string,
): Promise<Partial<Measured>> {
  const [over, base]: [number[], number[]] = [[], []];
  for (const p of [overPath, basePath]) await checked(server, p, ctx, ctx.manifest);
  for (let run = 0; run < ctx.shape.runs; run++) {
    base.push(await handlerMs(server, basePath, ctx));
    over.push(await handlerMs(server, overPath, ctx));
  }
  const memo = labels[0] === 'async memo';
  const detail: Record<string, number> = memo
    ? { memoSyncMs: await handlerMs(server, FIB_PATHS.memoSync, ctx), promiseMemoMs: await handlerMs(server, FIB_PATHS.memoAsync, ctx) }
    : {};
  return {
    over,
    base,
    unit: 'ms per request (handler, /stats)',
    overLabel: labels[0],
    baseLabel: labels[1],
    detail,
    replayedSetup: `${setup}, ${ctx.shape.fibRequests} requests one after another, ${ctx.shape.runs} runs`,
  };
}

type Step = {
  claim: ClaimId;
  needsAb: boolean;
  server: 'main' | 'static';
  run(server: RunningServer, ctx: ReplayContext): Promise<Partial<Measured>>;
};

const STEPS: Step[] = [
  { claim: '000-bcrypt', needsAb: true, server: 'main', run: replay000 },
  { claim: '001-file-warm', needsAb: false, server: 'main', run: (s, c) => replay001(s, c, false) },
  { claim: '001-file-cold', needsAb: false, server: 'main', run: (s, c) => replay001(s, c, true) },
  {
    claim: '002-async-fib',
    needsAb: false,
    server: 'main',
    run: (s, c) =>
      replay002(
        s,
        c,
        FIB_PATHS.plainAsync,
        FIB_PATHS.plainSync,
        ['async', 'sync'],
        `fib(${FIB.plainN}), async all the way down (depth ${FIB.allTheWay}) vs sync`,
      ),
  },
  {
    claim: '002-busy-fib',
    needsAb: false,
    server: 'main',
    run: (s, c) =>
      replay002(
        s,
        c,
        FIB_PATHS.busyAsync,
        FIB_PATHS.busySync,
        ['async', 'sync'],
        `busy fib(${FIB.busyN}) with a ${FIB.busyN} ** ${FIB.busyExp} loop, async all the way down vs sync`,
      ),
  },
  {
    claim: '002-memo-fib',
    needsAb: false,
    server: 'main',
    run: (s, c) =>
      replay002(
        s,
        c,
        FIB_PATHS.memoLateAsync,
        FIB_PATHS.plainAsync,
        ['async memo', 'async plain'],
        `fib(${FIB.plainN}) async memoised as the source wrote it (variant memo-late) vs async all the way down`,
      ),
  },
  { claim: '003-static', needsAb: true, server: 'static', run: replay003 },
];

const base = (claim: ClaimId, runtime: RuntimeName): Measured => ({
  claim,
  runtime,
  status: 'ok',
  replayedSetup: '',
  unit: '',
  over: [],
  base: [],
  overLabel: 'async',
  baseLabel: 'sync',
  detail: {},
});

/** Every claim on one runtime; a claim that fails is recorded as failed and the next one runs. */
export async function replayRuntime(
  runtime: RuntimeName,
  ctx: ReplayContext,
): Promise<{ version: string | undefined; rows: Measured[]; reason?: string }> {
  const spec: RuntimeSpec = runtimeSpec(runtime);
  const probed = probeRuntime(spec);
  if (!probed.ok)
    return {
      version: undefined,
      reason: probed.reason,
      rows: STEPS.map((s) => ({ ...base(s.claim, runtime), status: 'skipped', reason: probed.reason })),
    };
  const servers: Partial<Record<'main' | 'static', RunningServer>> = {};
  const rows: Measured[] = [];
  try {
    for (const step of STEPS) {
      const row = base(step.claim, runtime);
      if (ctx.signal.aborted) break;
      if (step.needsAb && ctx.abMissing !== undefined) {
        rows.push({ ...row, status: 'skipped', reason: ctx.abMissing });
        continue;
      }
      ctx.progress(`${runtime}: ${step.claim}`);
      try {
        servers[step.server] ??= await startServer(spec, {
          raw: false,
          serverArgs: ['--data-dir', step.server === 'main' ? ctx.dataDir : ctx.staticDir, '--hash-cost', '10'],
        });
        rows.push({ ...row, ...(await step.run(servers[step.server] as RunningServer, ctx)) });
      } catch (error) {
        const server = servers[step.server];
        const died = server !== undefined && !server.alive ? ` (server died: ${server.stderrTail(2)})` : '';
        rows.push({ ...row, status: 'failed', reason: `${(error as Error).message}${died}` });
        if (server !== undefined && !server.alive) delete servers[step.server];
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
  return { version: probed.version, rows };
}
