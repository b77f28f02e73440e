/**
 * Where a run's servers live. This host is the default: servers/server.ts starts the servers and
 * system/page-cache.ts evicts their files. Another host is what the user names with
 * --server-host; the entry point builds a ServerHost for it (remote/ does so over ssh) and hands
 * it down, so servers/ uses another host only through this interface and never imports a feature.
 */
import { existsSync } from 'node:fs';
import type { Manifest } from '@bench/app';
import { FlagError } from '../cli/flags.ts';
import type { NetworkPath, ServerHostEnvironment } from '../model/environment.ts';
import type { ColdCacheSupport } from '../system/page-cache.ts';
import type { RuntimeSpec } from './runtimes.ts';
import type { RunningServer } from './server.ts';

/** Where and how the servers of a remote run are started, as the flags said. */
export interface RemoteTarget {
  /** `[user@]host` as given to --server-host: handed to ssh unchanged. */
  destination: string;
  /** The checkout on the server host (default: the same path as here). */
  dir: string;
  /** The address the servers bind on the server host; undefined until the preflight decides it. */
  bind: string | undefined;
  /** --ssh-config, passed as `ssh -F`. */
  sshConfig: string | undefined;
  /** The server host's address on the ssh connection (from its $SSH_CONNECTION), once known. */
  address?: string;
}

/** The remote flags shared by bench, curve, calibrate and seeds; their names, for parseFlags. */
export const REMOTE_FLAGS = ['server-host', 'server-dir', 'server-bind', 'ssh-config'] as const;

/**
 * --server-host [user@]host, --server-dir DIR (default: this checkout's path), --server-bind ADDR
 * (default: the server host's own address on the ssh connection, never all interfaces unless
 * asked), --ssh-config FILE. The other three without --server-host are a mistake, not ignored.
 */
export function remoteTarget(get: (flag: string) => string | undefined, defaultDir: string): RemoteTarget | undefined {
  const destination = get('server-host');
  if (destination === undefined) {
    const stray = REMOTE_FLAGS.find((f) => f !== 'server-host' && get(f) !== undefined);
    if (stray !== undefined) throw new FlagError(`--${stray} needs --server-host`);
    return undefined;
  }
  if (!/^([A-Za-z0-9._-]+@)?[A-Za-z0-9._:[\]-]+$/.test(destination) || destination.startsWith('-')) {
    throw new FlagError(`--server-host must be [user@]host (a name from your ssh config, a host name or an address), got "${destination}"`);
  }
  const bind = get('server-bind');
  if (bind !== undefined && !/^[A-Za-z0-9.:_-]+$/.test(bind))
    throw new FlagError(`--server-bind must be an address of the server host, got "${bind}"`);
  const dir = get('server-dir') ?? defaultDir;
  if (!dir.startsWith('/')) throw new FlagError(`--server-dir must be an absolute path on the server host, got "${dir}"`);
  const sshConfig = get('ssh-config');
  if (sshConfig !== undefined && !existsSync(sshConfig)) throw new FlagError(`--ssh-config ${sshConfig}: no such file`);
  return { destination, dir, bind, sshConfig };
}

/** An installation on the server host, with what probing it there found. */
export interface HostInstallation {
  spec: RuntimeSpec;
  probe: { ok: true; version: string } | { ok: false; reason: string };
}

export interface ServerStart {
  raw: boolean;
  serverArgs: string[];
  processes?: number;
  /** Aborting it ends the wait for readiness at once (Interrupted). */
  signal?: AbortSignal;
}

/** Another host that serves a run: everything servers/ does there goes through these. */
export interface ServerHost {
  /** The host as its preflight saw it (name, OS, CPUs): the report's environment.serverHost. */
  environment: ServerHostEnvironment;
  /** Its own manifest of the input files (random bytes, made there), which its servers read. */
  manifest?: Manifest;
  mtu: NetworkPath['mtu'];
  /** Where a path of this checkout lies on that host. */
  movePath(path: string): string;
  /** The installation that serves `local` there (a named version resolved there first), if any. */
  installation(local: RuntimeSpec): HostInstallation | undefined;
  startServer(spec: RuntimeSpec, options: ServerStart): Promise<RunningServer>;
  /** Whether files there can be evicted from the page cache, checked once before any cell. */
  coldSupport(paths: string[]): Promise<ColdCacheSupport>;
  /** One eviction there before a run; true only when it was verified. */
  evictAndVerify(paths: string[]): Promise<boolean>;
  /** What measuring the round trips does, for the log line before it. */
  networkProbeDescription: string;
  /** The round trips between the two hosts, through a server of `spec`, and one line saying them. */
  measureNetwork(spec: RuntimeSpec, serverArgs: string[]): Promise<{ network: Omit<NetworkPath, 'mtu'>; line: string }>;
}
