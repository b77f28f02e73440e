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
 * noise (one tick, 10 ms, across its threads), or at `capMs`: then the last one, with the backlog
 * still in it (the cost reads high, never low).
 */
export async function quietThreads(pid: number, capMs: number): Promise<ThreadsSnapshot | undefined> {
  const until = performance.now() + capMs;
  let last = snapshotThreads(pid);
  while (last !== undefined && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const next = snapshotThreads(pid);
    if (next === undefined) return last;
    const moved = cpuOf(next) - cpuOf(last) + (next.main.runNs - last.main.runNs) / 1e6;
    last = next;
    if (moved <= 10) return next;
  }
  return last;
}
