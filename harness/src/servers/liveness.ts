/**
 * Overloaded, dead or hung: how the harness tells them apart without asking the server.
 *
 * A server with a thousand requests queued in front of /stats does not answer /stats for a long
 * time, yet it is doing exactly what the benchmark exists to show. So control requests never
 * decide on their own that a server is gone: while one is waiting, the harness watches the
 * process from outside. Exited: dead. Main thread neither running nor being scheduled for the
 * whole hang deadline: hung (a SIGSTOPped or deadlocked process). Anything else is working,
 * however slowly; a wait that would outlast the drain deadline ends as "busy", and the caller
 * restarts the server instead of waiting minutes for it.
 */
import { readMainThreadProgress, type ThreadProgress } from '../system/proc.ts';
import { formatExit, type RunningServer } from './server.ts';

/** The server process ended (or stopped working) while a cell was being measured. */
export class ServerLost extends Error {}

/** The server is alive and working but will not be quiet within the drain deadline. */
export class ServerBusy extends Error {}

export interface ProgressSample {
  atMs: number;
  progress: ThreadProgress | undefined;
}

export type ProgressVerdict = { state: 'working' } | { state: 'unknown' } | { state: 'hung'; idleMs: number; stopped: boolean };

/**
 * Pure rule over samples taken in time order: hung when the main thread's CPU time and schedule
 * count stood still from some sample up to the last one, for at least `hungAfterMs`. Unknown
 * when there is no /proc to read (the caller then relies on its deadlines alone).
 */
export function progressVerdict(samples: readonly ProgressSample[], hungAfterMs: number): ProgressVerdict {
  const last = samples.at(-1);
  if (last?.progress === undefined) return { state: 'unknown' };
  let since = last.atMs;
  for (let i = samples.length - 2; i >= 0; i--) {
    const p = samples[i]?.progress;
    if (p === undefined || p.runNs !== last.progress.runNs || p.slices !== last.progress.slices) break;
    since = samples[i]!.atMs;
  }
  const idleMs = last.atMs - since;
  if (idleMs >= hungAfterMs) return { state: 'hung', idleMs, stopped: last.progress.state === 'T' };
  return { state: 'working' };
}

/**
 * How long to wait for a working server to finish what it has in hand: its backlog at the rate
 * it served during the load, with half again and a second of slack. Above the cap the caller
 * restarts the server at once instead of waiting. When the load was too short to serve anything
 * the rate is unknown: then the cap itself (the server is watched while it drains, and restarted
 * if it is still working then).
 */
export function drainDeadlineMs(backlog: number, servedPerSec: number, capMs: number): number {
  if (backlog <= 0) return Math.min(capMs, 1_000);
  if (!(servedPerSec > 0)) return capMs;
  return (backlog / servedPerSec) * 1.5 * 1_000 + 1_000;
}

export interface WatchOptions {
  /** No progress at all for this long, with the process alive: hung. */
  hungAfterMs: number;
  /** Give up waiting (ServerBusy) after this long; the process is still working. */
  deadlineMs: number;
  /** What was being waited for, for the messages. */
  what: string;
  sampleEveryMs?: number;
}

/**
 * Waits for `work` while watching the server. Resolves with its value; throws ServerLost when
 * the server dies or hangs meanwhile, ServerBusy when the deadline passes while it still works.
 * `work` is not cancelled here: pass one that the caller can abort.
 */
export async function whileAlive<T>(server: RunningServer, work: Promise<T>, options: WatchOptions): Promise<T> {
  const start = performance.now();
  // Each serving process is watched (with --processes, the supervisor itself idles): one that
  // stops moving holds every answer that needs it, /stats included.
  const watched = server.servingPids.length > 0 ? server.servingPids : [server.pid];
  const samplesOf = new Map<number, ProgressSample[]>(watched.map((pid) => [pid, []]));
  const every = options.sampleEveryMs ?? 100;
  let timer: NodeJS.Timeout | undefined;
  // "Busy" needs evidence of work: a deadline passed by a server that has not moved since the
  // wait began is waited on until it moves (busy) or the hang rule fires (hung).
  let movedSinceStart = false;
  const watcher = new Promise<never>((_, reject) => {
    const tick = () => {
      const now = performance.now();
      for (const [pid, samples] of samplesOf) {
        // Remote: the samples its wrapper sends from that host's /proc; none fresh is "unknown".
        const progress = server.remote === undefined ? readMainThreadProgress(pid) : server.remote.progress?.(pid);
        const previous = samples.at(-1)?.progress;
        if (
          progress === undefined ||
          (previous !== undefined && (progress.runNs !== previous.runNs || progress.slices !== previous.slices))
        ) {
          movedSinceStart = true;
        }
        samples.push({ atMs: now, progress });
        // Keep the window the hang rule needs, and no more.
        while (samples.length > 2 && now - samples[1]!.atMs > options.hungAfterMs) samples.shift();
        const verdict = progressVerdict(samples, options.hungAfterMs);
        if (verdict.state === 'hung') {
          const how = verdict.stopped ? 'stopped (process state T)' : 'its main thread neither ran nor woke';
          const who = watched.length > 1 ? ` (serving process ${pid})` : '';
          return reject(
            new ServerLost(
              `server hung${who}: ${how} for ${(verdict.idleMs / 1000).toFixed(1)} s while waiting for ${options.what}${tailOf(server)}`,
            ),
          );
        }
      }
      if (now - start > options.deadlineMs && movedSinceStart) {
        return reject(
          new ServerBusy(
            `server still working on its backlog ${(options.deadlineMs / 1000).toFixed(1)} s into waiting for ${options.what}`,
          ),
        );
      }
      timer = setTimeout(tick, every);
    };
    tick();
  });
  const died = server.exited.then((exit) => {
    throw new ServerLost(`server died (${formatExit(exit)}) while waiting for ${options.what}${tailOf(server)}`);
  });
  try {
    return await Promise.race([work, watcher, died]);
  } finally {
    clearTimeout(timer);
    watcher.catch(() => {});
    died.catch(() => {});
  }
}

/**
 * Before giving up on a server as merely busy (and restarting it), a look that it is working at
 * all: returns as soon as its main thread moves; throws ServerLost (hung) if it does not move for
 * the hang deadline, or died. A restart must not hide a hang.
 */
export async function assertWorking(server: RunningServer, hungAfterMs: number, what: string): Promise<void> {
  const never = new Promise<never>(() => {});
  try {
    await whileAlive(server, never, { hungAfterMs, deadlineMs: 0, what });
  } catch (error) {
    if (error instanceof ServerBusy) return;
    throw error;
  }
}

export function tailOf(server: RunningServer): string {
  const tail = server.stderrTail(5);
  return tail === '' ? '' : `; stderr: ${tail.replace(/\s*\n\s*/g, ' | ')}`;
}
