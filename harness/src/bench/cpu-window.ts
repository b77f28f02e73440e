/**
 * The window a request's CPU cost is measured over. When the load stops, requests it sent are
 * still on the server (queued behind the loop, or in the pool), and their CPU is spent after the
 * client stopped counting: divided by the client's count, a slow request reads as much as a third
 * dearer. So the cost is read once the server's threads have stopped using CPU, over the requests
 * the server itself counted by then.
 */
import { snapshotThreads, type ThreadsSnapshot } from '../system/threads.ts';

const POLL_MS = 25;

/** Total CPU ms of a snapshot's threads (stat ticks). */
const cpuOf = (s: ThreadsSnapshot) => [...s.threads.values()].reduce((sum, t) => sum + t.cpuMs, 0);

/**
 * A snapshot taken once the process's threads used no more CPU over POLL_MS than clock-tick
 * noise (one tick, 10 ms, across its threads), with `quiet` true; or at `capMs`, the last one,
 * with the backlog still in it (the cost reads high, never low) and `quiet` false.
 */
export async function quietThreads(pid: number, capMs: number): Promise<{ snapshot: ThreadsSnapshot; quiet: boolean } | undefined> {
  const until = performance.now() + capMs;
  let last = snapshotThreads(pid);
  if (last === undefined) return undefined;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const next = snapshotThreads(pid);
    if (next === undefined) return { snapshot: last, quiet: false };
    const moved = cpuOf(next) - cpuOf(last) + (next.main.runNs - last.main.runNs) / 1e6;
    last = next;
    if (moved <= 10) return { snapshot: next, quiet: true };
  }
  return { snapshot: last, quiet: false };
}
