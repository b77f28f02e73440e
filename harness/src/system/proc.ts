import { readFileSync } from 'node:fs';

/**
 * The OS's view of a server process (Linux /proc): CPU time of all its threads and its resident
 * memory, read from outside so every runtime is measured the same way. Undefined where /proc is
 * not there; callers then fall back to the server's own /stats.
 */
export interface ProcSample {
  cpuMs: number;
  rssBytes: number;
}

const CLOCK_TICKS_PER_SEC = 100; // USER_HZ, 100 on every Linux this runs on
const PAGE_SIZE = 4096;

export function readProc(pid: number): ProcSample | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const rssPages = Number(fields[21]);
    return { cpuMs: ((utime + stime) * 1000) / CLOCK_TICKS_PER_SEC, rssBytes: rssPages * PAGE_SIZE };
  } catch {
    return undefined;
  }
}

/** Samples RSS every `intervalMs` until stopped and keeps the peak. */
export function watchPeakRss(pid: number, intervalMs = 100): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const rss = readProc(pid)?.rssBytes;
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
