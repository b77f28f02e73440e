// Bun entrypoint: `bun server.ts [--port N] [--host H] [--raw] [--processes N|auto] ...`
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { workerReadyLine, type ProcessPeer } from '@bench/app/cluster';
import { pools, THREADPOOL_SOURCE_ENV } from '@bench/app/pools';
import { cpusPerProcess, describeStartError, parseServerArgs, readinessLine, type ServerOptions } from '@bench/app/server-args';
import { LEADER_ENV, receivePeers, superviseReusePort, type Supervised } from '@bench/app/supervisor';
import { BUN_POOL_ENV, bunThreadpool } from './pools.ts';

const cpus = availableParallelism();
let options: ServerOptions;
try {
  options = parseServerArgs(Bun.argv.slice(2), {
    runtime: 'bun',
    version: Bun.version,
    pid: process.pid,
    defaultDataDir: fileURLToPath(new URL('../../data/files', import.meta.url)),
    cpus,
  });
} catch (error) {
  console.error(`bun server: ${(error as Error).message}`);
  process.exit(2);
}
const kind = options.raw ? 'raw' : 'hono';
options.app.pools = pools(options, bunThreadpool(process.env, cpus));
const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');
const leader = process.env[LEADER_ENV];
// Bun reads its pool size at start only: a --threadpool it was not started with needs a child.
const poolNeedsChild = options.threadpool !== undefined && process.env[BUN_POOL_ENV] !== String(options.threadpool);

try {
  if (leader !== undefined) {
    // One of several serving processes, started by the supervisor below.
    let peers: ProcessPeer[] = [];
    options.app.cluster = { leaderPid: Number(leader), processes: options.processes, peers: () => peers };
    const running = await start(options, { reusePort: true, control: true });
    const stop = () => void running.stop().finally(() => process.exit(0));
    receivePeers(process.stdin, (list) => (peers = list), stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    console.log(workerReadyLine(process.pid, running.url, running.controlUrl ?? ''));
  } else if (options.processes > 1 || poolNeedsChild) {
    let group: Supervised | undefined;
    const size = options.threadpool ?? cpusPerProcess(cpus, options.processes) ?? cpus;
    group = await superviseReusePort({
      command: { execPath: process.execPath, args: process.argv.slice(1), env: process.env },
      processes: options.processes,
      port: options.port,
      leaderPid: process.pid,
      workerEnv: { [BUN_POOL_ENV]: String(size), [THREADPOOL_SOURCE_ENV]: options.threadpool === undefined ? 'default' : 'flag' },
      onLost: (reason) => {
        console.error(`bun server: ${reason}`);
        void (group?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
      },
    });
    console.log(readinessLine(group.url, 'bun', kind, process.pid));
    const stop = () => void group?.stop().finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } else {
    const running = await start(options);
    console.log(readinessLine(running.url, 'bun', kind, process.pid));
    const stop = () => void running.stop().finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }
} catch (error) {
  console.error(`bun server: ${describeStartError(error, options.host, options.port)}`);
  process.exit(1);
}
