/**
 * Which of a server's threads did the work during a run, and how long its main thread (where
 * every runtime here runs its event loop) waited for a CPU. Linux /proc, read from outside, the
 * same way for every runtime.
 *
 * Why: "async" moves work off the loop, but onto threads that still need the machine's cores.
 * On 2 cores, ten hashing threads and the loop thread share two CPUs, and a trivial request
 * then waits for the loop thread to be scheduled, not for the loop. The run-queue wait of the
 * main thread (schedstat's second field) measures exactly that, and the busy-thread count says
 * how wide each runtime's pool went.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { ThreadUse } from '../model/cell.ts';
import { parseStat, statCpuMs } from './proc.ts';

/** A thread counts as busy when it used at least this share of one core during the run. */
export const BUSY_THREAD_PERCENT = 5;

export interface ThreadsSnapshot {
  atMs: number;
  /** The main thread from schedstat, in nanoseconds: on a CPU, waiting on a run queue; times scheduled. */
  main: { runNs: number; waitNs: number; slices: number };
  /** Every thread's name and CPU time (utime + stime) from its stat, by thread id. */
  threads: Map<number, { name: string; cpuMs: number }>;
}

export function snapshotThreads(pid: number, now: () => number = () => performance.now()): ThreadsSnapshot | undefined {
  try {
    const [runNs, waitNs, slices] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    if (runNs === undefined || waitNs === undefined || slices === undefined || [runNs, waitNs, slices].some(Number.isNaN)) return undefined;
    const threads = new Map<number, { name: string; cpuMs: number }>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const sample = readThreadStat(pid, Number(tid));
      if (sample !== undefined) threads.set(Number(tid), sample);
    }
    return { atMs: now(), main: { runNs, waitNs, slices }, threads };
  } catch {
    return undefined;
  }
}

function readThreadStat(pid: number, tid: number): { name: string; cpuMs: number } | undefined {
  try {
    return parseThreadStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
  } catch {
    return undefined; // the thread ended between the listing and the read
  }
}

/** A /proc/<pid>/task/<tid>/stat line -> the thread's name and CPU time. */
export function parseThreadStat(stat: string): { name: string; cpuMs: number } | undefined {
  const parsed = parseStat(stat);
  if (parsed === undefined) return undefined;
  const cpuMs = statCpuMs(parsed.fields);
  return Number.isNaN(cpuMs) ? undefined : { name: parsed.name, cpuMs };
}

/**
 * What happened between two snapshots of one process. Threads started in between count from
 * zero; the main thread is left out of the busy count and the busiest list.
 */
export function threadUse(before: ThreadsSnapshot, after: ThreadsSnapshot, pid: number): ThreadUse | undefined {
  const wallMs = after.atMs - before.atMs;
  if (!(wallMs > 0)) return undefined;
  const others = [...after.threads]
    .filter(([tid]) => tid !== pid)
    .map(([tid, t]) => ({ name: t.name, cpuPercent: ((t.cpuMs - (before.threads.get(tid)?.cpuMs ?? 0)) / wallMs) * 100 }))
    .sort((a, b) => b.cpuPercent - a.cpuPercent);
  const slices = after.main.slices - before.main.slices;
  const waitMs = (after.main.waitNs - before.main.waitNs) / 1e6;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    mainCpuPercent: round(((after.main.runNs - before.main.runNs) / 1e6 / wallMs) * 100),
    mainWaitMsPerSec: round((waitMs / wallMs) * 1000),
    mainWaitPerSliceMs: slices > 0 ? Math.round((waitMs / slices) * 100) / 100 : 0,
    busyThreads: others.filter((t) => t.cpuPercent >= BUSY_THREAD_PERCENT).length,
    othersCpuPercent: round(others.reduce((sum, t) => sum + Math.max(0, t.cpuPercent), 0)),
    busiest: others.slice(0, 3).map((t) => ({ name: t.name, cpuPercent: round(t.cpuPercent) })),
  };
}
