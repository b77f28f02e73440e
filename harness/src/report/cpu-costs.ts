/**
 * What a mode costs beside what it gave, for every sentence that quotes a ratio of async or a
 * worker over sync: the ceiling on this machine (the CPUs the server could use: with N, moving
 * CPU-bound work off the loop can at most give about Nx, whatever the work) and the CPU a
 * request cost, which does not depend on the core count (on the loop's thread, off it, and for a
 * worker the hop: what moving the input and answer between threads adds). "A worker pays" on two
 * CPUs is mostly "two cores beat one"; the CPU per request says whether it pays per CPU. Pure.
 */
import type { CellResult, CpuPerRequest } from '../model/cell.ts';
import { formatRatio } from '../present/formats.ts';
import { cpuWords } from '../present/verdict-words.ts';

/** All the CPU a request cost on the server, every kind of thread. */
export const totalCpuMs = (c: CpuPerRequest): number => c.loopMs + c.poolMs + c.helperMs;

/** Off the loop: the pool's and worker threads' and the engine's helpers'. */
const offLoopMs = (c: CpuPerRequest): number => c.poolMs + c.helperMs;

/** "0.052 ms", "2.14 ms", "12.3 ms": three significant digits. */
export const cpuMsText = (ms: number): string => `${Number(ms.toPrecision(3))} ms`;

export interface ModeCosts {
  /** The CPUs the server could use (its affinity). */
  ceilingCpus?: number;
  /** CPU a request, this mode over sync. */
  cpuRatio?: number;
  /** A worker's hop: the CPU a request cost beyond sync's, in ms (negative: it cost less). */
  hopMs?: number;
  over?: CpuPerRequest;
  sync?: CpuPerRequest;
}

type Side = (Pick<CellResult, 'mode' | 'status' | 'cpuPerRequestMs' | 'serverCpus'> & { requestsPerSec?: { median: number } }) | undefined;

/**
 * The share of a second sync's loop thread spent computing: its CPU a request times its
 * requests/s. Near 1, the loop was the bottleneck and moving the work off it can gain at most the
 * CPUs the server has; well below (a blocking wait: sleep), the loop was waiting, not computing,
 * and no core count bounds what async gains.
 */
const LOOP_BOUND_SHARE = 0.5;
function loopBound(sync: NonNullable<Side>): boolean | undefined {
  const loopMs = sync.cpuPerRequestMs?.loopMs;
  const rps = sync.requestsPerSec?.median;
  if (loopMs === undefined || rps === undefined) return undefined;
  return (loopMs * rps) / 1000 >= LOOP_BOUND_SHARE;
}

/** The costs of `over` (async or worker) against its sync cell; undefined when neither has a figure. */
export function modeCosts(over: Side, sync: Side): ModeCosts | undefined {
  if (over === undefined || sync === undefined || over.status === 'failed' || sync.status === 'failed') return undefined;
  const o = over.cpuPerRequestMs;
  const s = sync.cpuPerRequestMs;
  // A ceiling only where sync was computing on its loop (unknown: stated, as before).
  const ceiling = loopBound(sync) === false ? undefined : (over.serverCpus ?? sync.serverCpus);
  if (o === undefined && s === undefined && ceiling === undefined) return undefined;
  const ratio = o !== undefined && s !== undefined && totalCpuMs(s) > 0 ? totalCpuMs(o) / totalCpuMs(s) : undefined;
  return {
    ...(ceiling === undefined ? {} : { ceilingCpus: ceiling }),
    ...(ratio === undefined ? {} : { cpuRatio: ratio }),
    ...(o !== undefined && s !== undefined && over.mode === 'worker' ? { hopMs: totalCpuMs(o) - totalCpuMs(s) } : {}),
    ...(o === undefined ? {} : { over: o }),
    ...(s === undefined ? {} : { sync: s }),
  };
}

/**
 * "at most ~2x with 2 CPUs; each request costs 4 % more CPU (on the loop 2.1 → 0.04 ms, off it
 * 0.01 → 2.2 ms; the hop 0.09 ms)": the clause beside a throughput ratio.
 */
export function costsText(costs: ModeCosts): string {
  const parts: string[] = [];
  if (costs.ceilingCpus !== undefined)
    parts.push(`at most ~${costs.ceilingCpus}x with ${costs.ceilingCpus} CPU${costs.ceilingCpus === 1 ? '' : 's'}`);
  if (costs.cpuRatio !== undefined && costs.over !== undefined && costs.sync !== undefined) {
    const hop = costs.hopMs === undefined ? '' : `; the hop ${costs.hopMs < 0 ? '−' : ''}${cpuMsText(Math.abs(costs.hopMs))}`;
    const breakdown = ` (${formatRatio(costs.cpuRatio)}: on the loop ${cpuMsText(costs.sync.loopMs)} → ${cpuMsText(costs.over.loopMs)}, off it ${cpuMsText(offLoopMs(costs.sync))} → ${cpuMsText(offLoopMs(costs.over))}${hop})`;
    parts.push(`each request costs ${cpuWords(costs.cpuRatio)}${breakdown}`);
  }
  return parts.join('; ');
}
