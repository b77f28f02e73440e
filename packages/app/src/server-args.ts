import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BOUNDS, DEFAULTS, type AppConfig, type RuntimeName } from './config.ts';
import { FIB_VARIANTS, type FibVariant } from './workloads/fib.ts';

/**
 * The one connection timeout every server sets, so a request queued behind blocking work is
 * treated the same on every runtime: answered when the loop gets to it, however long that takes.
 * Bun closes a connection idle for 10 s by default and counts a request waiting for a blocked
 * loop as idle, which showed up as errors on Bun only; 255 s is Bun's maximum. Node gets the same
 * keep-alive timeout and no request/headers timeout; Deno.serve has no timeout to set and closes
 * nothing on its own.
 */
export const SERVER_IDLE_TIMEOUT_SEC = 255;

export interface ServerOptions {
  port: number;
  host: string;
  raw: boolean;
  /** Serving processes on the one port (--processes N|auto; auto = the CPUs the server may use). */
  processes: number;
  /** --threadpool N as given (the runtime applies it where it can), undefined = default. */
  threadpool: number | undefined;
  /** Where the worker pool's size came from: --workers, BENCH_WORKERS, or the CPUs. */
  workersSource: 'flag' | 'env' | 'default';
  app: AppConfig;
}

export interface Identity {
  runtime: RuntimeName;
  version: string;
  pid: number;
  /** Used when --data-dir is not given. */
  defaultDataDir: string;
  /** The CPUs this server may use (its affinity); sizes the scenario worker pool when --workers is not given. */
  cpus?: number;
  /**
   * BENCH_WORKERS from the server's environment, read by the runtime's entrypoint: the worker
   * pool's size when --workers is not given, so settings (bench:ab's env: variants) can set it.
   */
  workersEnv?: string;
}

/** The environment setting that sizes the scenario worker pool when --workers is not given. */
export const WORKERS_ENV = 'BENCH_WORKERS';

export const MAX_WORKER_POOL = 64;
export const MAX_PROCESSES = 256;
/** libuv's own cap on UV_THREADPOOL_SIZE. */
export const MAX_THREADPOOL = 1024;
/** libuv's default, and the floor of the Node pool sized here: it also serves file reads. */
export const LIBUV_DEFAULT_THREADPOOL = 4;

/**
 * The CPUs each serving process gets a share of: with N processes on C CPUs, C/N (rounded up),
 * so N processes' pools together still match the machine instead of N times over.
 */
export function cpusPerProcess(cpus: number | undefined, processes = 1): number | undefined {
  if (cpus === undefined || !Number.isFinite(cpus)) return undefined;
  return Math.max(1, Math.ceil(Math.max(1, Math.floor(cpus)) / Math.max(1, processes)));
}

/**
 * Node's libuv thread pool (bcrypt's async hash, file reads) for one process: one thread per CPU
 * share, never fewer than libuv's default 4 (file reads wait rather than compute), at most 1024.
 * A fixed 4 made hash async/sync 4.0x on a 16-CPU machine: a default's answer.
 */
export function threadpoolSizeFor(cpus: number | undefined, processes = 1): number {
  const share = cpusPerProcess(cpus, processes);
  if (share === undefined) return LIBUV_DEFAULT_THREADPOOL;
  return Math.min(MAX_THREADPOOL, Math.max(LIBUV_DEFAULT_THREADPOOL, share));
}

/** `--processes N|auto`: auto is one process per CPU the server may use. */
export function parseProcesses(raw: string | undefined, cpus: number | undefined): number {
  if (raw === undefined) return 1;
  if (raw === 'auto') return Math.min(MAX_PROCESSES, Math.max(1, Math.floor(cpus ?? 1)));
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > MAX_PROCESSES) {
    throw new Error(`--processes must be "auto" or an integer from 1 to ${MAX_PROCESSES}, got "${raw}"`);
  }
  return value;
}

/**
 * One pool worker per CPU the server may use: a fixed pool of 2 made worker/sync 1.5 to 2.3x on a
 * 16-CPU machine, a default's answer rather than the machine's.
 */
export function workerPoolSizeFor(cpus: number | undefined): number {
  if (cpus === undefined || !Number.isFinite(cpus)) return DEFAULTS.workerPoolSize;
  return Math.min(MAX_WORKER_POOL, Math.max(1, Math.floor(cpus)));
}

