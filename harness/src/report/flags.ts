/**
 * The rules that decide a cell's flags and status. Pure functions over the runs of one cell.
 * Flags say "read this figure with care"; status `invalid` says "do not read it at all".
 */
import type { CellResult, Overload, RunResult } from '../model/cell.ts';
import type { CellStatus, Flag } from '../model/names.ts';
import { latencyCensoredReason } from '../stats/littles-law.ts';
import { cv, median } from '../stats/stats.ts';
import { formatRps } from './text/formats.ts';
import { sharedHostReason } from '../system/host-speed.ts';

/**
 * Client CPU (100 = one full core) at or above which the load generator, not the server,
 * is likely the bottleneck: autocannon is single-threaded, so near one core it cannot send faster.
 */
export const CLIENT_BOUND_CPU_PERCENT = 90;

/** CV of requests/s across runs above which the median is too noisy to compare closely. */
export const UNSTABLE_CV = 0.1;

/**
 * Autocannon at or above this fraction of wrk's requests/s counts as reaching the server's
 * ceiling: run-to-run noise of 2 s runs on a shared 2-core machine is several percent, so a
 * tighter bar would flip on noise, and a looser one would hide a client worth fixing.
 */
export const CEILING_OK_RATIO = 0.9;

/**
 * True when the load generator was saturated. Judged on the median of the runs' client CPU,
 * so one run disturbed by something else on the machine neither raises nor hides the flag.
 */
export function isClientBound(runs: readonly RunResult[]): boolean {
  if (runs.length === 0) return false;
  return median(runs.map((r) => r.client.cpuPercent)) >= CLIENT_BOUND_CPU_PERCENT;
}

/** True when requests/s varied too much between runs (CV computed at full precision). */
export function isUnstable(runs: readonly RunResult[]): boolean {
  return cv(runs.map((r) => r.requestsPerSec)) > UNSTABLE_CV;
}

/**
 * True when, in any run, the server counted a different number of requests than the client
 * received by more than could be in flight at the run's edges: one per connection when the
 * client stops (answered by the server, never read by the client) and one per connection from
 * the load before (finished by the server just after /reset). Measured: exactly `connections`
 * apart in steady runs, up to 1.7x `connections` in the run after a warm-up.
 */
export function hasCountMismatch(runs: readonly RunResult[], connections: number): boolean {
  // Requests the client gave up on (timeouts) may still be served and counted by the server;
  // a run whose server figures are missing has nothing to compare.
  return runs.some((r) => r.statsMissing === undefined && Math.abs(r.serverCount - r.clientCount) > 2 * connections + r.timeouts);
}

/**
 * Overloaded: requests waited past --timeout and the client gave up on them, while others were
 * answered. That is what a saturated server does, not a broken one: the cell is measured, and
 * this flag carries the share that timed out. Even a run that answered nothing in time is a
 * measured overload (every request it sent timed out), not a run too short to measure.
 */
export function isOverloaded(runs: readonly RunResult[]): boolean {
  return runs.some((r) => r.timeouts > 0);
}

/**
 * Timeouts and errors as shares of the requests whose fate was known by the end of the runs
 * (answered, timed out or failed), summed over all runs; undefined unless overloaded. Requests
 * still outstanding when a run stops are left out: in a closed loop every connection has one,
 * so counting them would make the share depend on how long the run was, not on the server (a
 * 3 s run with a 2 s timeout could never show more than about half).
 */
export function overloadSummary(runs: readonly RunResult[], timeoutSec: number): Overload | undefined {
  if (!isOverloaded(runs)) return undefined;
  const sent = runs.reduce((sum, r) => sum + (r.sent ?? r.requests + r.timeouts + r.errors), 0);
  const timeouts = runs.reduce((sum, r) => sum + r.timeouts, 0);
  const errors = runs.reduce((sum, r) => sum + r.errors, 0);
  const decided = runs.reduce((sum, r) => sum + r.requests, 0) + timeouts + errors;
  // Six decimals: three timeouts in 80,000 requests must not round to a false zero.
  const share = (n: number) => (decided > 0 ? Math.round((n / decided) * 1e6) / 1e6 : 0);
  return { sent, timeouts, errors, timeoutShare: share(timeouts), errorShare: share(errors), timeoutSec };
}

