/**
 * A server's threads told apart by what they do for a request, from their names in
 * /proc/<pid>/task/<tid>/comm (the kernel keeps 15 characters): the main thread, where every
 * runtime here runs its event loop; the runtime's own helpers (the JavaScript engine's garbage
 * collector and compiler threads), which a request pays for indirectly; and every other thread,
 * which runs the request's work off the loop (Node's libuv pool, "libuv-worker", and its
 * worker_threads; Bun's work pool; Deno's blocking pool and its workers). The names were read
 * from the pinned runtimes serving every route; an unknown name counts as off-loop work, the side
 * a new pool would land on.
 *
 * Why per thread: a throughput ratio on N CPUs is bounded by N, whatever the work; CPU per request
 * on the loop's thread and off it does not depend on the core count, so it says what a mode
 * costs where the ratio only says what this machine gave.
 */
import type { CpuPerRequest } from '../model/cell.ts';
import type { ThreadsSnapshot } from './threads.ts';

export type ThreadKind = 'loop' | 'pool' | 'helper';

/**
 * The engines' own threads, as the pinned runtimes name them: V8's platform workers and delayed
 * task scheduler (Node 24: "V8Worker", "DelayedTaskSche"; Deno: "V8 DefaultWorke"),
 * JavaScriptCore's compiler, GC and warm-up threads (Bun: "JITWorker", "HeapHelper",
 * "JSCWarmUp"), and signal and inspector threads. Off-loop work runs elsewhere: Node's
 * "libuv-worker" and "WorkerThread", Bun's "Bun Pool N" and "Worker", Deno's "tokio-runtime-w"
 * and its workers.
 */
const HELPER_NAMES = /^(V8|DelayedTaskSche|HeapHelper|Heap Helper|JITWorker|JSC|inspector|SignalInspector|Signal Catcher|perf)/i;

/** What a thread does for a request: `tid === pid` is the main thread (the loop). */
export function threadKind(name: string, tid: number, pid: number): ThreadKind {
  if (tid === pid) return 'loop';
  return HELPER_NAMES.test(name) ? 'helper' : 'pool';
}

/**
 * CPU ms each kind of thread used between two snapshots of one process; threads started in
 * between count from zero. The loop's from its schedstat (nanoseconds); the others' from their
 * stat (clock ticks of 10 ms, summed over many threads and a run's second or more).
 */
export function cpuByKind(before: ThreadsSnapshot, after: ThreadsSnapshot, pid: number): Record<ThreadKind, number> {
  const out: Record<ThreadKind, number> = { loop: Math.max(0, (after.main.runNs - before.main.runNs) / 1e6), pool: 0, helper: 0 };
  for (const [tid, t] of after.threads) {
    const kind = threadKind(t.name, tid, pid);
    const used = t.cpuMs - (before.threads.get(tid)?.cpuMs ?? 0);
    if (kind !== 'loop' && used > 0) out[kind] += used;
  }
  return out;
}

const round3 = (x: number) => Number(x.toPrecision(3));

/** CPU ms a request cost on each kind of thread: `byKind` over the requests answered; undefined without any. */
export function cpuPerRequest(byKind: Record<ThreadKind, number>, requests: number): CpuPerRequest | undefined {
  if (!(requests > 0)) return undefined;
  return { loopMs: round3(byKind.loop / requests), poolMs: round3(byKind.pool / requests), helperMs: round3(byKind.helper / requests) };
}
