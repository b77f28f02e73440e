/**
 * What a mode ratio may be read as, in one place for every renderer: "more", "less", "wide" (a
 * known direction whose interval is too wide to size), "same" (an interval that holds 1 and
 * nothing beyond ±10 %), "no interval" (too few paired runs), or "inconclusive" with why. A ratio
 * from a cell that shared the host, or from an invalid or failed one, or whose interval holds 1
 * but reaches past the margin, is evidence of nothing, least of all of "no difference": 1.48x
 * (0.91-2.43x) on a shared host says the runs could not see, not that the modes are alike. The
 * words for each reading live in verdict-words.ts. Pure.
 */
import type { CellResult } from '../model/cell.ts';
import type { Flag } from '../model/names.ts';
import { holdsOne } from '../stats/paired.ts';
import { sharedHost } from '../system/host-speed.ts';

/**
 * An interval whose ends are further apart than this (high / low) is too wide to answer by: it
 * would hold both "no difference" and "half as much again". Twice the ±10 % a heavy cell reaches
 * on a steady host, with room for a four-run cell.
 */
export const WIDEST_READABLE = 1.5;

/**
 * "No difference" is said only of an interval that rules out more than this change either way
 * (0.9x to 1.1x): one that holds 1 but reaches 0.75x has not shown the modes alike, it has
 * not seen. The ±10 % a heavy cell's interval reaches on a steady host.
 */
export const NO_DIFFERENCE_WITHIN = 0.1;

export type RatioReading = 'more' | 'less' | 'wide' | 'same' | 'no-interval' | 'inconclusive';

export interface RatioVerdict {
  reading: RatioReading;
  /** Why it is inconclusive: "async shared the host", "interval over 1.5x end to end" (the interval is quoted beside it). */
  why?: string;
  /** Inconclusive because the cells cannot carry a figure (`doubt`), not because the interval is too wide. */
  doubt?: true;
  /** For "wide": which side of 1 the whole interval lies on. */
  direction?: 'more' | 'less';
}

type Side = (Pick<CellResult, 'mode' | 'status'> & { flags: readonly Flag[] }) | undefined;

/** Why the cells behind a ratio cannot carry an answer, in a reader's words ("the host was shared during async"), or undefined. */
export function cellsDoubt(cells: readonly Side[]): string | undefined {
  const known = cells.filter((cell): cell is NonNullable<Side> => cell !== undefined);
  const failed = known.filter((c) => c.status === 'failed').map((c) => `the ${c.mode} server failed`);
  const invalid = known.filter((c) => c.status === 'invalid').map((c) => `${c.mode} gave invalid answers`);
  // One clause for every side that shared the host: "the host was shared during async and sync".
  const shared = known.filter((c) => c.status === 'ok' && sharedHost(c)).map((c) => c.mode);
  const reasons = [...failed, ...invalid, ...(shared.length === 0 ? [] : [`the host was shared during ${shared.join(' and ')}`])];
  return reasons.length === 0 ? undefined : reasons.join(', ');
}

/**
 * The reading of a ratio and its 95 % interval. `doubt` (cellsDoubt) makes it inconclusive
 * whatever the figures say; so does an interval wider than WIDEST_READABLE end to end.
 */
export function ratioVerdict(ratio: number, ci: readonly [number, number] | undefined, doubt?: string): RatioVerdict {
  if (doubt !== undefined) return { reading: 'inconclusive', why: doubt, doubt: true };
  if (ci === undefined) return { reading: 'no-interval' };
  if (ci[0] > 0 && ci[1] / ci[0] > WIDEST_READABLE) {
    // Too wide to size, but an interval wholly on one side of 1 still says which way it went.
    if (!holdsOne(ci)) return { reading: 'wide', direction: ci[0] > 1 ? 'more' : 'less' };
    return { reading: 'inconclusive', why: `interval over ${WIDEST_READABLE}x end to end` };
  }
  if (holdsOne(ci)) {
    // The ends as printed (three decimals): 0.90x-1.10x is within.
    const within = ci[0] >= 1 - NO_DIFFERENCE_WITHIN - 5e-4 && ci[1] <= 1 + NO_DIFFERENCE_WITHIN + 5e-4;
    return within
      ? { reading: 'same' }
      : { reading: 'inconclusive', why: `the interval holds 1 and changes beyond ±${NO_DIFFERENCE_WITHIN * 100} %` };
  }
  return { reading: ratio > 1 ? 'more' : 'less' };
}
