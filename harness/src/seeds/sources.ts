// One function per source's load shape against this project's own servers: the same client
// (ab or autocannon), connection and request counts, keep-alive or not. Measuring only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS, type Manifest } from '@bench/app';
import { scenarioSettings } from '../servers/scenarios.ts';
import { median } from '../stats/stats.ts';
import { runLoad } from '../load/autocannon.ts';
import type { RunningServer } from '../servers/server.ts';
import { HUNG_AFTER_SEC_BETWEEN_LOADS, waitQuiet } from '../servers/quiet.ts';
import { checkAnswer } from '../servers/validate.ts';
import { evictAndVerify } from '../system/page-cache.ts';
import { runApacheBench } from './apache-bench.ts';
import { FIB_PATHS, type Json, type Measured, type ReplayContext } from './replay-shape.ts';

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

export async function replay000(server: RunningServer, ctx: ReplayContext): Promise<Partial<Measured>> {
  const { shape } = ctx;
  const detail: Record<string, number> = {};
  const [over, base]: [number[], number[]] = [[], []];
  for (const p of ['/hash/sync', '/hash/async']) await checked(server, p, ctx, ctx.manifest);
  for (let run = 0; run < shape.runs; run++) {
    for (const mode of ['sync', 'async'] as const) {
      throwIfAborted(ctx.signal);
      await quiesce(server, shape.timeoutSec);
      const r = await runApacheBench({
        url: `${server.url}/hash/${mode}`,
        requests: shape.hashRequests,
        concurrency: 20,
        keepAlive: true,
        timeoutSec: shape.timeoutSec,
        signal: ctx.signal,
        binary: ctx.apacheBenchBinary,
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

export async function replay001(server: RunningServer, ctx: ReplayContext, cold: boolean): Promise<Partial<Measured>> {
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

export async function replay003(server: RunningServer, ctx: ReplayContext): Promise<Partial<Measured>> {
  const { shape } = ctx;
  const n = shape.staticRequests;
  const detail: Record<string, number> = {};
  const [over, base]: [number[], number[]] = [[], []];
  for (const p of ['/file/sync?body=bytes', '/file/async?body=bytes']) await checked(server, p, ctx, ctx.staticManifest);
  for (let run = 0; run < shape.runs; run++) {
    for (const mode of ['sync', 'async'] as const) {
      throwIfAborted(ctx.signal);
      await quiesce(server, shape.timeoutSec);
      const r = await runApacheBench({
        url: `${server.url}/file/${mode}?body=bytes`,
        requests: n,
        concurrency: n,
        keepAlive: false,
        timeoutSec: shape.timeoutSec,
        signal: ctx.signal,
        binary: ctx.apacheBenchBinary,
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

export async function replay002(
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