/** Every flag a server takes: exported so a harness can ask another build's parser which of them it knows. */
export const SERVER_FLAGS = {
  port: { type: 'string', default: '3000' },
  host: { type: 'string', default: '127.0.0.1' },
  raw: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  'hash-cost': { type: 'string', default: String(DEFAULTS.hashCost) },
  'fib-n': { type: 'string', default: String(DEFAULTS.fibN) },
  'fib-variant': { type: 'string', default: DEFAULTS.fibVariant },
  'busy-exponent': { type: 'string', default: String(DEFAULTS.busyExponent) },
  'async-depth': { type: 'string', default: String(DEFAULTS.asyncDepth) },
  'sleep-ms': { type: 'string', default: String(DEFAULTS.sleepMs) },
  workers: { type: 'string' },
  processes: { type: 'string' },
  threadpool: { type: 'string' },
  'lag-interval-ms': { type: 'string', default: String(DEFAULTS.lagIntervalMs) },
  // A scenario module of the user's own, served beside the built-ins (repeatable).
  'scenario-file': { type: 'string', multiple: true },
  // Only these scenario modules are set up (comma-separated names, or none).
  scenarios: { type: 'string' },
} as const;

/**
 * The flags every runtime entrypoint takes, parsed with node:util (present on all three).
 * Throws one clear message on a bad flag; the entrypoint prints it and exits 2.
 */
export function parseServerArgs(argv: string[], identity: Identity): ServerOptions {
  const { values } = parseArgs({ args: argv, strict: true, options: SERVER_FLAGS });
  // `label`: what the message names, the flag by default; a value from the environment is named as it is set.
  const int = (name: string, raw: string | undefined, min: number, max: number, label = `--${name}`): number => {
    const value = Number(raw);
    if (raw === undefined || !/^\d+$/.test(raw) || value < min || value > max) {
      throw new Error(`${label} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };
  const variant = values['fib-variant'] as FibVariant;
  if (!FIB_VARIANTS.includes(variant)) {
    throw new Error(`--fib-variant must be one of ${FIB_VARIANTS.join(', ')}, got "${variant}"`);
  }
  const processes = parseProcesses(values.processes, identity.cpus);
  const workersEnv = identity.workersEnv === '' ? undefined : identity.workersEnv;
  const workersSource = values.workers !== undefined ? 'flag' : workersEnv !== undefined ? 'env' : 'default';
  const workers = values.workers ?? workersEnv ?? String(workerPoolSizeFor(cpusPerProcess(identity.cpus, processes)));
  return {
    port: int('port', values.port, 0, 65535),
    host: values.host ?? '127.0.0.1',
    raw: values.raw ?? false,
    processes,
    threadpool: values.threadpool === undefined ? undefined : int('threadpool', values.threadpool, 1, MAX_THREADPOOL),
    workersSource,
    app: {
      runtime: identity.runtime,
      version: identity.version,
      pid: identity.pid,
      dataDir: values['data-dir'] ?? identity.defaultDataDir,
      hashCost: int('hash-cost', values['hash-cost'], BOUNDS.hashCost.min, BOUNDS.hashCost.max),
      fibN: int('fib-n', values['fib-n'], BOUNDS.fibMemoN.min, BOUNDS.fibMemoN.max),
      fibVariant: variant,
      busyExponent: int('busy-exponent', values['busy-exponent'], BOUNDS.busyExponent.min, BOUNDS.busyExponent.max),
      asyncDepth: int('async-depth', values['async-depth'], BOUNDS.asyncDepth.min, BOUNDS.asyncDepth.max),
      sleepMs: int('sleep-ms', values['sleep-ms'], BOUNDS.sleepMs.min, BOUNDS.sleepMs.max),
      workerPoolSize: int('workers', workers, 1, MAX_WORKER_POOL, workersSource === 'env' ? WORKERS_ENV : undefined),
      lagIntervalMs: int('lag-interval-ms', values['lag-interval-ms'], 1, 1000),
      ...(values['scenario-file'] === undefined ? {} : { scenarioFiles: values['scenario-file'].map((f) => resolve(f)) }),
      ...(values.scenarios === undefined ? {} : { scenarios: values.scenarios === 'none' ? [] : values.scenarios.split(',') }),
    },
  };
}

/** The one line each server prints when it accepts connections; the harness waits for it. */
export function readinessLine(url: string, runtime: RuntimeName, server: 'hono' | 'raw', pid: number): string {
  return `ready ${url} runtime=${runtime} server=${server} pid=${pid}`;
}

/**
 * One line for a server that could not start listening, the same on every runtime: Node says
 * EADDRINUSE, Bun "Is port N in use?", Deno AddrInUse.
 */
export function describeStartError(error: unknown, host: string, port: number): string {
  const err = error as { code?: string; name?: string; message?: string };
  const text = `${err.code ?? ''} ${err.name ?? ''} ${err.message ?? String(error)}`;
  if (/EADDRINUSE|AddrInUse|address already in use|in use/i.test(text)) {
    return `port ${port} on ${host} is already in use (another server still running?); pick another with --port`;
  }
  if (/EADDRNOTAVAIL|AddrNotAvailable|EACCES|PermissionDenied/i.test(text)) {
    return `cannot listen on ${host}:${port}: ${err.message ?? String(error)}`;
  }
  return err.message ?? String(error);
}
