/** The words a report uses for a cell's CPU profile (--profile), shared by every renderer. */
import type { CellResult } from '../../model/cell.ts';
import type { ProfileFunction, ProfileHolder, ProfileLate, ProfileSummary } from '../../model/profile.ts';
import { formatMs } from '../../present/formats.ts';
import { readableName } from '../../profile/function-name.ts';

/** A share as a percentage, one decimal below 10 %. */
export const pct = (x: number) => (x === 0 ? '0 %' : `${(x * 100).toFixed(x < 0.1 ? 1 : 0)} %`);

/** "fibPlain (workloads/fib.ts:16)", "exec (native)". */
export function functionLabel(f: Pick<ProfileFunction | ProfileHolder, 'name' | 'where' | 'kind'>): string {
  return `${readableName(f.name)} (${f.where ?? f.kind})`;
}

/**
 * A late-time holder: a native function is named with the function that called it, as its own
 * name ("write", "(anonymous)") rarely says whose work it was.
 */
function holderLabel(h: ProfileHolder): string {
  return h.kind === 'native' && h.caller !== undefined ? `${functionLabel(h)} from ${functionLabel(h.caller)}` : functionLabel(h);
}

/** "4,210 ms", "56.7 ms". */
const msText = (x: number) => `${x >= 1000 ? Math.round(x).toLocaleString('en-US') : formatMs(x)} ms`;

/**
 * What ran while the server's lag sampler saw the loop late: "while the loop was late (212 stalls
 * over 10 ms, 4,210 ms in all, 84 % of the time): 89 % in fibPlain (workloads/fib.ts:17)".
 */
export function lateClause(late: ProfileLate): string {
  if (late.stalls === 0) return `the loop never late by more than ${late.thresholdMs} ms`;
  const head = `while the loop was late (${late.stalls} stall${late.stalls === 1 ? '' : 's'} over ${late.thresholdMs} ms, ${msText(late.ms)} in all, ${pct(late.share)} of the time)`;
  const first = late.holders[0];
  return first === undefined ? `${head}: no sample of the main thread in it` : `${head}: ${pct(first.share)} in ${holderLabel(first)}`;
}

/**
 * What ran while the loop was late, in one clause; where the server recorded no late intervals
 * (a raw server, an older report), what held it, read from the profile alone.
 */
export function heldSentence(summary: ProfileSummary): string {
  const busy = `main thread busy ${pct(summary.busyShare)}`;
  if (summary.late !== undefined) return `${busy}, ${lateClause(summary.late)}`;
  const held = summary.held;
  if (held === undefined) return busy;
  if (held.stretches === 0) return `${busy}, the loop never held past ${held.thresholdMs} ms`;
  const first = held.holders[0];
  const by = first === undefined ? '' : `, ${pct(first.share)} by ${functionLabel(first)}`;
  return `${busy}, the loop held past ${held.thresholdMs} ms for ${pct(held.share)} of the time${by}`;
}

/**
 * The late share past which an off-loop mode's late time is its work still on the loop. Below it
 * the stalls are a few a second, which a shared host gives a mode that left too (a thread kept
 * off its CPU, a collection), and sync's busiest function says more: gone from the main thread,
 * or how much of it is left.
 */
const LATE_STAYED = 0.1;

/**
 * The profiles' evidence beside the timer ticks: how busy the main thread was against sync's, and
 * then what ran while the loop was late ("while the loop was late (...): 96 % in write (native)":
 * the work stayed, whatever the function is called there; in older reports what held it), or,
 * where the loop was seldom late, whether sync's busiest
 * function is still on it ("hashSync (bcrypt/bcrypt.js:85) gone from it"; under the last of its
 * top functions when not listed).
 */
export function profileEvidence(over: CellResult, sync: CellResult | undefined): string | undefined {
  const off = over.profile?.summary;
  const on = sync?.profile?.summary;
  if (off === undefined || on === undefined) return undefined;
  const busy = `profile: main thread busy ${pct(off.busyShare)} against sync's ${pct(on.busyShare)}`;
  if (off.late !== undefined && off.late.share >= LATE_STAYED && off.late.holders.length > 0) return `${busy}, ${lateClause(off.late)}`;
  const held = off.held;
  const holder = held?.holders[0];
  if (held !== undefined && held.stretches > 0 && holder !== undefined)
    return `${busy}, held past ${held.thresholdMs} ms ${pct(held.share)} of the time, ${pct(holder.share)} by ${functionLabel(holder)}`;
  const work = on.bySelf.find((f) => f.kind !== 'vm');
  if (work === undefined) return busy;
  const same = off.bySelf.find((f) => f.name === work.name && f.where === work.where);
  if (same !== undefined) return `${busy}, ${functionLabel(work)} ${pct(same.selfShare)} of it against sync's ${pct(work.selfShare)}`;
  return `${busy}, ${functionLabel(work)} gone from it (under ${pct(off.bySelf.at(-1)?.selfShare ?? 0)})`;
}
