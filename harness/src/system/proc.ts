import { readdirSync, readFileSync } from 'node:fs';

/**
 * The OS's view of a server process (Linux /proc): CPU time of all its threads and its resident
 * memory, read from outside so every runtime is measured the same way. Undefined where /proc is
 * not there; callers then fall back to the server's own /stats.
 */
export interface ProcSample {
  cpuMs: number;
  rssBytes: number;
  /** Minor page faults so far (pages the kernel handed the process without I/O, fresh ones among them). */
  minorFaults: number;
}

const CLOCK_TICKS_PER_SEC = 100; // USER_HZ, 100 on every Linux this runs on
const PAGE_SIZE = 4096;

/**
 * A /proc stat line (a process's or a thread's) split into its command name and the fields
 * after it, counted from the state letter (fields[0]): the name may itself hold spaces and
 * parentheses, so it ends at the last ')'.
 */
export function parseStat(stat: string): { name: string; fields: string[] } | undefined {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  return { name: stat.slice(open + 1, close), fields: stat.slice(close + 2).split(' ') };
}

/**
 * Every process's stat line, parsed (name and fields as parseStat gives them); one that exits
 * between the listing and the read is passed over. Empty where there is no /proc.
 */
export function processStats(): { pid: number; name: string; fields: string[] }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const parsed = parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      return parsed === undefined ? [] : [{ pid: Number(entry), name: parsed.name, fields: parsed.fields }];
    } catch {
      return [];
    }
  });
}

/** Clock ticks (the unit of /proc/stat and of a process's stat times) in milliseconds. */
export function ticksMs(ticks: number): number {
  return (ticks * 1000) / CLOCK_TICKS_PER_SEC;
}

/** User plus system CPU time of a parsed stat line, in milliseconds; NaN when unreadable. */
export function statCpuMs(fields: readonly string[]): number {
  return ticksMs(Number(fields[11]) + Number(fields[12]));
}

/** The CPU time of the children a process has reaped (cutime plus cstime), in milliseconds. */
export function reapedCpuMs(fields: readonly string[]): number {
  return ticksMs(Number(fields[13]) + Number(fields[14]));
}

export function readProc(pid: number): ProcSample | undefined {
  try {
    const parsed = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    if (parsed === undefined) return undefined;
    return { cpuMs: statCpuMs(parsed.fields), rssBytes: Number(parsed.fields[21]) * PAGE_SIZE, minorFaults: Number(parsed.fields[7]) };
  } catch {
    return undefined;
  }
}

/**
 * CPU, RSS and page faults summed over several processes (a supervisor and its serving processes under
 * --processes): the price of the group, not of one member. Undefined when any is unreadable.
 */
export function readProcAll(pids: readonly number[]): ProcSample | undefined {
  let cpuMs = 0;
  let rssBytes = 0;
  let minorFaults = 0;
  for (const pid of pids) {
    const one = readProc(pid);
    if (one === undefined) return undefined;
    cpuMs += one.cpuMs;
    rssBytes += one.rssBytes;
    minorFaults += one.minorFaults;
  }
  return { cpuMs, rssBytes, minorFaults };
}

/** Samples RSS (summed over the processes given) every `intervalMs` until stopped and keeps the peak. */
export function watchPeakRss(pids: number | readonly number[], intervalMs = 100): { stop(): number | undefined } {
  let peak: number | undefined;
  const list = typeof pids === 'number' ? [pids] : pids;
  const sample = () => {
    const rss = readProcAll(list)?.rssBytes;
    if (rss !== undefined) peak = Math.max(peak ?? 0, rss);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/**
 * Whether a process's main thread (where every runtime here runs its event loop) is doing
 * anything: its CPU time in nanoseconds and how often it has been scheduled, from
 * /proc/<pid>/task/<pid>/schedstat, and its state letter from /proc/<pid>/stat ("T" when
 * stopped). A thread blocked in a 20 ms Atomics.wait uses almost no CPU but is scheduled at every
 * wake, so a working server moves one figure or the other; a stopped or deadlocked one moves neither.
 */
export interface ThreadProgress {
  runNs: number;
  slices: number;
  state: string;
}

export function readMainThreadProgress(pid: number): ThreadProgress | undefined {
  try {
    const [runNs, , slices] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    const state = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.fields[0] ?? '?';
    if (runNs === undefined || slices === undefined || Number.isNaN(runNs) || Number.isNaN(slices)) return undefined;
    return { runNs, slices, state };
  } catch {
    return undefined;
  }
}

/** CPUs in a kernel CPU list ("0-1,3" -> 3); undefined when it is not one. */
export function countCpuList(list: string): number | undefined {
  let count = 0;
  for (const part of list.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) return undefined;
    count += m[2] === undefined ? 1 : Number(m[2]) - Number(m[1]) + 1;
  }
  return count > 0 ? count : undefined;
}

/** How many CPUs a process may run on (its affinity, Cpus_allowed_list), or undefined where /proc is not there. */
export function readAffinityCpus(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Cpus_allowed_list:'));
    return line === undefined ? undefined : countCpuList(line.slice('Cpus_allowed_list:'.length));
  } catch {
    return undefined;
  }
}
