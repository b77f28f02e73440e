/**
 * A cell whose first measured run is well below its others: flagged with what the harness can
 * tell of why. Pure.
 *
 * A warm-up that ended before the server was at speed shows as a first run (or two) below the
 * rest; so does a machine that was slower just then. The report says which, so a reader does not
 * take either for the endpoint.
 */
import type { RunResult, SlowFirstRun, Warmup } from '../model/cell.ts';
import { median, roundFigure } from '../stats/stats.ts';
import { runReadings } from '../system/host-speed.ts';

/** A first run below this share of the cell's median is called out. */
export const SLOW_FIRST_RUN = 0.8;

/** Runs needed before a median says what "the rest" served. */
const MIN_RUNS = 3;

export function slowFirstRun(runs: readonly RunResult[], warmup: Warmup | undefined): SlowFirstRun | undefined {
  if (runs.length < MIN_RUNS) return undefined;
  const first = [...runs].sort((a, b) => (a.round ?? 0) - (b.round ?? 0))[0];
  const typical = median(runs.map((r) => r.requestsPerSec));
  if (first === undefined || !(typical > 0)) return undefined;
  const ratio = first.requestsPerSec / typical;
  if (ratio >= SLOW_FIRST_RUN) return undefined;
  return { ratio: roundFigure(ratio), reason: why(first, runs, warmup) };
}

function why(first: RunResult, runs: readonly RunResult[], warmup: Warmup | undefined): string {
  // The machine is the reason where the sampler read it slower in that run beyond its floor (system/host-speed.ts).
  const reading = runReadings(runs.map((r) => r.machine))[runs.indexOf(first)];
  if (reading?.moved === true && reading.slower) {
    const speeds = runs.flatMap((r) => (r.machine === undefined ? [] : [r.machine.coresWorth]));
    return `the machine was slower in that run (${(first.machine?.coresWorth ?? 0).toFixed(2)} cores' worth against ${median(speeds).toFixed(2)})`;
  }
  if (warmup === undefined) return 'no warm-up before it';
  const served =
    warmup.requests === undefined
      ? ''
      : `, ${warmup.requests} requests over ${warmup.connections ?? '?'} connections${
          warmup.servingThreads === undefined ? '' : `, ${Math.floor(warmup.requests / warmup.servingThreads)} per serving thread`
        }`;
  if (!warmup.steady) return `its warm-up stopped at its cap unsteady (${warmup.sec} s${served})`;
  return `the server was still speeding up after a steady warm-up (${warmup.sec} s${served})`;
}
