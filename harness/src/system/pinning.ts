import { execFileSync } from 'node:child_process';

/** Which CPUs the load generator and the servers run on, or why they are not pinned. */
export type Pinning = { client: string; server: string } | { reason: string };

/**
 * Pins only when there are 4 CPUs or more: the load generator gets CPU 0, the server the rest.
 * With fewer, a pinned server would have one core, and the thread pool (bcrypt) and the worker
 * pool (fib) could buy nothing: the very effect the benchmark measures would be hidden.
 */
export function planPinning(cpuCount: number, tasksetAvailable: boolean): Pinning {
  if (!tasksetAvailable) return { reason: 'taskset is not installed: server and load generator share every CPU' };
  if (cpuCount < 4) {
    return {
      reason: `${cpuCount} CPUs: pinning would leave the server one core and hide what its thread and worker pools buy; server and load generator share them`,
    };
  }
  return { client: '0', server: `1-${cpuCount - 1}` };
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
