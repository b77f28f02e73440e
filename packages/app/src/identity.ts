import type { ClusterInfo } from './cluster.ts';
import type { RuntimeName, ServerKind } from './config.ts';
import type { Pools } from './pool-size.ts';

// The pool types stay importable from here (@bench/app/identity) as before they moved.
export type { PoolSize, PoolSource, Pools } from './pool-size.ts';

/** The body of GET /health on every server, Hono or raw: who is answering. */
export interface Health {
  runtime: RuntimeName;
  version: string;
  /** The process that was started: with --processes, the supervisor (group leader). */
  pid: number;
  server: ServerKind;
  /** With --processes: serving processes asked for, their pids, and which one answered. */
  processes?: number;
  pids?: number[];
  servedBy?: number;
  pools?: Pools;
}

export interface HealthExtras {
  cluster?: ClusterInfo;
  /** The answering process's own pid (differs from `pid` under --processes). */
  selfPid?: number;
  pools?: Pools;
}

export function health(runtime: RuntimeName, version: string, pid: number, server: ServerKind, extras: HealthExtras = {}): Health {
  const { cluster, pools } = extras;
  return {
    runtime,
    version,
    pid: cluster?.leaderPid ?? pid,
    server,
    ...(cluster === undefined
      ? {}
      : { processes: cluster.processes, pids: cluster.peers().map((p) => p.pid), servedBy: extras.selfPid ?? pid }),
    ...(pools === undefined ? {} : { pools }),
  };
}

/** The body of GET /hello on every server: kept tiny so it measures the stack, not the payload. */
export const HELLO_TEXT = 'Hello World!';
