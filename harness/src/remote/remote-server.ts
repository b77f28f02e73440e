/**
 * A runtime's server started on another host over ssh, behind the same contract as a local one
 * (server.ts): readiness line read from the ssh channel, /health naming the runtime, the server
 * kind and the pid of the readiness line, which must also be the pid the remote wrapper started.
 *
 * The remote side dies with its ssh channel, whatever happens to the harness: a small POSIX sh
 * wrapper (below) starts the server with setsid in its own process group and watches the
 * channel's stdin. End of file (the harness closed it, or died: its end of the pipe into the
 * local ssh closes, ssh forwards EOF) or no heartbeat byte for 10 s (the network dropped: the
 * harness writes one every 2 s) kills the whole group, TERM then KILL. ssh -T with no terminal
 * sends no SIGHUP, so nothing else would.
 */
import { spawn } from 'node:child_process';
import type { ServerKind } from '@bench/app';
import type { RuntimeSpec } from '../servers/runtimes.ts';
import { formatExit, groupHealth, trackServer, waitFor, type Exit, type RunningServer } from '../servers/server.ts';
import { hostOf, sshArgv } from './ssh.ts';
import type { RemoteTarget } from '../servers/server-host.ts';
import type { ThreadProgress } from '../system/proc.ts';

/** Seconds without a heartbeat byte after which the remote wrapper kills the server. */
export const HEARTBEAT_TIMEOUT_SEC = 10;
const HEARTBEAT_EVERY_MS = 2_000;
/**
 * The main-thread progress (liveness.ts) of every process of the server's group, sampled there
 * from its /proc and sent up the channel with the group's members (one ps a tick, a few small
 * forks a second on the server host), so a hang is told from a busy server across hosts too,
 * for each serving process under --processes. A sample older than PROGRESS_FRESH_MS counts as
 * unknown, never as "still".
 */
const PROGRESS_EVERY_SEC = 0.5;
const PROGRESS_FRESH_MS = 1_500;
const PROGRESS_LINE = /^bench-progress (\d+) (\d+) (\d+) (\S)$/;
/** The members of the process group started there (pid = pgid = the server's pid), as ps sees them. */
const GROUP_LINE = /^bench-group ([\d ]*)$/;

/**
 * $1: the checkout; the rest: the server's argv. Background jobs of a non-interactive sh get
 * /dev/null as stdin, so the channel's stdin is kept on fd 3 for the watcher. setsid does not
 * fork here (a background job is not a group leader), so $! is the server's own pid.
 */
export const WRAPPER = `cd "$1" || { echo "bench-remote: no checkout at $1" >&2; exit 98; }
shift
exec 3<&0
setsid "$@" </dev/null 3<&- &
pid=$!
echo "bench-remote pid=$pid"
(
  while [ "$(timeout ${HEARTBEAT_TIMEOUT_SEC} head -c 1 | wc -c)" = 1 ]; do :; done
  kill -s CONT -- "-$pid"; kill -s TERM -- "-$pid"
  i=0; while kill -s 0 -- "-$pid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
  kill -s KILL -- "-$pid"
) <&3 >/dev/null 2>&1 &
watcher=$!
(
  while kill -s 0 "$pid" 2>/dev/null; do
    members=$(ps -e -o pid= -o pgid= 2>/dev/null | awk -v g="$pid" '$2 == g {print $1}')
    [ -n "$members" ] || members=$pid
    echo "bench-group" $members
    for p in $members; do
      read -r run wait slices 2>/dev/null < "/proc/$p/task/$p/schedstat" || continue
      read -r stat 2>/dev/null < "/proc/$p/stat" || continue
      rest=\${stat##*) }
      echo "bench-progress $p $run $slices \${rest%% *}"
    done
    sleep ${PROGRESS_EVERY_SEC}
  done
) <&- 3<&- 2>/dev/null &
sampler=$!
wait $pid; code=$?
kill -s KILL -- "-$pid" 2>/dev/null
kill $watcher $sampler 2>/dev/null
exit $code`;

const READY_LINE = /^ready (\S+) runtime=(\S+) server=(\S+) pid=(\d+)/m;
const WRAPPER_LINE = /^bench-remote pid=(\d+)/m;

export interface RemoteStartOptions {
  raw: boolean;
  serverArgs: string[];
  readyTimeoutMs?: number;
  /** Serving processes asked for (--processes N passed to the server); undefined = one. */
  processes?: number;
  /** Aborting it ends the wait for readiness at once (Interrupted). */
  signal?: AbortSignal;
}

/** The server's argv on the server host: `spec` as built for here, moved to the remote checkout. */
export function remoteServerArgv(spec: RuntimeSpec, serverArgs: string[]): string[] {
  return [spec.binary, ...spec.args(serverArgs)];
}

