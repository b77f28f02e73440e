/** The words a report uses for a cell's CPU profile (--profile), shared by every renderer. */
import type { ProfileFunction, ProfileHolder, ProfileSummary } from '../../model/profile.ts';

const pct = (x: number) => `${Math.round(x * 100)} %`;

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
