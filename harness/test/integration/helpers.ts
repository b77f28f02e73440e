import { readdirSync, readFileSync } from 'node:fs';
import type { Progress } from '../../src/run/progress.ts';

/** A Progress that keeps the plain lines, for assertions. */
export function recordingProgress(): Progress & { lines: string[] } {
  const lines: string[] = [];
  return { lines, update: () => {}, log: (line) => lines.push(line), done: () => {} };
}

/** Every process whose command line mentions `needle` (e.g. a test's temporary folder). */
export function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A process and all its descendants, from /proc. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const visit = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is dead for our purposes: it runs nothing and holds no port.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * How long one request holds a server that serves one at a time, as its throughput shows when it
 * is never idle: constant arrivals at `overloadPerSec`, past what it serves, for `durationSec`, and
 * 1000 / the rate its answers came back at. That is the service time of M/D/1: the route's own
 * time (its /stats avgMs) plus the HTTP handling around it, which avgMs leaves out and which grows
 * when the machine is busy (about a millisecond a request on a loaded 2-core VM, enough to move
 * the M/D/1 mean at 80 % load by a third).
 */
export async function saturatedServiceMs(
  runStep: (ratePerSec: number, durationSec: number) => Promise<{ achievedPerSec: number; completed: number }>,
  overloadPerSec: number,
  durationSec: number,
): Promise<number> {
  const m = await runStep(overloadPerSec, durationSec);
  if (m.completed < 10 || m.achievedPerSec <= 0) throw new Error(`a saturating step of ${overloadPerSec} req/s for ${durationSec} s got ${m.completed} answers: no service time`);
  return 1000 / m.achievedPerSec;
}
