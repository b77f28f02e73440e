/**
 * How sure the figures are, as text for every renderer: a paired ratio with its
 * interval's pairs ("6 pairs"), a cell's precision
 * ("±3.1 %"), the machine's speed over the run ("2 vCPUs, 1.1 to 1.9 cores' worth") and a cell's
 * notes on its machine.
 * Pure: formats what the report holds.
 */
import type { CellResult, Summary } from '../model/cell.ts';
import type { Ratios } from '../model/comparison.ts';
import type { Environment, FirstTouch } from '../model/environment.ts';
import type { Parameters } from '../model/parameters.ts';
import { formatRps } from './formats.ts';
import { MIN_RUNS_FOR_INTERVAL } from '../stats/stats.ts';

/**
 * How many paired rounds the throughput ratio and its interval rest on ("6 pairs"), or undefined
 * when the runs were not paired; the verdict itself is worded by verdict-words.ts.
 */
export function pairedRatioText(ratios: Ratios): string | undefined {
  if (ratios.throughputCi95 === undefined || ratios.pairedThroughput === undefined) return undefined;
  return `${ratios.pairs ?? 0} pairs`;
}

/**
 * The runs the cells took, as they were ("4 runs", "4 to 7 runs"), and, when the plan allowed
 * more while an interval was wide, how many it allowed and whether any cell got them: a budget
 * the minimum runs already fill buys none, and "4 to 12 runs" would promise what did not happen.
 */
export function runsText(p: Parameters, cells: readonly Pick<CellResult, 'status' | 'requestsPerSec'>[] = []): string {
  const counts = cells.filter((c) => c.status === 'ok').map((c) => c.requestsPerSec.runs.length);
  const allowedMore = p.targetPrecision !== undefined && p.maxRuns !== undefined && p.maxRuns > p.runs;
  if (counts.length === 0) return allowedMore ? `${p.runs} to ${p.maxRuns} runs` : `${p.runs} runs`;
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  const taken = low === high ? `${low} run${low === 1 ? '' : 's'}` : `${low} to ${high} runs`;
  if (!allowedMore || p.targetPrecision === undefined) return taken;
  // bench:ab stops on B/A's interval over pairs of processes, not on each lane's own precision.
  if (p.ab !== undefined)
    return `${taken} (more, up to ${p.maxRuns}, while a cell's B/A interval was wider than half its margin, within a ${p.budgetSec ?? '?'} s budget: the A/B section)`;
  const goal = `±${Math.round(p.targetPrecision * 100)} %`;
  return high > p.runs
    ? `${taken} (more, up to ${p.maxRuns}, while a cell's interval was wider than ${goal} of its median, within the time budget)`
    : `${taken} (up to ${p.maxRuns} were allowed while an interval was wider than ${goal}, within a ${p.budgetSec ?? '?'} s budget the minimum runs filled: no cell got more)`;
}

/** The legend line for the precision target and the paired ratios, when the run had them. */
export function precisionLegend(p: Parameters): string[] {
  // --quick (2 runs): say that its figures have no interval rather than let them pass as measured.
  if (p.targetPrecision === undefined && p.runs < MIN_RUNS_FOR_INTERVAL && p.targetCv === undefined) {
    return [
      `${p.runs} run${p.runs === 1 ? '' : 's'} a cell: no 95 % interval, and the figures move widely from run to run (a smoke run such as --quick); the default bench:all measures each cell to ±5 %.`,
    ];
  }
  if (p.targetPrecision === undefined) return [];
  const goal = `${(p.targetPrecision * 100).toFixed(0)} %`;
  if (p.ab !== undefined)
    return [
      `Runs were added while a cell's B/A interval over pairs of server processes was wider than half its margin${p.budgetSec === undefined ? '' : `, within a ${p.budgetSec} s budget`} (the A/B section); (±x %) is the precision each lane's median reached.`,
      "Modes were measured in alternating rounds: a ratio is the geometric mean of the rounds' ratios, with its 95 % interval.",
    ];
  return [
    `Runs were added until each cell's interval was within ±${goal} of its median (hello ±${(p.targetPrecision * 200).toFixed(0)} %)${p.budgetSec === undefined ? '' : ` while within a ${p.budgetSec} s budget`}; (±x %) is the precision reached.`,
    "Modes were measured in alternating rounds: a ratio is the geometric mean of the rounds' ratios, with its 95 % interval.",
  ];
}

