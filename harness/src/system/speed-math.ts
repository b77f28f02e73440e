/**
 * The machine-speed sampler's arithmetic. Pure: samples in, figures out.
 *
 * Each CPU's sampler times one fixed unit of work (a small recursive fib) at intervals and
 * reports the CPU time it took. CPU time, not wall time: a guest scheduler that gives the CPU
 * to the server for a while does not stretch it (that is the benchmark's own contention), but
 * a vCPU the host slows or shares (SMT sibling busy, another guest on the core, time stolen
 * while the guest reports none) does, because the guest charges that time to whoever ran.
 * A CPU's speed is the median unit of its idle warm-up over this unit (1 = the speed it had at
 * the start, idle); the machine's "cores' worth" at an instant is the sum of its CPUs' speeds at
 * that tick. Not the fastest unit: that is an outlier, which an idle CPU reads 0.7-0.9 of.
 *
 * Noise floor: idle, the spread of the warm-up (idleFloor); under load, the spread of a run's own
 * ticks (RunSpeed.tickCv), which a cell's load sets (a sync cell keeps one CPU busy, a worker cell
 * both). What a reading means (whether a run's machine moved, or was slow) is judged in
 * system/host-speed.ts, against these floors.
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
 * The full-speed reference per CPU: the median of its warm-up units (samples dated 0 carry it),
 * or, without one, the median of all its units so far.
 */
export function medianUnit(samples: readonly SpeedSample[]): Map<number, number> {
  const warm = new Map<number, number>();
  const all = new Map<number, number[]>();
  for (const s of samples) {
    if (!(s.cpuMs > 0)) continue;
    if (s.at === 0) warm.set(s.cpu, s.cpuMs);
    else all.set(s.cpu, [...(all.get(s.cpu) ?? []), s.cpuMs]);
  }
  for (const [cpu, units] of all) if (!warm.has(cpu)) warm.set(cpu, median(units));
  return warm;
}

/** Ticks a short run holds (a 1 s run at 250 ms): the run-level reading the idle floor is for. */
export const FLOOR_BLOCK = 4;

/**
 * The idle noise floor of a run's reading, as a share: per CPU, medians of FLOOR_BLOCK
 * consecutive warm-up units against the median of all; the 95th percentile of their relative
 * deviation, summed over CPUs as the cores' worth sums them (worst case: the CPUs' errors add).
 */
export function idleFloor(warmPerCpu: readonly (readonly number[])[]): number {
  let total = 0;
  for (const units of warmPerCpu) {
    const all = median(units);
    if (!(all > 0)) continue;
    const deviations: number[] = [];
    for (let i = 0; i + FLOOR_BLOCK <= units.length; i += FLOOR_BLOCK) {
      deviations.push(Math.abs(all / median(units.slice(i, i + FLOOR_BLOCK)) - 1));
    }
    deviations.sort((a, b) => a - b);
    total += deviations[Math.min(deviations.length - 1, Math.floor(deviations.length * 0.95))] ?? 0;
  }
  return Math.round((total / Math.max(1, warmPerCpu.length)) * 10_000) / 10_000;
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
      sum += ref / mate.cpuMs;
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
  const m = sums.reduce((a, b) => a + b, 0) / sums.length;
  const sd = sums.length < 2 ? 0 : Math.sqrt(sums.reduce((a, b) => a + (b - m) ** 2, 0) / (sums.length - 1));
  return {
    coresWorth: round(median(sums)),
    min: round(Math.min(...sums)),
    max: round(Math.max(...sums)),
    ticks: sums.length,
    tickCv: m > 0 ? Math.round((sd / m) * 1000) / 1000 : 0,
  };
}

/** The span of cores' worth over a session's runs, for the environment line ("1.0 to 2.0"). */
export function coresWorthSpan(speeds: readonly (number | undefined)[]): { min: number; max: number } | undefined {
  const known = speeds.filter((s): s is number => s !== undefined);
  if (known.length === 0) return undefined;
  return { min: Math.min(...known), max: Math.max(...known) };
}
