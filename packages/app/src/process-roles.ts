/**
 * The three roles a Bun or Deno server process plays, written once for both entries
 * (runtimes/bun/server.ts, runtimes/deno/server.ts): one of several serving processes started by
 * a supervisor, that supervisor (superviseReusePort), or the server alone. Portable: the runtime
 * hands in its own pid, exit, signal listener, stdin and worker command line, so no runtime
 * global is touched here. Node has its own entry (node:cluster, runtimes/node).
 */
import type { RuntimeName } from './config.ts';
import { workerReadyLine, type ListenRole, type Listening, type ProcessPeer } from './cluster.ts';
import { describeStartError, readinessLine, type ServerOptions } from './server-args.ts';
import { receivePeers, superviseReusePort, type Supervised, type WorkerCommand } from './supervisor.ts';

export interface ProcessHooks {
  runtime: RuntimeName;
  pid: number;
  /** LEADER_ENV as this process found it: set in a serving process its supervisor started. */
  leaderEnv: string | undefined;
  /** Whether this process supervises serving processes (more than one, or a child for a setting). */
  supervise: boolean;
  /** The runtime's start (its hono.ts or raw.ts). */
  start(options: ServerOptions, role?: ListenRole): Promise<Listening>;
  /** The serving processes' command line; asked for only when supervising. */
  workerCommand(): WorkerCommand;
  /** Extra environment for the serving processes (e.g. a pool size read at start). */
  workerEnv?: Record<string, string>;
  /** Where the supervisor's `peers` lines arrive in a serving process (opened only there). */
  stdin(): NodeJS.ReadableStream;
  onSignal(signal: 'SIGTERM' | 'SIGINT', handler: () => void): void;
  exit(code: number): never;
}

/** Serves in the role this process was started for; exits 1 with one line when it cannot start. */
export async function serveInRole(options: ServerOptions, hooks: ProcessHooks): Promise<void> {
  const kind = options.raw ? 'raw' : 'hono';
  const onStop = (stop: () => Promise<void>) => {
    const handler = () => void stop().finally(() => hooks.exit(0));
    hooks.onSignal('SIGTERM', handler);
    hooks.onSignal('SIGINT', handler);
    return handler;
  };
  try {
    if (hooks.leaderEnv !== undefined) {
      let peers: ProcessPeer[] = [];
      options.app.cluster = { leaderPid: Number(hooks.leaderEnv), processes: options.processes, peers: () => peers };
      const running = await hooks.start(options, { reusePort: true, control: true });
      const stop = onStop(() => running.stop());
      // stdin ending means the supervisor is gone: this process goes too.
      receivePeers(hooks.stdin(), (list) => (peers = list), stop);
      console.log(workerReadyLine(hooks.pid, running.url, running.controlUrl ?? ''));
    } else if (hooks.supervise) {
      let group: Supervised | undefined;
      group = await superviseReusePort({
        command: hooks.workerCommand(),
        processes: options.processes,
        port: options.port,
        leaderPid: hooks.pid,
        ...(hooks.workerEnv === undefined ? {} : { workerEnv: hooks.workerEnv }),
        onLost: (reason) => {
          console.error(`${hooks.runtime} server: ${reason}`);
          void (group?.stop() ?? Promise.resolve()).finally(() => hooks.exit(1));
        },
      });
      console.log(readinessLine(group.url, hooks.runtime, kind, hooks.pid));
      onStop(() => group?.stop() ?? Promise.resolve());
    } else {
      const running = await hooks.start(options);
      console.log(readinessLine(running.url, hooks.runtime, kind, hooks.pid));
      onStop(() => running.stop());
    }
  } catch (error) {
    console.error(`${hooks.runtime} server: ${describeStartError(error, options.host, options.port)}`);
    hooks.exit(1);
  }
}
