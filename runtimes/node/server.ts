// Node entrypoint: `node --require ./threadpool.cjs --import tsx server.ts [--port N] [--processes N|auto] ...`
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ProcessPeer } from '@bench/app/cluster';
import type { PoolSource } from '@bench/app/identity';
import { pools } from '@bench/app/pools';
import { describeStartError, parseServerArgs, readinessLine, type ServerOptions, WORKERS_ENV } from '@bench/app/server-args';
import { runPrimary, serveAsWorker } from './cluster.ts';

let options: ServerOptions;
try {
  options = parseServerArgs(process.argv.slice(2), {
    runtime: 'node',
    version: process.versions.node,
    pid: process.pid,
    defaultDataDir: fileURLToPath(new URL('../../data/files', import.meta.url)),
    cpus: availableParallelism(),
    workersEnv: process.env[WORKERS_ENV],
  });
  // libuv sized its pool before this module ran: only the preload can apply --threadpool.
  if (options.threadpool !== undefined && process.env.BENCH_THREADPOOL_SOURCE !== 'flag') {
    throw new Error('--threadpool needs the preload: start with node --require runtimes/node/threadpool.cjs');
  }
} catch (error) {
  console.error(`node server: ${(error as Error).message}`);
  process.exit(2);
}

const poolSource = (process.env.BENCH_THREADPOOL_SOURCE ??
  (process.env.UV_THREADPOOL_SIZE === undefined ? 'default' : 'env')) as PoolSource;
options.app.pools = pools(options, {
  size: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
  source: poolSource,
  what: "libuv's thread pool (UV_THREADPOOL_SIZE, read at start; set by the threadpool.cjs preload)",
});
// The pool's entry: CommonJS, and it registers tsx itself where Node does not carry the hooks into threads.
options.app.workerUrl = new URL('./scenario-worker.cjs', import.meta.url);
const kind = options.raw ? 'raw' : 'hono';
const several = options.processes > 1;

try {
  if (several && cluster.isPrimary) {
    let stopGroup: (() => Promise<void>) | undefined;
    const group = await runPrimary(options.processes, (reason) => {
      console.error(`node server: ${reason}`);
      void (stopGroup?.() ?? Promise.resolve()).finally(() => process.exit(1));
    });
    stopGroup = group.stop;
    console.log(readinessLine(group.url, 'node', kind, process.pid));
    const stop = () => void group.stop().finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } else {
    const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');
    let peers: ProcessPeer[] = [];
    if (several) options.app.cluster = { leaderPid: process.ppid, processes: options.processes, peers: () => peers };
    const running = await start(options, { reusePort: false, control: several });
    const stop = () => void running.stop().finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    if (several) serveAsWorker(running, (list) => (peers = list), stop);
    else console.log(readinessLine(running.url, 'node', kind, process.pid));
  }
} catch (error) {
  console.error(`node server: ${describeStartError(error, options.host, options.port)}`);
  process.exit(1);
}
