import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Health, RuntimeName, ServerKind } from '@bench/app';
import type { RuntimeSpec } from './runtimes.ts';
import { profilerArgs, type ProfilerSettings } from './profiler.ts';
import { parseStat, processStats, type ThreadProgress } from '../system/proc.ts';
import { trackGroup, untrackGroup } from '../system/children.ts';
import { Interrupted } from '../cli/interrupt.ts';

export interface StartOptions {
  raw: boolean;
  /** Server flags besides --port/--host, e.g. ["--data-dir", dir, "--hash-cost", "10"]. */
  serverArgs: string[];
  host?: string;
  readyTimeoutMs?: number;
  /** CPUs to run the server on (taskset list, e.g. "1-3"); taskset execs, so the pid is the server's. */
  cpus?: string;
  /** Serving processes expected (--processes N given to the server); undefined = whatever it says. */
  processes?: number;
  /** Environment variables added to the server's (e.g. --keep-freed-memory's allocator settings). */
  env?: Readonly<Record<string, string>>;
  /** Aborting it ends the wait for readiness at once (Interrupted) and stops the process group. */
  signal?: AbortSignal;
  /** Run the server under its runtime's CPU profiler; the profile is written when it stops. */
  profile?: ProfilerSettings;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningServer {
  runtime: RuntimeName;
  kind: ServerKind;
  /** The process started: with --processes, the supervisor (group leader). */
  pid: number;
  /** The processes serving requests: [pid] alone, the supervisor's children with --processes. */
  servingPids: number[];
  url: string;
  health: Health;
  /** Settles when the process exits, for whatever reason. */
  exited: Promise<Exit>;
  /** Whether the process has exited (by itself or stopped). */
  readonly alive: boolean;
  /** The last lines the server wrote to stderr, for failure reasons. */
  stderrTail(lines?: number): string;
  /**
   * SIGTERM, then SIGKILL after `graceMs` (default 5 s) if the group is still there. A server on
   * another host keeps its wrapper's own grace.
   */
  stop(options?: { graceMs?: number }): Promise<Exit>;
  /**
   * Set when the server runs on another host (remote/remote-server.ts): `pid` is then a pid
   * there, and nothing of this host's /proc describes it.
   */
  remote?: {
    host: string;
    /** A process's (default: the started one's) latest main-thread sample from that host, when fresh (liveness.ts). */
    progress?: (pid?: number) => ThreadProgress | undefined;
  };
}

/**
 * Every process group spawned and not yet stopped, from the moment of spawning (not of being
 * ready), so an interruption during start-up leaves nothing behind either.
 */
const liveGroups = new Map<number, () => Promise<Exit>>();

/**
 * The harness's environment less NODE_PATH, which the pinned Node's launcher
 * (node_modules/.bin/node) points at every installed package: a server resolves only what its
 * own package declares, as it would outside this repository.
 */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_PATH;
  return env;
}

const READY_LINE = /^ready (\S+) runtime=(\S+) server=(\S+) pid=(\d+)/m;

let pdeathsig: boolean | undefined;
/**
 * Whether a server can be told to die with the process that started it (util-linux setpriv
 * --pdeathsig, which execs the server in its own place): a server runs in a process group of
 * its own, so a harness or test runner killed outright (SIGKILL, a CI job cancelled) would
 * otherwise leave it serving, busy or idle, beside every later run on the machine.
 */
function diesWithParent(): boolean {
  pdeathsig ??= spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  return pdeathsig;
}

/**
 * Starts one server in its own process group on a port the OS picks, waits for its readiness
 * line and for /health to name this runtime, this server kind and the pid we started: a number
 * is never taken from a server this run did not start.
 */
