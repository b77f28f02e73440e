/**
 * wrk (https://github.com/wg/wrk) as a second load generator: multi-threaded C, so on a small
 * machine it shows how far the servers go when the client is not the bottleneck. Finding it,
 * running it, and reading its text output (it has no JSON output without a Lua script).
 */
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface WrkLatency {
  p50: number;
  p90: number;
  p99: number;
}

export interface WrkSocketErrors {
  connect: number;
  read: number;
  write: number;
  timeout: number;
}

export interface WrkResult {
  requestsPerSec: number;
  /** Responses completed. */
  requests: number;
  /** The time wrk actually ran, as it reports it. */
  durationSec: number;
  /** From the --latency distribution; absent when wrk ran without it. */
  latencyMs?: WrkLatency;
  socketErrors: WrkSocketErrors;
  non2xx: number;
}

export interface WrkOptions {
  url: string;
  connections: number;
  threads: number;
  /** Rounded up to whole seconds: see wrkDurationSec. */
  durationSec: number;
  /** Per-request timeout, rounded up to whole seconds (wrk's default is 2 s). */
  timeoutSec?: number;
  signal?: AbortSignal;
  /** The wrk binary; findWrk() when not given. */
  binary?: string;
}

/** How long after the expected end a wrk that has not exited is killed: it hangs on nothing we know of. */
const OVERRUN_GRACE_MS = 15_000;

/** `BENCH_WRK_BIN` when set (a build elsewhere), else `wrk` on PATH; undefined when neither is runnable. */
export function findWrk(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const override = env.BENCH_WRK_BIN;
  // A set but broken override is not silently replaced by the wrk on PATH: that would measure
  // with a binary the user did not ask for.
  if (override !== undefined && override !== '') return isExecutableFile(override) ? override : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'wrk');
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Why findWrk() found nothing, for reports. */
export function missingWrkReason(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.BENCH_WRK_BIN;
  if (override !== undefined && override !== '') return `BENCH_WRK_BIN=${override} is not an executable file`;
  return 'wrk not found on PATH (install it, e.g. apt-get install wrk, or set BENCH_WRK_BIN)';
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** wrk's version, e.g. "4.1.0-3+b2" from "wrk debian/4.1.0-3+b2 [epoll] ..."; `wrk -v` exits 1 by design. */
export function wrkVersion(binary: string): string | undefined {
  let out: string;
  try {
    out = execFileSync(binary, ['-v'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    out = String((error as { stdout?: string }).stdout ?? '');
  }
  const match = /^wrk (?:\S+\/)?(\S+)/m.exec(out);
  return match?.[1];
}

/**
 * wrk parses -d and --timeout as whole numbers of seconds ("0.5s" and "500ms" print the usage
 * and exit 1; "0" too), so a fractional duration is rounded up: a run is never shorter than asked.
 */
export function wrkDurationSec(durationSec: number): number {
  return Math.max(1, Math.ceil(durationSec));
}

export function wrkArgs(options: Omit<WrkOptions, 'signal' | 'binary'>): string[] {
  if (!Number.isInteger(options.threads) || options.threads < 1)
    throw new RangeError(`wrk threads must be a positive integer, got ${options.threads}`);
  // wrk refuses fewer connections than threads ("number of connections must be >= threads").
  if (!Number.isInteger(options.connections) || options.connections < options.threads) {
    throw new RangeError(`wrk connections must be an integer >= threads (${options.threads}), got ${options.connections}`);
  }
  const args = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${wrkDurationSec(options.durationSec)}s`];
  if (options.timeoutSec !== undefined) args.push('--timeout', `${wrkDurationSec(options.timeoutSec)}s`);
  return [...args, '--latency', options.url];
}

const TIME_UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** A wrk time such as "262.00us", "2.30ms", "1.00s" in milliseconds. */
export function parseWrkTimeMs(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)$/.exec(text.trim());
  const factor = match === null ? undefined : TIME_UNIT_MS[match[2] ?? ''];
  if (match === null || factor === undefined) throw new Error(`not a wrk time: "${text}"`);
  return Number(match[1]) * factor;
}

/** Reads wrk's normal (non-Lua) output. Throws when the summary lines are missing: wrk did not finish. */
export function parseWrkOutput(text: string): WrkResult {
  const rate = /^Requests\/sec:\s+(\d+(?:\.\d+)?)/m.exec(text);
  const total = /^\s*(\d+) requests in (\S+?),/m.exec(text);
  if (rate === null || total === null) {
    throw new Error(`wrk output has no summary (Requests/sec and "N requests in T"): ${firstLine(text) || '(empty)'}`);
  }
  const sockets = /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m.exec(text);
  const non2xx = /^\s*Non-2xx or 3xx responses: (\d+)/m.exec(text);
  const result: WrkResult = {
    requestsPerSec: Number(rate[1]),
    requests: Number(total[1]),
    durationSec: parseWrkTimeMs(total[2] ?? '') / 1_000,
    socketErrors: {
      connect: Number(sockets?.[1] ?? 0),
      read: Number(sockets?.[2] ?? 0),
      write: Number(sockets?.[3] ?? 0),
      timeout: Number(sockets?.[4] ?? 0),
    },
    non2xx: Number(non2xx?.[1] ?? 0),
  };
  const latency = parseLatencyDistribution(text);
  return latency === undefined ? result : { ...result, latencyMs: latency };
}

/** The "Latency Distribution" block printed with --latency: lines like "     50%  262.00us". */
function parseLatencyDistribution(text: string): WrkLatency | undefined {
  const block = text.split(/^\s*Latency Distribution\s*$/m)[1];
  if (block === undefined) return undefined;
  const percentiles = new Map<string, number>();
  for (const match of block.matchAll(/^\s*(\d+)%\s+(\S+)\s*$/gm)) percentiles.set(match[1] ?? '', parseWrkTimeMs(match[2] ?? ''));
  const p50 = percentiles.get('50');
  const p90 = percentiles.get('90');
  const p99 = percentiles.get('99');
  return p50 === undefined || p90 === undefined || p99 === undefined ? undefined : { p50, p90, p99 };
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? '';
}

/**
 * One wrk run. Rejects when wrk cannot start, exits non-zero (e.g. "unable to connect"), prints
 * no summary, or overruns; on abort wrk is killed and the promise rejects with the abort reason.
 */
export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const binary = options.binary ?? findWrk();
  if (binary === undefined) return Promise.reject(new Error(missingWrkReason()));
  const args = wrkArgs(options);
  const { signal } = options;
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  return new Promise<WrkResult>((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_000)));
    let failure: unknown;
    const kill = (why: unknown) => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const expectedMs = (wrkDurationSec(options.durationSec) + wrkDurationSec(options.timeoutSec ?? 2)) * 1_000;
    const watchdog = setTimeout(
      () => kill(new Error(`wrk ran ${expectedMs + OVERRUN_GRACE_MS} ms without finishing: killed`)),
      expectedMs + OVERRUN_GRACE_MS,
    );
    const settle = () => {
      clearTimeout(watchdog);
      signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (error) => {
      settle();
      reject(new Error(`wrk could not be started (${binary}): ${error.message}`));
    });
    child.once('close', (code, exitSignal) => {
      settle();
      if (failure !== undefined) return reject(failure);
      if (code !== 0) {
        const why = firstLine(stderr) || firstLine(stdout) || (exitSignal !== null ? `signal ${exitSignal}` : `exit code ${code}`);
        return reject(new Error(`wrk failed: ${why}`));
      }
      try {
        resolve(parseWrkOutput(stdout));
      } catch (error) {
        reject(error);
      }
    });
  });
}