export interface FlagOptions {
  connections: number;
  /** False when the server cannot count requests (the raw servers have no /stats). */
  countsAvailable: boolean;
}

/** All flags that apply, in a fixed order so reports diff cleanly. */
export function cellFlags(runs: readonly RunResult[], options: FlagOptions): Flag[] {
  const flags: Flag[] = [];
  if (isClientBound(runs)) flags.push('client-bound');
  if (isUnstable(runs)) flags.push('unstable');
  if (options.countsAvailable && hasCountMismatch(runs, options.connections)) flags.push('count-mismatch');
  if (isOverloaded(runs)) flags.push('overloaded');
  if (latencyCensoredReason(runs) !== undefined) flags.push('latency-censored');
  if (sharedHostReason(runs) !== undefined) flags.push('shared-host');
  return flags;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * Why the answers of these runs cannot be trusted, e.g. "3 errors, 1 non-2xx over 3 runs";
 * undefined when every answer was a timely 2xx.
 */
export function failedAnswersReason(runs: readonly RunResult[]): string | undefined {
  // Under overload, timeouts and the errors that come with them (connections the client
  // dropped) are the finding, carried by the overloaded flag; wrong answers never are.
  const overloaded = isOverloaded(runs);
  const errors = overloaded ? 0 : runs.reduce((sum, r) => sum + r.errors, 0);
  const timeouts = overloaded ? 0 : runs.reduce((sum, r) => sum + r.timeouts, 0);
  const non2xx = runs.reduce((sum, r) => sum + r.non2xx, 0);
  const parts: string[] = [];
  if (errors > 0) parts.push(plural(errors, 'error'));
  if (timeouts > 0) parts.push(plural(timeouts, 'timeout'));
  if (non2xx > 0) parts.push(`${non2xx} non-2xx`);
  if (parts.length === 0) return undefined;
  return `${parts.join(', ')} over ${plural(runs.length, 'run')}`;
}

export interface StatusVerdict {
  status: CellStatus;
  reason?: string;
}

/**
 * `invalid` when the endpoint failed its check before timing, when no run was measured, when
 * a run completed no request, when any run saw non-2xx answers, or errors or timeouts that are
 * not an overload (the throughput would then count failures as work done). `failed` (the
 * server died or hung) is decided by whoever saw it.
 */
export function cellStatus(runs: readonly RunResult[], validationError?: string): StatusVerdict {
  const reasons: string[] = [];
  if (validationError !== undefined) reasons.push(`validation failed: ${validationError}`);
  if (runs.length === 0) reasons.push('no runs measured');
  // A run that finished no request measured nothing: its 0 req/s would pull the median down as
  // if the server were slow, when the run was only shorter than one request's wait.
  const empty = runs.filter((r) => r.requests === 0 && r.timeouts === 0).length;
  if (empty > 0) reasons.push(`${plural(empty, 'run')} completed no request: lengthen --duration`);
  const answers = failedAnswersReason(runs);
  if (answers !== undefined) reasons.push(answers);
  return reasons.length === 0 ? { status: 'ok' } : { status: 'invalid', reason: reasons.join('; ') };
}

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
/** Below this Jain index a cell's connections were served unevenly enough to say so. */
export const UNFAIR_JAIN = 0.9;

/**
 * A cell whose page faults took at least this share of the server's CPU per request says so: its
 * figure then measures the host's memory handling as much as the endpoint (on a VM, 14-17 µs a
 * fresh page; docs/methodology.md), and --allocator keep shows the endpoint without it.
 */
export const PAGE_FAULT_SHARE = 0.2;

export function cellRemarks(
  cell: Pick<CellResult, 'restarts' | 'lagMissing' | 'shortRuns' | 'fairness' | 'pageFaultShare' | 'pageFaultsPerRequest' | 'slowFirstRun'>,
): string[] {
  const remarks: string[] = [];
  if (cell.slowFirstRun !== undefined) {
    remarks.push(`⚠ first run ${cell.slowFirstRun.ratio.toFixed(2)}x the median: ${cell.slowFirstRun.reason}`);
  }
  if (cell.pageFaultShare !== undefined && cell.pageFaultShare >= PAGE_FAULT_SHARE) {
    remarks.push(
      `⚠ page faults ≈ ${percent(cell.pageFaultShare)} of the server's CPU (${formatRps(cell.pageFaultsPerRequest ?? 0)} a request)`,
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
