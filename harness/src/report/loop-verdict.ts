/**
 * Does an off-loop mode (async, worker) leave the event loop? Two kinds of evidence, both in the
 * report: the server's loop check before the runs (the timer ticks the loop ran while the calls
 * were in hand, as a share of an idle loop's: LoopUse.ticksShare) and, under load, the cell's
 * loop lag p99 against its sync cell's. Pure functions; the rule is stated in docs/methodology.md.
 */
import type { CellResult, LoopVerdict } from '../model/cell.ts';
import { dimensionKey } from './mode-ratios.ts';

/** At most this share of an idle loop's ticks: the calls held the loop. */
export const HELD_TICKS_SHARE = 0.1;
/** At least this share: the loop stayed free to run its timers. */
export const FREE_TICKS_SHARE = 0.5;
/** Loop lag p99 under this share of sync's: the load did not hold the loop the way sync does. */
export const FREE_LAG_SHARE = 0.5;
/** At least this share of sync's: the loop was as late as on the loop. */
export const HELD_LAG_SHARE = 0.8;
/**
 * Below this, sync's own lag p99 (ms) says too little to compare against: a call of microseconds
 * holds the loop no longer than serving the request does, whatever mode runs it.
 */
export const MIN_SYNC_LAG_MS = 5;

export interface LoopEvidence {
  /** From the loop check; undefined when there was none. */
  ticksShare?: number;
  /** The off-loop cell's loop lag p99 and its sync cell's, ms; undefined when either is unknown. */
  lagP99Ms?: number;
  syncLagP99Ms?: number;
}

/** The loop lag against sync's as 'free', 'held', 'between', or undefined when it says nothing. */
function lagReading(e: LoopEvidence): 'free' | 'held' | 'between' | undefined {
  if (e.lagP99Ms === undefined || e.syncLagP99Ms === undefined || e.syncLagP99Ms < MIN_SYNC_LAG_MS) return undefined;
  const share = e.lagP99Ms / e.syncLagP99Ms;
  if (share < FREE_LAG_SHARE) return 'free';
  return share >= HELD_LAG_SHARE ? 'held' : 'between';
}

/**
 * The rule. The ticks share is the direct evidence: at most 0.1, stayed; at least 0.5, left,
 * unless the loop lag under load was more than half of sync's (then partly: the call leaves,
 * but something of it still holds the loop); between, partly. Without a loop check, the lag
 * alone: under half of sync's, left; at least 0.8 of it, stayed; else partly. Undefined when
 * neither says anything.
 */
export function loopVerdict(e: LoopEvidence): LoopVerdict | undefined {
  const lag = lagReading(e);
  if (e.ticksShare !== undefined) {
    if (e.ticksShare <= HELD_TICKS_SHARE) return 'stayed';
    if (e.ticksShare >= FREE_TICKS_SHARE) return lag === undefined || lag === 'free' ? 'left' : 'partly';
    return 'partly';
  }
  if (lag === undefined) return undefined;
  return lag === 'free' ? 'left' : lag === 'held' ? 'stayed' : 'partly';
}

/** A cell's loop lag p99 when it was measured: an ok cell whose runs had their /stats. */
export function measuredLagP99(cell: CellResult | undefined): number | undefined {
  if (cell === undefined || cell.status !== 'ok' || cell.lagMissing !== undefined || cell.serverSources?.lag === 'none') return undefined;
  return cell.eventLoopLagMs.p99;
}

const OFF_LOOP = new Set<CellResult['mode']>(['async', 'worker']);

/**
 * Each off-loop cell with a verdict on its `loop`, from its own check and its lag against the
 * sync cell of the same runtime, scenario, connections and processes. A cell with neither check
 * nor comparable lag is left as it is. Returns new cell objects.
 */
export function withLoopVerdicts(results: readonly CellResult[]): CellResult[] {
  const key = (c: CellResult) => `${c.runtimeLabel ?? c.runtime}\u0000${c.scenario}${dimensionKey(c)}`;
  const syncOf = new Map(results.filter((c) => c.mode === 'sync').map((c) => [key(c), c]));
  return results.map((cell) => {
    if (!OFF_LOOP.has(cell.mode)) return cell;
    const lagP99Ms = measuredLagP99(cell);
    const syncLagP99Ms = measuredLagP99(syncOf.get(key(cell)));
    const verdict = loopVerdict({
      ...(cell.loop?.ticksShare === undefined ? {} : { ticksShare: cell.loop.ticksShare }),
      ...(lagP99Ms === undefined || syncLagP99Ms === undefined ? {} : { lagP99Ms, syncLagP99Ms }),
    });
    if (verdict === undefined) return cell;
    return { ...cell, loop: { ...cell.loop, verdict } };
  });
}
