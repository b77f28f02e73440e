// Deno entrypoint, started by command.ts with explicit permissions (never -A).
import { availableParallelism } from 'node:os';
import { stdin } from 'node:process';
import { fileURLToPath } from 'node:url';
import { workerReadyLine, type ProcessPeer } from '@bench/app/cluster';
import type { PoolSize } from '@bench/app/identity';
import { pools } from '@bench/app/pools';
import { describeStartError, parseServerArgs, readinessLine, type ServerOptions } from '@bench/app/server-args';
import { LEADER_ENV, receivePeers, superviseReusePort, type Supervised } from '@bench/app/supervisor';

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
const kind = options.raw ? 'raw' : 'hono';
const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');
const leader = Deno.env.get(LEADER_ENV);

try {
  if (leader !== undefined) {
    // One of several serving processes, started by the supervisor below.
    let peers: ProcessPeer[] = [];
    options.app.cluster = { leaderPid: Number(leader), processes: options.processes, peers: () => peers };
    const running = await start(options, { reusePort: true, control: true });
    const stop = () => void running.stop().finally(() => Deno.exit(0));
    receivePeers(stdin, (list) => (peers = list), stop);
    Deno.addSignalListener('SIGTERM', stop);
    Deno.addSignalListener('SIGINT', stop);
    console.log(workerReadyLine(Deno.pid, running.url, running.controlUrl ?? ''));
  } else if (options.processes > 1) {
    let group: Supervised | undefined;
    group = await superviseReusePort({
      // The command line this process was started with (permissions included).
      command: { execPath: Deno.execPath(), args: ['run', ...denoFlags, fileURLToPath(import.meta.url), ...serverArgs], env: Deno.env.toObject() },
      processes: options.processes,
      port: options.port,
      leaderPid: Deno.pid,
      onLost: (reason) => {
        console.error(`deno server: ${reason}`);
        void (group?.stop() ?? Promise.resolve()).finally(() => Deno.exit(1));
      },
    });
    console.log(readinessLine(group.url, 'deno', kind, Deno.pid));
    const stop = () => void group?.stop().finally(() => Deno.exit(0));
    Deno.addSignalListener('SIGTERM', stop);
    Deno.addSignalListener('SIGINT', stop);
  } else {
    const running = await start(options);
    console.log(readinessLine(running.url, 'deno', kind, Deno.pid));
    const stop = () => void running.stop().finally(() => Deno.exit(0));
    Deno.addSignalListener('SIGTERM', stop);
    Deno.addSignalListener('SIGINT', stop);
  }
} catch (error) {
  console.error(`deno server: ${describeStartError(error, options.host, options.port)}`);
  Deno.exit(1);
}

