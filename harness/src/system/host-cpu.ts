import { readFileSync } from 'node:fs';
import { processStats, reapedCpuMs, statCpuMs, ticksMs } from './proc.ts';

/**
 * What other processes took of this host's CPU during a run: the host's time in processes
 * (/proc/stat) less what the harness's own process tree used (the harness, its load generator,
 * probe and sampler children, the servers it started) and the kernel's own threads but ksoftirqd.
 * The host check and the speed sampler see a host that is slower; this sees a host that is
 * shared, which they can read as one that held its speed (docs/methodology.md, "A host shared
 * with other work"). Linux only: undefined where /proc cannot be read. In a container with a pid
 * namespace of its own the kernel's threads are not listed, so their time counts as others'.
 */
export interface CpuReading {
  /** The host's CPU time so far in processes (user, nice, system), in ms. */
  hostMs: number;
  /** The CPU time so far of the harness's process tree, the children its processes reaped included, in ms. */
  treeMs: number;
  /**
   * Each kernel thread's CPU time so far, in ms, by pid and start time: kernel threads come and
   * go between readings, so they are compared thread by thread (ownMsBetween), not as one total.
   */
  kernelMs: ReadonlyMap<string, number>;
}

/**
 * CPU time of the whole host spent in processes, from /proc/stat's first line. Steal (the
 * hypervisor's), idle and iowait are no one's use here; irq and softirq are left out too, with
 * the kernel's threads (ownCpu): loopback traffic and the page cache put the harness's own work
 * there, so a server that sends more or reads more would raise them, and its rounds would be
 * left out as shared (ab/ab-verdict.ts) for what it did itself.
 */
export function hostBusyMs(stat: string): number {
  const fields = (stat.split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0] = fields;
  return ticksMs(user + nice + system);
}

/**
 * PF_KTHREAD in a process's stat flags (field 9): a kernel thread (ksoftirqd, kworker, ...). By
 * its flag, not as a child of pid 2: in a container's pid namespace pid 2 is anyone's process and
 * the kernel's threads are not listed at all.
 */
const PF_KTHREAD = 0x200000;
const isKernelThread = (fields: readonly string[]): boolean => (Number(fields[6]) & PF_KTHREAD) !== 0;

/**
 * ksoftirqd/N runs the softirqs a CPU could not finish in interrupt context, and Linux counts its
 * time as softirq in /proc/stat (as well as in its own stime), which hostBusyMs leaves out:
 * taking it off the host's time again would read others' CPU low by as much.
 */
const isSoftirqThread = (name: string): boolean => name.startsWith('ksoftirqd/');

/** A kernel thread's key across readings: a pid the kernel gave out again is another thread. */
const threadKey = (pid: number, fields: readonly string[]): string => `${pid}@${fields[19]}`;

/**
 * CPU time of `root` and every process below it (each process's stat covers all its threads),
 * with the children each has reaped (cutime, cstime): a child that exits during a run moves its
 * time to its parent's count, so it is still counted as the tree's. And each kernel thread's time
 * but ksoftirqd's (hostBusyMs and isSoftirqThread say why): no one reaps those, so one that exits
 * takes its time with it, and they are kept apart to be compared thread by thread.
 */
export function ownCpu(
  root: number,
  stats: readonly { pid: number; name: string; fields: readonly string[] }[] = processStats(),
): { treeMs: number; kernelMs: Map<string, number> } {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  const kernelMs = new Map<string, number>();
  for (const { pid, name, fields } of stats) {
    if (isKernelThread(fields)) {
      if (!isSoftirqThread(name)) kernelMs.set(threadKey(pid, fields), statCpuMs(fields));
    } else {
      parent.set(pid, Number(fields[1]));
      cpu.set(pid, statCpuMs(fields) + reapedCpuMs(fields));
    }
  }
  let treeMs = 0;
  for (const [pid, ms] of cpu) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        treeMs += ms;
        break;
      }
    }
  }
  return { treeMs, kernelMs };
}

/** A reading now, for the tree rooted at `root` (the harness's own pid). */
export function readCpu(root: number): CpuReading | undefined {
  try {
    return { hostMs: hostBusyMs(readFileSync('/proc/stat', 'utf8')), ...ownCpu(root) };
  } catch {
    return undefined;
  }
}

/**
 * The harness's own CPU between two readings, in ms: the tree's totals differenced (its exited
 * processes are in their parents' reaped time), and the kernel's threads one by one, each by what
 * it used since the first reading or, started since, all it used. A kernel thread gone by the
 * second reading drops out with what it used in between, instead of taking its whole lifetime off
 * the total and so onto others'.
 */
function ownMsBetween(before: CpuReading, after: CpuReading): number {
  let kernel = 0;
  for (const [key, ms] of after.kernelMs) kernel += ms - (before.kernelMs.get(key) ?? 0);
  return after.treeMs - before.treeMs + kernel;
}

/**
 * Cores' worth of CPU that processes outside the tree used between two readings `wallMs` apart,
 * two decimals, never below 0 (the counters tick at 10 ms, each on its own).
 */
export function othersCores(before: CpuReading, after: CpuReading, wallMs: number): number {
  if (!(wallMs > 0)) return 0;
  const others = after.hostMs - before.hostMs - ownMsBetween(before, after);
  return Math.max(0, Math.round((others / wallMs) * 100) / 100);
}