/** "±3.1 %": the 95 % interval's half-width as a share of the median; undefined without one. */
export function precisionText(summary: Summary): string | undefined {
  if (summary.halfWidthShare === undefined || summary.intervalNote !== undefined) return undefined;
  return `±${(summary.halfWidthShare * 100).toFixed(1)} %`;
}

/** "11.9 µs per 4 KB page on first touch (0.34 GB/s; 1.00 page faults a page; median of 3 × 8 MB)": the environment row's text. */
export function firstTouchText(t: FirstTouch): string {
  return `${t.usPerPage} µs per 4 KB page on first touch (${t.gbPerSec} GB/s; ${t.faultsPerPage.toFixed(2)} page faults a page; median of ${t.rounds} × ${t.mb} MB)`;
}

/** The environment's machine-speed row, or undefined when no sampler ran. */
export function machineSpeedRow(env: Environment): [string, string] | undefined {
  const speed = env.machineSpeed;
  if (speed === undefined) return undefined;
  const span =
    speed.coresWorth === undefined
      ? 'not measured'
      : `${speed.coresWorth.min.toFixed(1)} to ${speed.coresWorth.max.toFixed(1)} cores' worth during this run`;
  return [
    'machine speed',
    `${speed.vcpus} vCPUs, ${span} (sampler${speed.pinned ? ' pinned per CPU' : ''}, every ${speed.intervalMs} ms, ${speed.overheadPercent.toFixed(2)} % of a CPU)`,
  ];
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The reference loop's row for the environment table: its range over the rounds, which req/unit divides out. */
export function referenceLoopRow(env: Environment): [string, string] | undefined {
  const loop = env.referenceLoop;
  if (loop === undefined) return undefined;
  return [
    'reference loop',
    `${loop.unit}: ${loop.minMs} to ${loop.maxMs} ms a call over ${loop.rounds} rounds (median ${loop.medianMs} ms), timed between runs; req/unit divides it out`,
  ];
}

/** "31.2 req/unit": the drift-cancelled figure of a cell, undefined when it has none. */
export function driftCancelledText(cell: CellResult): string | undefined {
  const d = cell.driftCancelled?.requestsPerUnit;
  if (d === undefined || cell.status === 'failed') return undefined;
  const share = precisionText(d);
  return `${formatRps(d.median)} req/unit${share === undefined ? '' : ` (${share})`}`;
}

/** The legend line for the drift-cancelled figure, when the report has it. */
export function driftCancelledLegend(cells: readonly CellResult[]): string[] {
  const unit = cells.find((c) => c.driftCancelled !== undefined)?.driftCancelled?.unit;
  if (unit === undefined) return [];
  return [
    `req/unit: requests answered per reference unit, req/s times the time ${unit} took in the same round (the reference loop, measured between runs): it cancels the host's drift for CPU-bound cells (a host 1.5x slower serves them 1.5x slower and takes 1.5x longer per unit); it promises nothing for sleep, whose rate a timer sets. Intervals hold the variance between server processes where the runs were split between two.`,
  ];
}

/**
 * A cell's notes on its machine and precision: runs left out for a slow machine, and runs whose
 * machine the sampler read apart from the cell's others beyond its floor (system/host-speed.ts
 * judges both; the top of the report does not repeat them where the independent check held). A
 * precision target not reached needs no note: the ± beside the figure shows it.
 */
export function precisionNotes(cell: Pick<CellResult, 'slowRunsExcluded' | 'machineMoved'>): string[] {
  const notes: string[] = [];
  const slow = cell.slowRunsExcluded ?? 0;
  if (slow > 0) notes.push(`🐢 ${slow} run${slow === 1 ? '' : 's'} on a slow machine left out`);
  const moved = cell.machineMoved;
  if (moved !== undefined)
    notes.push(
      `〰 machine's speed varied in ${moved.runs} run${moved.runs === 1 ? '' : 's'} (up to ${pct(moved.deviation)} from the cell's others; sampler floor ±${pct(moved.floor)})`,
    );
  return notes;
}
