/**
 * The host's speed: the one place that turns what the harness measured of its host into
 * verdicts, with one set of thresholds. Pure.
 *
 * Its inputs each measure something the others do not, and none of them decides on its own:
 * - the independent check (bench/reference.ts checkBefore, withAfter): a pinned fib loop on each
 *   CPU alone and on all together, before the first cell and after the last, nothing else running;
 * - the speed sampler (system/speed-sampler.ts): each run's cores' worth, read under that run's load;
 * - the reference loop (bench/reference.ts roundReference): a pinned fib timed before every round,
 *   which req/unit divides out and compare's session allowance reads;
 * - other processes' CPU during a run (system/host-cpu.ts): a host shared with work outside the
 *   harness, which neither loop sees.
 *
 * Its verdicts, and who asks for them:
 * - the session (`hostVerdict`): whether the host held, from the independent check alone; the
 *   sampler's warning stands in only where no complete check ran, and which cells shared the host.
 *   The top of every report, console summary and docs block (report/text/host-health.ts).
 * - a run (`runReadings`): its machine beyond the sampler's floor from its cell's other runs
 *   (noted on the cell and, for a first run, given as its reason), or below SLOW_RUN_SHARE of
 *   them (left out of the cell's figures while enough others remain: `keptRuns`).
 * - a cell (`cellMachineMoved`, `sharedHost`): its runs' machine scattered beyond the floor,
 *   said on that cell and never at the top of a report whose check held; it shared the host.
 * - two sessions (`sessionSpread`, `checkAcross`): how far the host moved between two reports,
 *   for compare's session allowance and the A/A pair block.
 *
 * A warning that fires on a steady host is a defect (docs/design.md, "Measurement principles"):
 * every threshold here is held to a floor the tool measured of itself.
 */
import type { CellResult, MachineMoved, RunResult, RunSpeed } from '../model/cell.ts';
import type { Environment, HostCheck, HostCheckReading, SpeedSummary } from '../model/environment.ts';
import { MIN_RUNS_FOR_INTERVAL, median } from '../stats/stats.ts';

/** The check moved when it changed by more than this many times its own floor ... */
export const CHECK_FLOOR_FACTOR = 3;
/** ... and by more than this: a smaller change is within every cell's precision target. */
export const CHECK_MIN_THRESHOLD = 0.05;
/**
 * A check whose two readings before the run disagree by more than this cannot tell a host that
 * held from one that moved by tens of per cent: twice the ±5 % precision goal of a heavy cell.
 */
export const CHECK_FLOOR_TELLS = 0.1;
/**
 * A run is left out of its cell's figures when its cores' worth is below this share of the median
 * of its cell's runs. 0.8: the drift seen here moves between one and two cores' worth, a 2x step;
 * ordinary tick jitter of the unit stays within a few per cent (docs/methodology.md has the figures).
 */
export const SLOW_RUN_SHARE = 0.8;
/**
 * Below this, a difference in cores' worth between runs of one cell is not worth a word whatever
 * the floor says: the precision asked of a heavy cell.
 */
export const PRACTICAL_MOVE = 0.05;
/**
 * A run's floor is a 95 % bound: on a steady host one run in twenty crosses it, several in a
 * default run's ~150. A run's machine moved only when it left its cell's median by more than
 * this multiple of its floor.
 */
export const MOVE_FACTOR = 2;
/**
 * Reports from before the sampler recorded its floor: the per-run cores' worth moved by this
 * factor or more within one run.
 */
export const MOVING_MACHINE_RATIO = 1.25;
/**
 * Cores' worth of CPU other processes may use during a run before its cell says the host was
 * shared: a quarter of a core over a run is more than the counters' 10 ms ticks can make up, and
 * on a 2-core host it is an eighth of the machine taken from the server and its client.
 */
export const SHARED_HOST_CORES = 0.25;

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// The independent check

/** The threshold a check is held to, from its own floor (two readings back to back before the run). */
export function checkThreshold(floor: number): number {
  return Math.max(CHECK_MIN_THRESHOLD, round3(CHECK_FLOOR_FACTOR * floor));
}

/** A reading's one figure: the median over CPUs, alone and together (one disturbed call does not move it). */
export function readingMs(r: HostCheckReading): number {
  const xs = [...r.alone, ...r.together].sort((a, b) => a - b);
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? (xs[mid] ?? 0) : ((xs[mid - 1] ?? 0) + (xs[mid] ?? 0)) / 2;
}

/** The host's speed at `after` over `before`, minus 1: a slower host takes longer a call, so a slowdown reads negative. */
export function checkChange(before: HostCheckReading, after: HostCheckReading): number {
  return Math.round((readingMs(before) / readingMs(after) - 1) * 10_000) / 10_000;
}

/**
 * What the check says of a session: "held" or "moved" beyond its threshold; "untold" when its
 * own floor is too wide to tell either; "start-only" when it did not read the end.
 */
