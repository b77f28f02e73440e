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
import type { Health, ServerKind } from '@bench/app';
import type { RuntimeSpec } from '../run/runtimes.ts';
import { fetchHealth, formatExit, trackServer, waitFor, type Exit, type RunningServer } from '../run/server.ts';
import { hostOf, sshArgv, type RemoteTarget } from './ssh.ts';
import type { ThreadProgress } from '../system/proc.ts';

/** Seconds without a heartbeat byte after which the remote wrapper kills the server. */
export const HEARTBEAT_TIMEOUT_SEC = 10;
const HEARTBEAT_EVERY_MS = 2_000;
/**
 * The server's main-thread progress (liveness.ts) sampled there from its /proc and sent up the
 * channel: two small forks a second on the server host, so a hang is told from a busy server
 * across hosts too. A sample older than PROGRESS_FRESH_MS counts as unknown, never as "still".
 */
const PROGRESS_EVERY_SEC = 0.5;
const PROGRESS_FRESH_MS = 1_500;
const PROGRESS_LINE = /^bench-progress (\d+) (\d+) (\S)$/;

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
    read -r run wait slices 2>/dev/null < "/proc/$pid/task/$pid/schedstat" || break
    read -r stat 2>/dev/null < "/proc/$pid/stat" || break
    rest=\${stat##*) }
    echo "bench-progress $run $slices \${rest%% *}"
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
}

/** The server's argv on the server host: `spec` as built for here, moved to the remote checkout. */
export function remoteServerArgv(spec: RuntimeSpec, serverArgs: string[]): string[] {
  return [spec.binary, ...spec.args(serverArgs)];
}

export async function startRemoteServer(spec: RuntimeSpec, target: RemoteTarget, options: RemoteStartOptions): Promise<RunningServer> {
  const bind = target.bind ?? '';
  const kind: ServerKind = options.raw ? 'raw' : 'hono';
  const describe = `${spec.name} ${kind} server on ${hostOf(target.destination)}`;
  const serverArgv = remoteServerArgv(spec, ['--port', '0', '--host', bind, ...(options.raw ? ['--raw'] : []), ...options.serverArgs]);
  const child = spawn('ssh', sshArgv(target, ['sh', '-c', WRAPPER, 'bench-remote', target.dir, ...serverArgv]), {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  let progress: { sample: ThreadProgress; atMs: number } | undefined;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const sample = PROGRESS_LINE.exec(line);
      if (sample !== null) progress = { sample: { runNs: Number(sample[1]), slices: Number(sample[2]), state: sample[3] ?? '?' }, atMs: performance.now() };
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
    const ready = await waitFor(async () => {
      if (!alive) {
        const exit = await exited;
        throw new Error(`${describe} exited before ready (${formatExit(exit)})${stderrTail() ? `: ${stderrTail(3)}` : ''}`);
      }
      const match = READY_LINE.exec(stdout);
      return match === null ? undefined : { url: match[1] ?? '', pid: Number(match[4]) };
    }, deadline, `${describe} printed no readiness line`);
    const started = Number(WRAPPER_LINE.exec(stdout)?.[1]);
    const url = reachableUrl(ready.url, target);
    const health = await waitFor(async () => {
      if (!alive) throw new Error(`${describe} exited during start-up: ${stderrTail(3)}`);
      return fetchHealth(url);
    }, deadline, `${describe} never answered /health at ${url}`);
    if (health.runtime !== spec.name || health.server !== kind || health.pid !== ready.pid || ready.pid !== started) {
      throw new Error(
        `${url}/health answered ${JSON.stringify(health)}, not the ${describe} with pid ${ready.pid} (started as pid ${started}): refusing to measure it`,
      );
    }
    return {
      runtime: spec.name,
      kind,
      pid: ready.pid,
      // One serving process: --processes is refused with --server-host (plan.ts).
      servingPids: [ready.pid],
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
        progress: () => (progress !== undefined && performance.now() - progress.atMs <= PROGRESS_FRESH_MS ? progress.sample : undefined),
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
