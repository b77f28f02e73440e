// Deno entrypoint, started by command.ts with explicit permissions (never -A).
import { availableParallelism } from 'node:os';
import { stdin } from 'node:process';
import { fileURLToPath } from 'node:url';
import type { PoolSize } from '@bench/app/identity';
import { pools } from '@bench/app/pools';
import { serveInRole } from '@bench/app/process-roles';
import { parseServerArgs, type ServerOptions, WORKERS_ENV } from '@bench/app/server-args';
import { LEADER_ENV } from '@bench/app/supervisor';

// command.ts passes deno's own flags with --processes, for the serving processes' command line.
const DENO_FLAGS_ARG = '--deno-flags';
const flagsAt = Deno.args.indexOf(DENO_FLAGS_ARG);
const denoFlags: string[] = flagsAt < 0 ? [] : (JSON.parse(Deno.args[flagsAt + 1] ?? '[]') as string[]);
const serverArgs = flagsAt < 0 ? Deno.args : [...Deno.args.slice(0, flagsAt), ...Deno.args.slice(flagsAt + 2)];

let options: ServerOptions;
try {
  options = parseServerArgs(serverArgs, {
    runtime: 'deno',
    version: Deno.version.deno,
    pid: Deno.pid,
    defaultDataDir: fileURLToPath(new URL('../../data/files', import.meta.url)),
    cpus: availableParallelism(),
    workersEnv: Deno.env.get(WORKERS_ENV),
  });
} catch (error) {
  console.error(`deno server: ${(error as Error).message}`);
  Deno.exit(2);
}

/**
 * Deno runs Node-API async work on tokio's blocking pool (spawn_blocking): threads are added on
 * demand, up to 512, and Deno offers no setting for it. --threadpool is recorded as not applied.
 */
const threadpool: PoolSize = {
  size: null,
  source: 'cannot be set',
  what: "tokio's blocking pool (spawn_blocking): grows on demand up to 512 threads; Deno has no setting for it",
};
options.app.pools = pools(options, threadpool);
const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');

await serveInRole(options, {
  runtime: 'deno',
  pid: Deno.pid,
  leaderEnv: Deno.env.get(LEADER_ENV),
  supervise: options.processes > 1,
  start,
  // The command line this process was started with (permissions included).
  workerCommand: () => ({
    execPath: Deno.execPath(),
    args: ['run', ...denoFlags, fileURLToPath(import.meta.url), ...serverArgs],
    env: Deno.env.toObject(),
  }),
  stdin: () => stdin,
  onSignal: (signal, handler) => Deno.addSignalListener(signal, handler),
  exit: (code) => Deno.exit(code),
});
