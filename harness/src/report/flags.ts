/**
 * A cell's flags and remarks as a reader sees them: each with the figure that goes with it. The
 * rules that decide them are bench/cell-status.ts's; their thresholds model/thresholds.ts's.
 */
import type { CellResult } from '../model/cell.ts';
import { type Flag, plural } from '../model/names.ts';
import { PAGE_FAULT_SHARE, UNFAIR_JAIN } from '../model/thresholds.ts';
import { formatRps } from '../present/formats.ts';

/** A flag as a reader sees it, with the figure that goes with it (every renderer uses this). */
export function flagLabel(flag: Flag, cell: Pick<CellResult, 'requestsPerSec' | 'overload' | 'latencyCensored' | 'sharedHost'>): string {
  if (flag === 'unstable') return `⚠ unstable (CV ${(cell.requestsPerSec.cv * 100).toFixed(0)} %)`;
  if (flag === 'overloaded' && cell.overload !== undefined) {
    return `⚠ overloaded: ${percent(cell.overload.timeoutShare)} of requests timed out after ${cell.overload.timeoutSec} s`;
  }
  if (flag === 'latency-censored' && cell.latencyCensored !== undefined) return `⚠ latency censored: ${cell.latencyCensored}`;
  if (flag === 'shared-host' && cell.sharedHost !== undefined) return `⚠ shared host: ${cell.sharedHost}`;
  return `⚠ ${flag}`;
}

/** Notes that are not flags: restarts, and a loop lag that could not be read. */
export function cellRemarks(
  cell: Pick<CellResult, 'restarts' | 'lagMissing' | 'shortRuns' | 'fairness' | 'pageFaultShare' | 'pageFaultsPerRequest' | 'slowFirstRun'>,
): string[] {
  const remarks: string[] = [];
  if (cell.slowFirstRun !== undefined) {
    remarks.push(`⚠ first run ${cell.slowFirstRun.ratio.toFixed(2)}x the median: ${cell.slowFirstRun.reason}`);
  }
  if (cell.pageFaultShare !== undefined && cell.pageFaultShare >= PAGE_FAULT_SHARE) {
    remarks.push(
      `⚠ page faults ≈ ${percent(cell.pageFaultShare)} of the server's CPU, ${formatRps(cell.pageFaultsPerRequest ?? 0)} faults a request`,
    );
  }
  if (cell.fairness !== undefined && cell.fairness.jain < UNFAIR_JAIN) {
    remarks.push(`⚖ connections served unevenly (Jain ${cell.fairness.jain.toFixed(2)}, max/min ${cell.fairness.maxOverMin.toFixed(1)}x)`);
  }
  if (cell.shortRuns !== undefined) {
    const { runs, minRequests, capped } = cell.shortRuns;
    remarks.push(`⚠ ${plural(runs, 'run')} under ${minRequests} requests${capped ? ' (run length capped)' : ''}: read as a sketch`);
  }
  if (cell.restarts !== undefined) remarks.push(`↻ ${plural(cell.restarts.length, 'restart')} (${why(cell.restarts[0] ?? '')})`);
  if (cell.lagMissing !== undefined) remarks.push(`lag n/a (${why(cell.lagMissing)})`);
  return remarks;
}

/** The gist of a drain's reason for a table cell; report.json keeps the whole sentence. */
function why(reason: string): string {
  return reason.includes('drain cap') ? 'backlog past the drain cap' : 'still busy at the drain deadline';
}

/** A share as a percentage a reader can take in: "96 %", "4.5 %", "< 0.1 %" (never a false "0 %"). */
export function percent(share: number): string {
  const pct = share * 100;
  if (pct === 0) return '0 %';
  if (pct < 0.1) return '< 0.1 %';
  return `${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)} %`;
}