export type CheckVerdict = 'held' | 'moved' | 'untold' | 'start-only';

export function checkVerdict(check: HostCheck): CheckVerdict {
  if (check.after === undefined || check.change === undefined) return 'start-only';
  if (Math.abs(check.change) > check.threshold) return 'moved';
  if (check.floor > CHECK_FLOOR_TELLS) return 'untold';
  return 'held';
}

// ---------------------------------------------------------------------------------------------
// Runs and cells, from the sampler

/** One run's machine against its cell's other runs. */
export interface RunReading {
  /** |run / cell median - 1| of cores' worth. */
  deviation: number;
  /** What the sampler cannot tell from a held machine for this run: idle floor, its own ticks' error, PRACTICAL_MOVE. */
  floor: number;
  /** Beyond MOVE_FACTOR times the floor. */
  moved: boolean;
  /** Below SLOW_RUN_SHARE of the cell's median: the run is left out of the figures. */
  slow: boolean;
  /** Slower than the median (a moved run may be faster). */
  slower: boolean;
}

/**
 * Each run's reading against its cell's median cores' worth (one load: runs are compared with
 * their own cell's, never across cells), undefined for a run without one; all undefined with
 * fewer than three measured runs, which cannot tell "slow" from "the other one was fast". A
 * run's floor is the larger of the idle floor, twice its own standard error (1.2533 x tick CV /
 * sqrt(ticks): a median's) and PRACTICAL_MOVE.
 */
export function runReadings(runs: readonly (RunSpeed | undefined)[], idleFloor = 0): (RunReading | undefined)[] {
  const known = runs.filter((r): r is RunSpeed => r !== undefined && r.coresWorth > 0);
  if (known.length < 3) return runs.map(() => undefined);
  const typical = median(known.map((r) => r.coresWorth));
  return runs.map((run) => {
    if (run === undefined || !(run.coresWorth > 0)) return undefined;
    const deviation = Math.abs(run.coresWorth / typical - 1);
    const own = run.tickCv === undefined ? 0 : (2 * 1.2533 * run.tickCv) / Math.sqrt(Math.max(1, run.ticks));
    const floor = Math.max(idleFloor, own, PRACTICAL_MOVE);
    return {
      deviation,
      floor,
      moved: deviation > MOVE_FACTOR * floor,
      slow: run.coresWorth < typical * SLOW_RUN_SHARE,
      slower: run.coresWorth < typical,
    };
  });
}

/** Runs that count in a cell's figures: all but those taken on a markedly slow machine, unless too few remain. */
export function keptRuns<R extends Pick<RunResult, 'slowMachine'>>(runs: readonly R[]): R[] {
  const kept = runs.filter((r) => r.slowMachine !== true);
  return kept.length >= MIN_RUNS_FOR_INTERVAL ? kept : [...runs];
}

/** Indexes of the runs taken on a markedly slow machine (RunReading.slow). */
export function slowRuns(runs: readonly (RunSpeed | undefined)[]): number[] {
  return runReadings(runs).flatMap((r, i) => (r?.slow === true ? [i] : []));
}

/** The run of a cell furthest beyond its floor, when some run's machine moved; undefined otherwise. */
export function cellMachineMoved(runs: readonly (RunSpeed | undefined)[], idleFloor = 0): MachineMoved | undefined {
  const readings = runReadings(runs, idleFloor).filter((r): r is RunReading => r?.moved === true);
  if (readings.length === 0) return undefined;
  const worst = readings.reduce((a, b) => (b.deviation / b.floor > a.deviation / a.floor ? b : a));
  return { runs: readings.length, deviation: round3(worst.deviation), floor: round3(worst.floor) };
}

export interface SamplerMove {
  /** Whether some run's reading left its cell's median by more than MOVE_FACTOR times its floor. */
  beyondFloor: boolean;
  /** The run furthest beyond its floor: its cell, how far from the cell's median, and the floor it was held to (shares). */
  worst?: { cell: string; deviation: number; floor: number };
}

/**
 * The session's sampler summary (environment.machineSpeed.moved): the run furthest beyond its
 * floor over every cell (by how many floors it left its cell's median), and whether it moved.
 */
export function samplerMove(cells: readonly { cell: string; runs: readonly (RunSpeed | undefined)[] }[], idleFloor: number): SamplerMove {
  let worst: (RunReading & { cell: string }) | undefined;
  for (const { cell, runs } of cells) {
    for (const r of runReadings(runs, idleFloor)) {
      if (r !== undefined && (worst === undefined || r.deviation / r.floor > worst.deviation / worst.floor)) worst = { ...r, cell };
    }
  }
  if (worst === undefined) return { beyondFloor: false };
  return { beyondFloor: worst.moved, worst: { cell: worst.cell, deviation: round3(worst.deviation), floor: round3(worst.floor) } };
}

/** Whether other processes used the CPU during one run (SHARED_HOST_CORES or more beside it). */
export function sharedRun(run: Pick<RunResult, 'othersCpuCores'>): boolean {
  return (run.othersCpuCores ?? 0) >= SHARED_HOST_CORES;
}

