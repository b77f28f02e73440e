import { readdirSync, readFileSync } from 'node:fs';
import { parseStat, statCpuMs } from './proc.ts';

/**
 * What other processes took of this host's CPU during a run: the host's busy time (/proc/stat)
 * less what the harness's own process tree used (the harness, its load generator, probe and
 * sampler children, the servers it started). The host check and the speed sampler see a host
 * that is slower; this sees a host that is shared, which they cannot tell apart from a fast one
 * (a compile beside the bench took a cell from 204 to 102 req/s with the host check within
 * 0.2 %). Linux only: undefined where /proc cannot be read.
 */
export interface CpuReading {
  /** The host's busy CPU time so far (user, nice, system, irq, softirq), in ms. */
  hostMs: number;
  /** The CPU time of the harness's process tree so far, in ms. */
  ownMs: number;
}

const CLOCK_TICKS_PER_SEC = 100; // USER_HZ

/** Busy CPU time of the whole host: steal (the hypervisor's) and idle and iowait are not use by anyone here. */
function hostBusyMs(stat: string): number {
  const fields = (stat.split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  return ((user + nice + system + irq + softirq) * 1000) / CLOCK_TICKS_PER_SEC;
}

/**
 * CPU time of `root` and every process below it (each process's stat covers all its threads),
 * with the children each has reaped (cutime, cstime): a child that exits during a run moves its
 * time to its parent's count, so it is still counted as the tree's.
 */
function treeCpuMs(root: number): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited between the listing and the read
    }
    const parsed = parseStat(stat);
    if (parsed === undefined) continue;
    const pid = Number(entry);
    parent.set(pid, Number(parsed.fields[1]));
    cpu.set(pid, statCpuMs(parsed.fields) + ((Number(parsed.fields[13]) + Number(parsed.fields[14])) * 1000) / CLOCK_TICKS_PER_SEC);
  }
  let total = 0;
  for (const [pid, ms] of cpu) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        total += ms;
        break;
      }
    }
  }
  return total;
}

/** A reading now, for the tree rooted at `root` (the harness's own pid). */
export function readCpu(root: number): CpuReading | undefined {
  try {
    return { hostMs: hostBusyMs(readFileSync('/proc/stat', 'utf8')), ownMs: treeCpuMs(root) };
  } catch {
    return undefined;
  }
}

/**
 * Cores' worth of CPU that processes outside the tree used between two readings `wallMs` apart,
 * two decimals, never below 0 (the counters tick at 10 ms, each on its own).
 */
export function othersCores(before: CpuReading, after: CpuReading, wallMs: number): number {
  if (!(wallMs > 0)) return 0;
  const others = after.hostMs - before.hostMs - (after.ownMs - before.ownMs);
  return Math.max(0, Math.round((others / wallMs) * 100) / 100);
}
