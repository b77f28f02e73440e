/**
 * CPU time of a browser's whole process tree from /proc, per thread, so a figure above one core
 * can be put on the threads that spent it (V8 GC helpers, compositor, ...). Linux only: elsewhere
 * the snapshot is empty and the report says CPU was not measured.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SEC = 100;

interface ThreadStat {
  pid: number;
  tid: number;
  comm: string;
  processComm: string;
  cpuMs: number;
}

function statFields(text: string): { comm: string; rest: string[] } {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  return { comm: text.slice(open + 1, close), rest: text.slice(close + 2).split(' ') };
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Chromium's processes all share one comm; its --type= flag says which is the renderer, GPU, ... */
function processName(pid: number): string {
  const comm = statFields(read(`/proc/${pid}/stat`) ?? '() x').comm;
  const type = /--type=([\w-]+)/.exec((read(`/proc/${pid}/cmdline`) ?? '').replaceAll('\0', ' '))?.[1];
  return type === undefined ? comm : `${comm}[${type}]`;
}

/** Every descendant of `root`, root included. */
export function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const text = read(`/proc/${entry}/stat`);
    if (text !== undefined) parent.set(Number(entry), Number(statFields(text).rest[1]));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parent) if (ppid === tree[i]) tree.push(pid);
  return tree.filter((pid) => parent.has(pid));
}

export function snapshot(root: number): Map<string, ThreadStat> {
  const threads = new Map<string, ThreadStat>();
  for (const pid of processTree(root)) {
    const processComm = processName(pid);
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const text = read(`/proc/${pid}/task/${tid}/stat`);
      if (text === undefined) continue;
      const { comm, rest } = statFields(text);
      const cpuMs = ((Number(rest[11]) + Number(rest[12])) * 1000) / TICKS_PER_SEC;
      threads.set(`${pid}/${tid}`, { pid, tid: Number(tid), comm, processComm, cpuMs });
    }
  }
  return threads;
}

export interface CpuUse {
  cpuMs: number;
  /** The threads that spent the most, grouped by process and thread name. */
  top: { thread: string; cpuMs: number }[];
}

/** CPU spent between two snapshots; threads born in between count from zero. */
export function cpuBetween(before: Map<string, ThreadStat>, after: Map<string, ThreadStat>): CpuUse {
  const byName = new Map<string, number>();
  let total = 0;
  for (const [key, thread] of after) {
    const spent = thread.cpuMs - (before.get(key)?.cpuMs ?? 0);
    if (spent <= 0) continue;
    total += spent;
    const name = `${thread.processComm}:${thread.comm}`;
    byName.set(name, (byName.get(name) ?? 0) + spent);
  }
  const top = [...byName]
    .map(([thread, cpuMs]) => ({ thread, cpuMs }))
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .slice(0, 5);
  return { cpuMs: total, top };
}
