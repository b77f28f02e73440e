/** The words a report uses for a cell's CPU profile (--profile), shared by every renderer. */
import type { CellResult } from '../../model/cell.ts';
import type { ProfileFunction, ProfileHolder, ProfileSummary } from '../../model/profile.ts';

/** A share as a percentage, one decimal below 10 %. */
export const pct = (x: number) => (x === 0 ? '0 %' : `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`);

/** "fibPlain (workloads/fib.ts:16)", "exec (native)". */
export function functionLabel(f: Pick<ProfileFunction | ProfileHolder, 'name' | 'where' | 'kind'>): string {
  return `${f.name} (${f.where ?? f.kind})`;
}

/** What held the loop, in one clause. */
export function heldSentence(summary: ProfileSummary): string {
  const held = summary.held;
  const busy = `main thread busy ${pct(summary.busyShare)}`;
  if (held.stretches === 0) return `${busy}, the loop never held past ${held.thresholdMs} ms`;
  const first = held.holders[0];
  const by = first === undefined ? '' : `, ${pct(first.share)} by ${functionLabel(first)}`;
  return `${busy}, the loop held past ${held.thresholdMs} ms for ${pct(held.share)} of the time${by}`;
}

/**
 * The profiles' evidence beside the timer ticks: the sync cell's busiest function on the main
 * thread, and its share there in the off-loop mode ("fibPlain (workloads/fib.ts) 61 % of the
 * main thread against sync's 75 %"); gone from the main thread when the off-loop mode's profile
 * does not list it among its top functions (then under the last one listed).
 */
export function profileEvidence(over: CellResult, sync: CellResult | undefined): string | undefined {
  const off = over.profile?.summary;
  const on = sync?.profile?.summary;
  const work = on?.bySelf.find((f) => f.kind !== 'vm');
  if (off === undefined || on === undefined || work === undefined) return undefined;
  const same = off.bySelf.find((f) => f.name === work.name && f.where === work.where);
  const label = functionLabel(work);
  if (same !== undefined) return `profile: ${label} ${pct(same.selfShare)} of the main thread against sync's ${pct(work.selfShare)}`;
  const floor = off.bySelf.at(-1)?.selfShare ?? 0;
  return `profile: ${label} gone from the main thread (under ${pct(floor)}, against sync's ${pct(work.selfShare)})`;
}
