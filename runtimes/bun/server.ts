// Bun entrypoint: `bun server.ts [--port N] [--host H] [--raw] [--processes N|auto] ...`
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pools, THREADPOOL_SOURCE_ENV } from '@bench/app/pools';
import { serveInRole } from '@bench/app/process-roles';
import { cpusPerProcess, parseServerArgs, type ServerOptions, WORKERS_ENV } from '@bench/app/server-args';
import { LEADER_ENV } from '@bench/app/supervisor';
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
    workersEnv: Bun.env[WORKERS_ENV],
  });
} catch (error) {
  console.error(`bun server: ${(error as Error).message}`);
  process.exit(2);
}
options.app.pools = pools(options, bunThreadpool(process.env, cpus));
const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');
// Bun reads its pool size at start only: a --threadpool it was not started with needs a child.
const poolNeedsChild = options.threadpool !== undefined && process.env[BUN_POOL_ENV] !== String(options.threadpool);
const size = options.threadpool ?? cpusPerProcess(cpus, options.processes) ?? cpus;

await serveInRole(options, {
  runtime: 'bun',
  pid: process.pid,
  leaderEnv: process.env[LEADER_ENV],
  supervise: options.processes > 1 || poolNeedsChild,
  start,
  workerCommand: () => ({ execPath: process.execPath, args: process.argv.slice(1), env: process.env }),
  workerEnv: { [BUN_POOL_ENV]: String(size), [THREADPOOL_SOURCE_ENV]: options.threadpool === undefined ? 'default' : 'flag' },
  stdin: () => process.stdin,
  onSignal: (signal, handler) => process.once(signal, handler),
  exit: (code) => process.exit(code),
});