/** Why the runs were on a shared host ("other processes used up to 0.92 cores' worth in 4 of 4 runs"), or undefined. */
export function sharedHostReason(runs: readonly Pick<RunResult, 'othersCpuCores'>[]): string | undefined {
  const shared = runs.filter(sharedRun).map((r) => r.othersCpuCores ?? 0);
  if (shared.length === 0) return undefined;
  return `other processes used up to ${Math.max(...shared).toFixed(2)} cores' worth in ${shared.length} of ${runs.length} runs`;
}

/** Whether other processes used the CPU during a cell's runs (its shared-host flag, set from sharedHostReason). */
export function sharedHost(cell: { flags: readonly string[] }): boolean {
  return cell.flags.includes('shared-host');
}

// ---------------------------------------------------------------------------------------------
// The session

/** The sampler's warning, for the top of a report only where no complete check ran. */
export type SamplerWarning =
  | { kind: 'beyond-floor'; cell: string; deviation: number; floor: number }
  | { kind: 'span'; min: number; max: number; ratio: number };

function samplerWarning(speed: SpeedSummary | undefined): SamplerWarning | undefined {
  if (speed?.moved !== undefined) {
    const worst = speed.moved.worst;
    return speed.moved.beyondFloor && worst !== undefined ? { kind: 'beyond-floor', ...worst } : undefined;
  }
  // A report from before the sampler recorded its floor: its per-run range alone.
  const span = speed?.coresWorth;
  if (span === undefined || !(span.min > 0)) return undefined;
  const ratio = span.max / span.min;
  return ratio < MOVING_MACHINE_RATIO ? undefined : { kind: 'span', min: span.min, max: span.max, ratio };
}

type Cell = Pick<CellResult, 'flags'>;

export interface HostVerdict<C extends Cell = Cell> {
  /** What the independent check says, or undefined when none ran. */
  check?: { reading: CheckVerdict; check: HostCheck };
  /** The sampler's warning: only without a check that read both ends, never beside a held (or moved) one. */
  sampler?: SamplerWarning;
  /** The cells that shared the host, in the report's order. */
  shared: C[];
}

/** The session's verdict on its host: the independent check decides; the sampler stands in only without a complete one. */
export function hostVerdict<C extends Cell>(env: Environment, cells: readonly C[]): HostVerdict<C> {
  const check = env.hostCheck;
  const reading = check === undefined ? undefined : checkVerdict(check);
  const sampler = reading === undefined || reading === 'start-only' ? samplerWarning(env.machineSpeed) : undefined;
  return {
    ...(check === undefined || reading === undefined ? {} : { check: { reading, check } }),
    ...(sampler === undefined ? {} : { sampler }),
    shared: cells.filter(sharedHost),
  };
}

// ---------------------------------------------------------------------------------------------
// Two sessions

/**
 * How far the host's speed may differ between two reports' sessions, as a standard deviation on
 * logs, from what both measured of their host; undefined when they did not both measure it. The
 * reference loop, timed in every round, moves with the host: within a session its range spans
 * about four standard deviations of the host's speed (a dozen rounds and more), and between the
 * sessions its medians differ by what the host did between them; the larger of the two is the
 * session's spread. Without reference loops, each run's independent check (its floor and its
 * start-to-end change, both 95 % figures) stands in.
 */
export function sessionSpread(a: Environment, b: Environment): { sd: number; source: string } | undefined {
  const Z95 = 1.96;
  const [la, lb] = [a.referenceLoop, b.referenceLoop];
  if (la !== undefined && lb !== undefined && la.minMs > 0 && lb.minMs > 0) {
    const within = Math.max(Math.log(la.maxMs / la.minMs), Math.log(lb.maxMs / lb.minMs)) / 4;
    const between = Math.abs(Math.log(lb.medianMs / la.medianMs)) / (Z95 * Math.SQRT2);
    return { sd: Math.max(within, between), source: "from the reports' reference loops" };
  }
  const checks = [a.hostCheck, b.hostCheck];
  if (checks.every((h) => h !== undefined)) {
    const spread = Math.max(...checks.map((h) => Math.max(h?.floor ?? 0, Math.abs(h?.change ?? 0))));
    return { sd: Math.log1p(spread) / Z95, source: "from the reports' host checks" };
  }
  return undefined;
}

/**
 * Whether the host held from the first report's start to the second's end: the first check's
 * reading before against the second's after, held to the larger of their thresholds. Undefined
 * without both.
 */
export function checkAcross(first: HostCheck | undefined, last: HostCheck | undefined): { change: number; held: boolean } | undefined {
  if (first === undefined || last?.after === undefined) return undefined;
  const change = readingMs(first.before) / readingMs(last.after) - 1;
  return { change, held: Math.abs(change) <= Math.max(first.threshold, last.threshold) };
}