export async function startRemoteServer(spec: RuntimeSpec, target: RemoteTarget, options: RemoteStartOptions): Promise<RunningServer> {
  const bind = target.bind ?? '';
  const kind: ServerKind = options.raw ? 'raw' : 'hono';
  const describe = `${spec.name} ${kind} server on ${hostOf(target.destination)}`;
  const processArgs = options.processes === undefined ? [] : ['--processes', String(options.processes)];
  const serverArgv = remoteServerArgv(spec, [
    '--port',
    '0',
    '--host',
    bind,
    ...(options.raw ? ['--raw'] : []),
    ...options.serverArgs,
    ...processArgs,
  ]);
  const child = spawn('ssh', sshArgv(target, ['sh', '-c', WRAPPER, 'bench-remote', target.dir, ...serverArgv]), {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  const progress = new Map<number, { sample: ThreadProgress; atMs: number }>();
  let group: { pids: Set<number>; atMs: number } | undefined;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const sample = PROGRESS_LINE.exec(line);
      const members = sample === null ? GROUP_LINE.exec(line) : null;
      if (sample !== null)
        progress.set(Number(sample[1]), {
          sample: { runNs: Number(sample[2]), slices: Number(sample[3]), state: sample[4] ?? '?' },
          atMs: performance.now(),
        });
      else if (members !== null)
        group = {
          pids: new Set(
            (members[1] ?? '')
              .split(' ')
              .filter((p) => p !== '')
              .map(Number),
          ),
          atMs: performance.now(),
        };
      else if (stdout.length < 64_000) stdout += `${line}\n`;
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-64_000);
  });
  // The pipe breaks when ssh is gone: that is reported through `exited`, not as an error here.
  child.stdin?.on('error', () => {});
  const heartbeat = setInterval(() => child.stdin?.writable && child.stdin.write('\n'), HEARTBEAT_EVERY_MS);
  heartbeat.unref();
  let alive = child.pid !== undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      alive = false;
      clearInterval(heartbeat);
      resolve({ code, signal });
    });
    child.once('error', () => {
      alive = false;
      clearInterval(heartbeat);
      resolve({ code: null, signal: null });
    });
  });
  const stderrTail = (lines = 8) => stderr.trimEnd().split('\n').slice(-lines).join('\n');
  const sshPid = child.pid;
  let untrack = () => {};
  // Closing the channel's stdin is the stop signal; the wrapper needs up to 5 s of TERM grace.
  const stop = async (): Promise<Exit> => {
    untrack();
    clearInterval(heartbeat);
    child.stdin?.end();
    const timer = new Promise<'timeout'>((resolve) => setTimeout(resolve, 8_000, 'timeout').unref());
    const outcome = await Promise.race([exited, timer]);
    if (outcome !== 'timeout') return outcome;
    // ssh itself stuck (network gone): ending it closes the channel; the remote watchdog does the rest.
    if (sshPid !== undefined) {
      try {
        process.kill(-sshPid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    return exited;
  };
  if (sshPid !== undefined) untrack = trackServer(sshPid, stop);

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  try {
    if (sshPid === undefined) throw new Error(`${describe}: ssh could not be spawned`);
    const ready = await waitFor(
      async () => {
        if (!alive) {
          const exit = await exited;
          throw new Error(`${describe} exited before ready (${formatExit(exit)})${stderrTail() ? `: ${stderrTail(3)}` : ''}`);
        }
        const match = READY_LINE.exec(stdout);
        return match === null ? undefined : { url: match[1] ?? '', pid: Number(match[4]) };
      },
      deadline,
      `${describe} printed no readiness line`,
      options.signal,
    );
    const started = Number(WRAPPER_LINE.exec(stdout)?.[1]);
    const url = reachableUrl(ready.url, target);
    const health = await groupHealth(
      url,
      () => alive,
      () => stderrTail(3),
      describe,
      deadline,
      options.signal,
    );
    if (health.runtime !== spec.name || health.server !== kind || health.pid !== ready.pid || ready.pid !== started) {
      throw new Error(
        `${url}/health answered ${JSON.stringify(health)}, not the ${describe} with pid ${ready.pid} (started as pid ${started}): refusing to measure it`,
      );
    }
    if (options.processes !== undefined && (health.processes ?? 1) !== options.processes) {
      throw new Error(
        `${describe}: ${health.processes ?? 1} processes answer where ${options.processes} were asked for: refusing to measure it`,
      );
    }
    const servingPids = health.pids ?? [ready.pid];
    // Every serving pid /health names must be a member of the group started there, as ps on that
    // host lists it in the wrapper's next sample (taken after /health answered).
    const asked = performance.now();
    const members = await waitFor(
      async () => {
        if (!alive) throw new Error(`${describe} exited during start-up: ${stderrTail(3)}`);
        return group !== undefined && group.atMs > asked ? group.pids : undefined;
      },
      deadline,
      `${describe}: no list of its process group came from ${hostOf(target.destination)}`,
      options.signal,
    );
    const strangers = servingPids.filter((p) => !members.has(p));
    if (strangers.length > 0) {
      throw new Error(
        `${describe}: processes ${strangers.join(', ')} named by /health are not in the group started there: refusing to measure them`,
      );
    }
    return {
      runtime: spec.name,
      kind,
      pid: ready.pid,
      servingPids,
      url,
      health,
      exited,
      get alive() {
        return alive;
      },
      stderrTail,
      stop,
      remote: {
        host: hostOf(target.destination),
        progress: (pid = ready.pid) => {
          const latest = progress.get(pid);
          return latest !== undefined && performance.now() - latest.atMs <= PROGRESS_FRESH_MS ? latest.sample : undefined;
        },
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A server bound to every interface prints 0.0.0.0 (or ::): the load goes to the bind's host instead. */
function reachableUrl(url: string, target: RemoteTarget): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = target.address ?? hostOf(target.destination);
  return parsed.origin;
}
