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
 * Noise floor: a reading says the machine moved only beyond what the sampler reads on a machine
 * that held: idle, the spread of its warm-up (idleFloor); under load, the spread of a run's own
 * ticks, which a cell's load sets (a sync cell keeps one CPU busy, a worker cell both). Runs are
 * compared with their own cell's other runs (same load), never across cells.
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
 * Below this, a difference in cores' worth between runs of one cell is not worth a warning
 * whatever the floor says: the precision asked of a heavy cell.
 */
export const PRACTICAL_MOVE = 0.05;

/**
 * A run's floor is a 95 % bound: on a steady host one run in twenty crosses it, several in a
 * default run's ~150. The sampler says the machine moved only when a run left its cell's median
 * by more than this multiple of its floor.
 */
export const MOVE_FACTOR = 2;

export interface SamplerMove {
  /** Whether some run's reading left its cell's median by more than MOVE_FACTOR times its floor. */
  beyondFloor: boolean;
  /** The run furthest beyond its floor: its cell, how far from the cell's median, and the floor it was held to (shares). */
  worst?: { cell: string; deviation: number; floor: number };
}

/**
 * Whether the sampler saw the machine move, per cell (one load): each run's reading against its
 * cell's median, its floor the larger of the idle floor, twice the run's own standard error
 * (1.2533 x tick CV / sqrt(ticks): a median's), and PRACTICAL_MOVE; moved beyond MOVE_FACTOR x floor.
 */
export function samplerMove(cells: readonly { cell: string; runs: readonly (RunSpeed | undefined)[] }[], floorIdle: number): SamplerMove {
  let worst: SamplerMove['worst'];
  let worstExcess = -Infinity;
  for (const { cell, runs } of cells) {
    const known = runs.filter((r): r is RunSpeed => r !== undefined && r.coresWorth > 0);
    if (known.length < 3) continue;
    const typical = median(known.map((r) => r.coresWorth));
    for (const run of known) {
      const deviation = Math.abs(run.coresWorth / typical - 1);
      const own = run.tickCv === undefined ? 0 : (2 * 1.2533 * run.tickCv) / Math.sqrt(Math.max(1, run.ticks));
      const floor = Math.max(floorIdle, own, PRACTICAL_MOVE);
      if (deviation - floor > worstExcess) {
        worstExcess = deviation - floor;
        worst = { cell, deviation: Math.round(deviation * 1000) / 1000, floor: Math.round(floor * 1000) / 1000 };
      }
    }
  }
  return { beyondFloor: worst !== undefined && worst.deviation > MOVE_FACTOR * worst.floor, ...(worst === undefined ? {} : { worst }) };
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
