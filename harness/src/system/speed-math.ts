/**
 * The machine-speed sampler's arithmetic. Pure: samples in, figures out.
 *
 * Each CPU's sampler times one fixed unit of work (a small recursive fib) at intervals and
 * reports the CPU time it took. CPU time, not wall time: a guest scheduler that gives the CPU
 * to the server for a while does not stretch it (that is the benchmark's own contention), but
 * a vCPU the host slows or shares (SMT sibling busy, another guest on the core, time stolen
 * while the guest reports none) does, because the guest charges that time to whoever ran.
 * A CPU's speed is its fastest unit seen in the session over this unit (1 = full speed);
 * the machine's "cores' worth" at an instant is the sum of its CPUs' speeds at that tick.
 */
import { median } from '../stats/stats.ts';
import type { RunSpeed } from '../model/cell.ts';

export type { RunSpeed };

export interface SpeedSample {
  cpu: number;
  /** Wall-clock time of the sample (ms since the epoch), when the unit ended. */
  at: number;
  /** CPU time the unit took, ms. */
  cpuMs: number;
}

/** Samples closer than this to each other (ms) on different CPUs belong to the same tick. */
export const TICK_MATCH_MS = 60;
/**
 * A run is slow when its cores' worth is below this share of the median of its cell's runs.
 * 0.8: the drift seen here moves between one and two cores' worth, a 2x step; ordinary tick
 * jitter of the unit stays within a few per cent (docs/methodology.md has the figures).
 */
export const SLOW_RUN_SHARE = 0.8;

/** The fastest unit seen per CPU: the reference that counts as full speed. */
export function fastestUnit(samples: readonly SpeedSample[]): Map<number, number> {
  const best = new Map<number, number>();
  for (const s of samples) {
    if (!(s.cpuMs > 0)) continue;
    best.set(s.cpu, Math.min(best.get(s.cpu) ?? Infinity, s.cpuMs));
  }
  return best;
}

/**
 * Speeds summed per tick over the window [from, to]: a tick is the samples of every CPU taken
 * within TICK_MATCH_MS of the first CPU's sample. Ticks missing a CPU are skipped (that CPU's
 * sampler was late: counting it as zero would read as a slow machine).
 */
export function tickSums(samples: readonly SpeedSample[], reference: ReadonlyMap<number, number>, from: number, to: number): number[] {
  const cpus = [...reference.keys()].sort((a, b) => a - b);
  const first = cpus[0];
  if (first === undefined) return [];
  const inWindow = samples.filter((s) => s.at >= from && s.at <= to && s.cpuMs > 0);
  const sums: number[] = [];
  for (const anchor of inWindow.filter((s) => s.cpu === first)) {
    let sum = 0;
    let complete = true;
    for (const cpu of cpus) {
      const mate = nearest(inWindow, cpu, anchor.at);
      const ref = reference.get(cpu);
      if (mate === undefined || ref === undefined) {
        complete = false;
        break;
      }
      sum += Math.min(1, ref / mate.cpuMs);
    }
    if (complete) sums.push(sum);
  }
  return sums;
}

function nearest(samples: readonly SpeedSample[], cpu: number, at: number): SpeedSample | undefined {
  let best: SpeedSample | undefined;
  for (const s of samples) {
    if (s.cpu !== cpu || Math.abs(s.at - at) > TICK_MATCH_MS) continue;
    if (best === undefined || Math.abs(s.at - at) < Math.abs(best.at - at)) best = s;
  }
  return best;
}

/** The run's cores' worth, or undefined when no complete tick fell inside it. */
export function runSpeed(
  samples: readonly SpeedSample[],
  reference: ReadonlyMap<number, number>,
  from: number,
  to: number,
): RunSpeed | undefined {
  const sums = tickSums(samples, reference, from, to);
  if (sums.length === 0) return undefined;
  const round = (x: number) => Math.round(x * 100) / 100;
  return { coresWorth: round(median(sums)), min: round(Math.min(...sums)), max: round(Math.max(...sums)), ticks: sums.length };
}

/**
 * Which runs were taken while the machine was markedly slower than for the cell's other runs:
 * indexes of runs whose cores' worth is below SLOW_RUN_SHARE of the median of all the runs that
 * have one. Fewer than three measured runs cannot tell "slow" from "the other one was fast".
 */
export function slowRuns(speeds: readonly (number | undefined)[], share: number = SLOW_RUN_SHARE): number[] {
  const known = speeds.filter((s): s is number => s !== undefined);
  if (known.length < 3) return [];
  const typical = median(known);
  return speeds.flatMap((s, i) => (s !== undefined && s < typical * share ? [i] : []));
}

/** The span of cores' worth over a session's runs, for the environment line ("1.0 to 2.0"). */
export function coresWorthSpan(speeds: readonly (number | undefined)[]): { min: number; max: number } | undefined {
  const known = speeds.filter((s): s is number => s !== undefined);
  if (known.length === 0) return undefined;
  return { min: Math.min(...known), max: Math.max(...known) };
}
