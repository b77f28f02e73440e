/**
 * The rules that decide a cell's flags and status. Pure functions over the runs of one cell.
 * Flags say "read this figure with care"; status `invalid` says "do not read it at all".
 */
import type { Overload, RunResult } from '../model/cell.ts';
import { type CellStatus, type Flag, plural } from '../model/names.ts';
import { CLIENT_BOUND_CPU_PERCENT, UNSTABLE_CV } from '../model/thresholds.ts';
import { latencyCensoredReason } from '../stats/littles-law.ts';
import { cv, median } from '../stats/stats.ts';
import { sharedHostReason } from '../system/host-speed.ts';

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
