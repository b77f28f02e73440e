import { execFileSync } from 'node:child_process';

/**
 * Which CPUs the load generator and the servers run on, or why they are not pinned. When pinned:
 * how many CPUs each side got, and the autocannon worker threads the load runs on.
 */
export type Pinning =
  | { client: string; server: string; clientCpus?: number; serverCpus?: number; autocannonWorkers?: number }
  | { reason: string };

/**
 * The load generator's default share of the CPUs when pinning: a quarter (at least one). One
 * CPU of sixteen left Bun's hello cells client-bound at 0.53 to 0.61x of wrk, while calibration
 * on that machine had autocannon with 12 worker threads (sharing the CPUs) at 0.98 to 1.15x of
 * wrk. A quarter gives 4 of 16 and 16 of 64; `--client-cpus N` sets it, and
 * `pnpm bench:calibrate` shows whether the client keeps up.
 */
export const CLIENT_SHARE = 0.25;

export function clientCpusFor(cpuCount: number, asked?: number): number {
  return asked ?? Math.max(1, Math.round(cpuCount * CLIENT_SHARE));
}

/** autocannon worker threads for a client of `cpus` CPUs: in-process on one, one thread per CPU beyond. */
export function autocannonWorkersFor(cpus: number): number {
  return cpus <= 1 ? 0 : cpus;
}

/**
 * Pins only when there are 4 CPUs or more: the load generator gets the first CPUs (its share),
 * the server the rest. With fewer, a pinned server would have one core, and the thread pool
 * (bcrypt) and the worker pool (fib) could buy nothing: the very effect the benchmark measures
 * would be hidden.
 */
export function planPinning(cpuCount: number, tasksetAvailable: boolean, clientCpus?: number, serverCpus?: number): Pinning {
  if (serverCpus !== undefined) return serverCpusPinning(cpuCount, tasksetAvailable, serverCpus);
  if (!tasksetAvailable) return { reason: 'taskset is not installed: server and load generator share every CPU' };
  if (cpuCount < 4) {
    return {
      reason: `${cpuCount} CPUs: pinning would leave the server one core and hide what its thread and worker pools buy; server and load generator share them`,
    };
  }
  const client = clientCpusFor(cpuCount, clientCpus);
  if (client >= cpuCount) return { reason: `--client-cpus ${client} of ${cpuCount} CPUs leaves none for the server: not pinned` };
  return {
    client: client === 1 ? '0' : `0-${client - 1}`,
    server: client === cpuCount - 1 ? String(client) : `${client}-${cpuCount - 1}`,
    clientCpus: client,
    serverCpus: cpuCount - client,
    autocannonWorkers: autocannonWorkersFor(client),
  };
}

/**
 * --server-cpus N: the servers (and every thread of theirs: pools, workers) on the last N CPUs,
 * the same question at another core count; the load generator on the CPUs below them, or beside
 * the servers on all of them when N is every CPU.
 */
function serverCpusPinning(cpuCount: number, taskset: boolean, asked: number): Pinning {
  if (!taskset) return { reason: `--server-cpus ${asked} asked, but taskset is not installed` };
  const n = Math.min(asked, cpuCount);
  const range = (from: number, to: number) => (from === to ? String(from) : `${from}-${to}`);
  const server = range(cpuCount - n, cpuCount - 1);
  const client = n === cpuCount ? server : range(0, cpuCount - n - 1);
  const clientCount = n === cpuCount ? cpuCount : cpuCount - n;
  return {
    client,
    server,
    clientCpus: clientCount,
    serverCpus: n,
    autocannonWorkers: n === cpuCount ? 0 : autocannonWorkersFor(clientCount),
  };
}

export function tasksetAvailable(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Moves every thread of this process (the load generator) onto the client CPUs. */
export function pinSelf(cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}
