/**
 * bench:ab's B/A by round, grouped by the pair of server processes each round ran on (the
 * interval's unit: runs of one process do not vary as processes do), and the interval over those
 * process pairs, adjusted for the machine's speed where every process pair was timed. The verdict on it is
 * ab-verdict.ts's.
 */
import type { SpeedAdjusted } from '../model/ab.ts';
import type { CellResult, RunResult } from '../model/cell.ts';
import { adjustedMean } from '../stats/covariate.ts';
import { exactRatioInterval, holdsOne, roundedInterval } from '../stats/paired.ts';
import { sharedRun } from '../system/host-speed.ts';

/** The interval over process pairs (overProcessPairs), at full precision: the rule judges on it, the report rounds it. */
export interface OverProcessPairs {
  ratio: number;
  ci95: [number, number];
  /** Process pairs: the interval's units. */
  processPairs: number;
  /** Where ratio and ci95 are adjusted for the machine's speed: the plain interval, and the fit as the report keeps it. */
  adjusted?: { plain: [number, number]; record: SpeedAdjusted };
  /** The machine's speed during B's runs over A's, where its interval excluded 1 (speedShift): not adjusted. */
  speedShifted?: [number, number];
}

export const round4 = (x: number): number => Number(x.toFixed(4));

/** Fewest process pairs for an interval over pairs (t with 2 degrees of freedom is 4.3; with 1 it is 12.7). */
const MIN_PROCESS_PAIRS = 3;

export interface PairedRound {
  ratio: number;
  process: number;
  /** The machine's speed during B's run over during A's (system/speed-sampler.ts), where both were timed. */
  speed?: number;
}

/** B/A by round with the process pair it ran on, and how many rounds were left out for a shared host. */
export function pairedRounds(a: readonly RunResult[], b: readonly RunResult[]): { rounds: PairedRound[]; shared: number } {
  const rounds: PairedRound[] = [];
  let shared = 0;
  // A pair of processes is the unit: a new one starts where both sides' processes changed. A
  // restart of one side within a process pair (a backlog that would not drain, a server lost to another
  // cell) keeps the process pair it restarted in: its rounds still share the other side's process.
  let processPair = 0;
  let last: { a: number; b: number } | undefined;
  // A's first run of each round: bench:ab's rule reads a cell's rounds again after every process pair.
  const aByRound = new Map<number, RunResult>();
  for (const r of a) if (r.round !== undefined && !aByRound.has(r.round)) aByRound.set(r.round, r);
  for (const run of [...b].sort((x, y) => (x.round ?? 0) - (y.round ?? 0))) {
    const partner = run.round === undefined ? undefined : aByRound.get(run.round);
    if (partner === undefined) continue;
    const now = { a: partner.serverProcess ?? 1, b: run.serverProcess ?? 1 };
    if (last === undefined || (now.a !== last.a && now.b !== last.b)) processPair++;
    last = now;
    if (!(partner.requestsPerSec > 0) || !(run.requestsPerSec > 0)) continue;
    const [speedA, speedB] = [partner.machine?.coresWorth, run.machine?.coresWorth];
    const speed = speedA !== undefined && speedB !== undefined && speedA > 0 && speedB > 0 ? { speed: speedB / speedA } : {};
    if (sharedRun(run) || sharedRun(partner)) shared++;
    else rounds.push({ ratio: run.requestsPerSec / partner.requestsPerSec, process: processPair, ...speed });
  }
  return { rounds, shared };
}

/** The rounds grouped by the pair of server processes they ran on (A and B restart at the same rounds). */
function groupByProcess(rounds: readonly PairedRound[]): PairedRound[][] {
  const groups = new Map<number, PairedRound[]>();
  for (const r of rounds) {
    const group = groups.get(r.process);
    if (group === undefined) groups.set(r.process, [r]);
    else group.push(r);
  }
  return [...groups.values()];
}

/** The rounds' ratios grouped by the pair of server processes they ran on. */
export function byProcess(rounds: readonly PairedRound[]): number[][] {
  return groupByProcess(rounds).map((g) => g.map((r) => r.ratio));
}

/** Each process pair's mean log ratio, and its mean log speed ratio where every one of its rounds was timed: the units of the interval over pairs. */
function processPairUnits(rounds: readonly PairedRound[]): { y: number; x?: number }[] {
  const meanLog = (xs: readonly number[]): number => xs.reduce((s, x) => s + Math.log(x), 0) / xs.length;
  return groupByProcess(rounds).map((g) => {
    const speeds = g.flatMap((r) => (r.speed === undefined ? [] : [r.speed]));
    return { y: meanLog(g.map((r) => r.ratio)), ...(speeds.length === g.length ? { x: meanLog(speeds) } : {}) };
  });
}

/**
 * The interval over process pairs: with every pair's speed timed, adjusted for it
 * (stats/covariate.ts: the ratio where the machine ran equally fast for A and B), else the plain
 * t interval of the process pairs' geometric mean ratios. Undefined with fewer than MIN_PROCESS_PAIRS.
 */
export function overProcessPairs(rounds: readonly PairedRound[]): OverProcessPairs | undefined {
  const units = processPairUnits(rounds);
  if (units.length < MIN_PROCESS_PAIRS) return undefined;
  const plain = exactRatioInterval(units.map((u) => Math.exp(u.y)));
  if (plain === undefined) return undefined;
  const xs = units.flatMap((u) => (u.x === undefined ? [] : [u.x]));
  if (xs.length < units.length) return { ...plain, processPairs: units.length };
  const shifted = speedShift(xs);
  if (shifted !== undefined) return { ...plain, processPairs: units.length, speedShifted: shifted };
  const fit = adjustedMean(
    units.map((u) => u.y),
    xs,
  );
  if (fit === undefined) return { ...plain, processPairs: units.length };
  const { ratio, ci95 } = roundedInterval(plain);
  return {
    ratio: Math.exp(fit.mean),
    ci95: [Math.exp(fit.mean - fit.half), Math.exp(fit.mean + fit.half)],
    processPairs: units.length,
    adjusted: {
      plain: plain.ci95,
      record: { slope: round4(fit.slope), correlation: round4(fit.correlation), unadjusted: { ratio, ci95 } },
    },
  };
}

/**
 * The machine's speed during B's runs over during A's, where its 95 % interval over the process pairs
 * excludes 1; undefined where it holds 1. The adjustment rests on that ratio being 1 by design
 * (A and B alternate): a B that changes how busy the CPUs are (more threads, a spinning wait)
 * moves the speed the sampler reads beside it, and reading B/A at a speed ratio of 1 would then
 * take part of B's own change out. Such a cell keeps the plain interval, and says why.
 */
function speedShift(logSpeeds: readonly number[]): [number, number] | undefined {
  const interval = exactRatioInterval(logSpeeds.map((x) => Math.exp(x)));
  return interval === undefined || holdsOne(interval.ci95) ? undefined : interval.ci95;
}

/** A cell's per-round ratios B/A split by the server processes they were measured on, for the two-level interval. */
export function ratiosByProcess(a: CellResult, b: CellResult): number[][] {
  return byProcess(pairedRounds(a.runDetails, b.runDetails).rounds);
}
