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
 * The profiles' evidence beside the timer ticks: how busy the main thread was against sync's, and
 * then what held it ("held past 10 ms 86 % of the time, 96 % by write (native)": the work stayed,
 * whatever the function is called there), or, where nothing held it, whether sync's busiest
 * function is still on it ("hashSync (bcrypt/bcrypt.js:85) gone from it"; under the last of its
 * top functions when not listed).
 */
export function profileEvidence(over: CellResult, sync: CellResult | undefined): string | undefined {
  const off = over.profile?.summary;
  const on = sync?.profile?.summary;
  if (off === undefined || on === undefined) return undefined;
  const busy = `profile: main thread busy ${pct(off.busyShare)} against sync's ${pct(on.busyShare)}`;
  const holder = off.held.holders[0];
  if (off.held.stretches > 0 && holder !== undefined)
    return `${busy}, held past ${off.held.thresholdMs} ms ${pct(off.held.share)} of the time, ${pct(holder.share)} by ${functionLabel(holder)}`;
  const work = on.bySelf.find((f) => f.kind !== 'vm');
  if (work === undefined) return busy;
  const same = off.bySelf.find((f) => f.name === work.name && f.where === work.where);
  if (same !== undefined) return `${busy}, ${functionLabel(work)} ${pct(same.selfShare)} of it against sync's ${pct(work.selfShare)}`;
  return `${busy}, ${functionLabel(work)} gone from it (under ${pct(off.bySelf.at(-1)?.selfShare ?? 0)})`;
}
