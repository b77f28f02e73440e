/**
 * The host's speed, measured apart from the load: a pinned fib loop run by the speed sampler's
 * children (one pinned to each CPU) on an otherwise idle machine, between runs.
 *
 * - Per round (`roundReference`): fib(REFERENCE_FIB_N) on every CPU at once, the lower quartile of
 *   each CPU's calls averaged over CPUs. Each run of the round carries it (RunResult.referenceMs).
 *   The cell's drift-cancelled figure is each run's requests/s times the median of its rounds'
 *   references: requests per reference unit (REFERENCE_UNIT). The median, not each round's own:
 *   one round's reading moves by a few per cent from the next even on a host that held
 *   (docs/methodology.md gives the figures), which would widen every cell's interval, while the drift it cancels (tens of per cent between
 *   reports minutes apart) is slow beside a scenario's minute of rounds. Browser A/B runs
 *   carry a reference build for the same reason: a host that slows down 1.5x between two reports
 *   serves a CPU-bound cell 1.5x slower and takes 1.5x longer per unit, so the product holds.
 * - Before the first cell and after the last (`hostCheck`): fib(CHECK_FIB_N) on each CPU alone,
 *   then on all together, twice before (their difference is the check's own floor): the readings
 *   from which system/host-speed.ts judges whether the host's speed held between the run's start
 *   and end, told apart from the tool's own noise (docs/design.md, "Measurement principles": an
 *   independent check tells a steady host from a moving one).
 *
 * This file measures; system/host-speed.ts owns every verdict on what it measured.
 */
import type { CellResult, RunResult, DriftCancelled } from '../model/cell.ts';
import type { Environment, HostCheck, HostCheckReading } from '../model/environment.ts';
import type { SpeedSampler } from '../system/speed-sampler.ts';
import { median, summarize } from '../stats/stats.ts';
import { checkChange, checkThreshold, checkVerdict, readingMs } from '../system/host-speed.ts';

/** fib(25): well under a millisecond a call on a current CPU, so 40 calls keep a round short. */
export const REFERENCE_FIB_N = 25;
export const REFERENCE_CALLS = 40;
/** fib(28): a few milliseconds a call, long beside the timer's resolution; 20 calls per reading in the full plan. */
export const CHECK_FIB_N = 28;
export const CHECK_CALLS = 20;
/**
 * --quick's check (the plan's checkCalls): a smoke run's check need only tell a host that held
 * from one that moved by tens of per cent, and a floor too wide to tell says so itself
 * (host-speed.ts checkVerdict, "untold"). Five calls keep a lower quartile that is not the single
 * fastest call; on this project's 2-CPU host the check's floor at 5 was no wider than at 20, other
 * processes taking a CPU for a whole reading being what widens it (docs/methodology.md, "--quick").
 */
export const QUICK_CHECK_CALLS = 5;

/**
 * The unit the drift-cancelled figure counts in: a thousand calls of the round's reference (its
 * time in seconds is the call's in ms), so a figure reads in the units req/s does (hash ~10, hello ~25,000).
 */
export const REFERENCE_UNIT = `1,000 calls of fib(${REFERENCE_FIB_N}), pinned, every CPU at once`;

type Sampler = Pick<SpeedSampler, 'reference'>;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The round's reference in ms (mean over CPUs of each one's median call), or undefined when a child did not answer. */
export async function roundReference(sampler: Sampler): Promise<number | undefined> {
  const timing = await sampler.reference(REFERENCE_FIB_N, REFERENCE_CALLS);
  return timing === undefined || timing.ms.length === 0 ? undefined : round3(mean(timing.ms));
}

/** A cell's drift-cancelled figure from its runs; undefined unless every run carries a reference. */
export function driftCancelled(runs: readonly RunResult[]): DriftCancelled | undefined {
  if (runs.length === 0 || runs.some((r) => r.referenceMs === undefined)) return undefined;
  const refs = runs.map((r) => r.referenceMs ?? 0);
  const factor = median(refs);
  return {
    unit: REFERENCE_UNIT,
    requestsPerUnit: summarize(runs.map((r) => r.requestsPerSec * factor)),
    referenceMs: summarize(refs),
  };
}

/** One reading of the check, `calls` calls of fib(CHECK_FIB_N) a CPU: each CPU alone, then all together. */
export async function checkReading(sampler: Sampler, cpus: number, calls: number): Promise<HostCheckReading | undefined> {
  const alone: number[] = [];
  for (let cpu = 0; cpu < cpus; cpu++) {
    const t = await sampler.reference(CHECK_FIB_N, calls, [cpu]);
    if (t?.ms[0] === undefined) return undefined;
    alone.push(round3(t.ms[0]));
  }
  const together = await sampler.reference(CHECK_FIB_N, calls);
  if (together === undefined || together.ms.length !== cpus) return undefined;
  return { at: new Date().toISOString(), alone, together: together.ms.map(round3) };
}

/** Two readings as one: each figure the faster of the two (a reading disturbed by something else only reads slower). */
function fasterOf(a: HostCheckReading, b: HostCheckReading): HostCheckReading {
  const min = (xs: number[], ys: number[]) => xs.map((x, i) => Math.min(x, ys[i] ?? x));
  return { at: b.at, alone: min(a.alone, b.alone), together: min(a.together, b.together) };
}

/** Two readings back to back, as one (fasterOf), and how far apart they were (the check's floor). */
export async function checkTwice(
  sampler: Sampler,
  cpus: number,
  calls: number,
): Promise<{ reading: HostCheckReading; apart: number } | undefined> {
  const first = await checkReading(sampler, cpus, calls);
  const second = await checkReading(sampler, cpus, calls);
  if (first === undefined || second === undefined) return undefined;
  return { reading: fasterOf(first, second), apart: round3(Math.abs(readingMs(second) / readingMs(first) - 1)) };
}

/**
 * The check before the run: two readings back to back of `calls` calls each (the plan's
 * checkCalls); their difference is the floor. The readings after take as many (HostCheck.calls).
 */
export async function checkBefore(sampler: Sampler, cpus: number, calls: number): Promise<HostCheck | undefined> {
  const twice = await checkTwice(sampler, cpus, calls);
  if (twice === undefined) return undefined;
  return {
    n: CHECK_FIB_N,
    calls,
    before: twice.reading,
    floor: twice.apart,
    threshold: checkThreshold(twice.apart),
  };
}

/** The check completed after the run: the change, and whether it is beyond the threshold (kept in report.json for its readers). */
export function withAfter(check: HostCheck, after: HostCheckReading | undefined): HostCheck {
  if (after === undefined) return check;
  const done = { ...check, after, change: checkChange(check.before, after) };
  return { ...done, moved: checkVerdict(done) === 'moved' };
}

/** The reference loop over the run's rounds (environment.referenceLoop); undefined when no run carries one. */
export function referenceLoop(cells: readonly CellResult[]): Environment['referenceLoop'] {
  const refs = cells.flatMap((c) => c.runDetails.map((r) => r.referenceMs)).filter((x): x is number => x !== undefined);
  if (refs.length === 0) return undefined;
  const sorted = [...refs].sort((a, b) => a - b);
  return {
    unit: `fib(${REFERENCE_FIB_N}), pinned, every CPU at once`,
    minMs: sorted[0] ?? 0,
    maxMs: sorted[sorted.length - 1] ?? 0,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    rounds: new Set(refs).size,
  };
}