export async function startServer(spec: RuntimeSpec, options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const serverArgs = spec.args(['--port', '0', '--host', host, ...(options.raw ? ['--raw'] : []), ...options.serverArgs]);
  const args = options.profile === undefined ? serverArgs : profilerArgs(spec.name, serverArgs, options.profile);
  const [pinned, pinnedArgs] = options.cpus === undefined ? [spec.binary, args] : ['taskset', ['-c', options.cpus, spec.binary, ...args]];
  const [binary, argv] = diesWithParent() ? ['setpriv', ['--pdeathsig', 'KILL', '--', pinned, ...pinnedArgs]] : [pinned, pinnedArgs];
  const child = spawn(binary, argv, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inheritedEnv(), NO_COLOR: '1', ...options.env },
  });
  const kind: ServerKind = options.raw ? 'raw' : 'hono';
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stdout.length < 64_000) stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-64_000);
  });
  let alive = child.pid !== undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      alive = false;
      resolve({ code, signal });
    });
    child.once('error', () => {
      alive = false;
      resolve({ code: null, signal: null });
    });
  });
  const stderrTail = (lines = 8) => tail(stderr, lines);
  const describe = `${spec.name} ${kind} server`;
  const pid = child.pid;
  const stop = async (stopOptions: { graceMs?: number } = {}) => {
    if (pid === undefined) return exited;
    liveGroups.delete(pid);
    const exit = await stopGroup(child, exited, stopOptions.graceMs);
    untrackGroup(pid);
    return exit;
  };
  if (pid !== undefined) {
    liveGroups.set(pid, stop);
    trackGroup(pid);
  }

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  try {
    if (child.pid === undefined) throw new Error(`${describe} could not be spawned (${spec.binary})`);
    const url = await waitFor(
      async () => {
        if (!alive) {
          const exit = await exited;
          throw new Error(`${describe} exited before ready (${formatExit(exit)})${stderrTail() ? `: ${stderrTail(3)}` : ''}`);
        }
        const match = READY_LINE.exec(stdout);
        return match?.[1];
      },
      deadline,
      `${describe} printed no readiness line`,
      options.signal,
    );
    const health = await groupHealth(
      url,
      () => alive,
      () => stderrTail(3),
      describe,
      deadline,
      options.signal,
    );
    if (health.runtime !== spec.name || health.server !== kind || health.pid !== child.pid) {
      throw new Error(
        `${url}/health answered ${JSON.stringify(health)}, not the ${describe} with pid ${child.pid}: refusing to measure it`,
      );
    }
    const asked = options.processes;
    if (asked !== undefined && (health.processes ?? 1) !== asked) {
      throw new Error(`${describe}: ${health.processes ?? 1} processes answer where ${asked} were asked for: refusing to measure it`);
    }
    const servingPids = health.pids ?? [child.pid];
    const strangers = existsSync('/proc/self') ? servingPids.filter((p) => processGroupOf(p) !== child.pid) : [];
    if (strangers.length > 0) {
      throw new Error(
        `${describe}: processes ${strangers.join(', ')} named by /health are not in the group started: refusing to measure them`,
      );
    }
    const server: RunningServer = {
      runtime: spec.name,
      kind,
      pid: child.pid,
      servingPids,
      url,
      health,
      exited,
      get alive() {
        return alive;
      },
      stderrTail,
      stop,
    };
    return server;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** SIGTERM to the whole process group, SIGKILL if it is still there after `graceMs`. */
async function stopGroup(child: ChildProcess, exited: Promise<Exit>, graceMs = 5_000): Promise<Exit> {
  const pid = child.pid;
  if (pid === undefined) return exited;
  signalGroup(pid, 'SIGTERM');
  // A server stopped with SIGSTOP (a hang, or a debugger) only acts on SIGTERM once continued.
  signalGroup(pid, 'SIGCONT');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, graceMs, 'timeout').unref());
  const outcome = await Promise.race([exited, timer]);
  // A grandchild (tsx's esbuild service under Node) may outlive the leader: the group goes
  // either way, and stop() returns only once nothing of it is left.
  signalGroup(pid, 'SIGKILL');
  for (let i = 0; i < 100 && groupAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return outcome === 'timeout' ? exited : outcome;
}

/** Whether /health names as many serving processes as the server says it runs. */
/**
 * Waits until the server answers /health with every serving process of its group (--processes)
 * reported; a process that exits first, or a group still short at the deadline, is an error.
 */
export async function groupHealth(
  url: string,
  alive: () => boolean,
  stderrTail: () => string,
  describe: string,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<Health> {
  let last: Health | undefined;
  return waitFor(
    async () => {
      if (!alive()) throw new Error(`${describe} exited during start-up: ${stderrTail()}`);
      last = await fetchHealth(url, signal);
      // With --processes, every serving process must have reported before it is measured.
      return last !== undefined && groupComplete(last) ? last : undefined;
    },
    deadline,
    `${describe} never answered /health at ${url}`,
    signal,
  ).catch((error: Error) => {
    if (last !== undefined && !groupComplete(last)) {
      throw new Error(`${describe}: only ${last.pids?.length ?? 0} of ${last.processes} processes answer: refusing to measure it`);
    }
    throw error;
  });
}

export function groupComplete(health: Health): boolean {
  return health.processes === undefined || (health.pids?.length ?? 0) >= health.processes;
}

/** A process's group id from /proc (undefined when it is gone or there is no /proc). */
function processGroupOf(pid: number): number | undefined {
  try {
    return Number(parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.fields[2]);
  } catch {
    return undefined;
  }
}

/**
 * Whether anything of the process group still runs. A member that has exited but is not yet
 * reaped does not count: tsx's esbuild services under a Node server are orphaned to PID 1 when
 * the server exits, and a container's PID 1 may reap them only seconds later: stop() would wait
 * that out on every Node server.
 */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  return !existsSync('/proc/self') || processStats().some(({ fields }) => Number(fields[2]) === pid && fields[0] !== 'Z');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Registers a server started elsewhere (a remote one, keyed by its local ssh pid) so that
 * stopAllServers stops it too; returns the way to unregister it once stopped.
 */
export function trackServer(id: number, stop: () => Promise<Exit>): () => void {
  liveGroups.set(id, stop);
  trackGroup(id);
  return () => {
    liveGroups.delete(id);
    untrackGroup(id);
  };
}

/** Stops every server still running or starting: for interruption and test teardown. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...liveGroups.values()].map((stop) => stop()));
}

/** GET /health, or undefined while the server does not answer it (yet) or `signal` is aborted. */
export async function fetchHealth(url: string, signal?: AbortSignal): Promise<Health | undefined> {
  try {
    const timeout = AbortSignal.timeout(2_000);
    const res = await fetch(`${url}/health`, { signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]) });
    if (!res.ok) return undefined;
    return (await res.json()) as Health;
  } catch {
    return undefined;
  }
}

/**
 * Polls `probe` every 50 ms until it gives a value, or throws `timeoutMessage` past the deadline,
 * or Interrupted as soon as `signal` is aborted: a start-up in progress must not hold an
 * interrupted run for its whole readiness deadline.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  deadline: number,
  timeoutMessage: string,
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    if (signal?.aborted === true) throw new Interrupted('interrupted');
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(timeoutMessage);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function formatExit({ code, signal }: Exit): string {
  return signal !== null ? `signal ${signal}` : `exit code ${code}`;
}

function tail(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
