/**
 * The A/B gate's rule, on one cell: B's requests/s over A's, paired round by round (the two
 * lanes' runs alternate, A B | B A, so each round's ratio is of neighbours in time and a drift of
 * the host lands on both sides of it). Pure.
 *
 * - regressed / improved: the ratio's 95 % interval excludes 1 and its estimate is at least half
 *   the margin away from 1. Half the margin keeps a real but negligible change (1 %, seen
 *   precisely) from failing a check, while a change of the margin itself is still flagged as soon
 *   as the interval is narrower than it.
 * - unchanged: otherwise, when the whole interval lies within ±margin: the pair could have seen
 *   a change of the margin and did not.
 * - inconclusive: otherwise (an interval wider than the margin, too few pairs, a cell that did
 *   not measure): no claim either way, with why and what to do.
 *
 * Every verdict carries the smallest change its pair could have flagged: the interval's
 * half-width (a change that large would just exclude 1), and never less than half the margin.
 */
import type { AbCell, AbVerdict } from '../model/ab.ts';
import type { CellResult } from '../model/cell.ts';
import { holdsOne, MIN_PAIRS, pairedRatioInterval, roundRatios } from '../stats/paired.ts';
import { acrossProcessInterval, processComponents } from '../stats/process-interval.ts';

export type AbJudgement = Pick<AbCell, 'verdict' | 'ratio' | 'ci95' | 'pairs' | 'margin' | 'detectable' | 'reason'>;

const round4 = (x: number): number => Number(x.toFixed(4));
const pct = (share: number): string => `${(share * 100).toFixed(1)} %`;

/**
 * A cell's per-round ratios B/A split by the server processes they were measured on (A and B
 * restart at the same rounds, so a group is one pair of processes), for the two-level interval.
 */
export function ratiosByProcess(a: CellResult, b: CellResult): number[][] {
  const groups = new Map<number, number[]>();
  for (const run of b.runDetails) {
    const partner = a.runDetails.find((r) => r.round !== undefined && r.round === run.round);
    if (partner === undefined || !(partner.requestsPerSec > 0) || !(run.requestsPerSec > 0)) continue;
    const key = run.serverProcess ?? 1;
    groups.set(key, [...(groups.get(key) ?? []), run.requestsPerSec / partner.requestsPerSec]);
  }
  return [...groups.values()];
}

/**
 * The verdict on B over A for one cell, `margin` as a share (0.05). With `between` (the
 * between-process variance of the log ratios pooled over the report's A/B cells,
 * stats/process-interval.ts), a cell measured on two or more process pairs gets the two-level
 * interval: a pair of processes that runs apart by itself (one slower server) moves every round
 * it served, which an interval over rounds alone would take for a change.
 */
export function judgeAb(
  a: CellResult | undefined,
  b: CellResult | undefined,
  margin: number,
  between?: { variance: number; df: number },
): AbJudgement {
  const none = (reason: string, pairs = 0): AbJudgement => ({ verdict: 'inconclusive', pairs, margin, detectable: null, reason });
  if (a === undefined || b === undefined) return none(`${a === undefined ? 'A' : 'B'} has no such cell`);
  for (const [side, cell] of [['A', a] as const, ['B', b] as const])
    if (cell.status !== 'ok')
      return none(`${side}'s cell is ${cell.status}${cell.reason === undefined ? '' : ` (${cell.reason})`}: fix it, then run again`);
  const ratios = roundRatios(b.runDetails, a.runDetails);
  const interval = pairedRatioInterval(ratios);
  if (interval === undefined)
    return none(
      `${ratios.length} paired round(s), ${MIN_PAIRS} needed for an interval: run with --runs ${Math.max(4, MIN_PAIRS)} or more`,
      ratios.length,
    );
  const components = between === undefined ? undefined : processComponents({ groups: ratiosByProcess(a, b) });
  if (components === undefined || between === undefined) return judgeRatio(interval.ratio, interval.ci95, interval.pairs, margin);
  const [lo, hi] = acrossProcessInterval(components, between);
  const sig4 = (x: number): number => Number(x.toPrecision(4));
  return judgeRatio(sig4(Math.exp(components.logMean)), [sig4(lo), sig4(hi)], interval.pairs, margin);
}

/** The rule on a paired ratio and its 95 % interval (exported for the tests on fixed inputs). */
export function judgeRatio(ratio: number, ci95: [number, number], pairs: number, margin: number): AbJudgement {
  const half = (Math.log(ci95[1]) - Math.log(ci95[0])) / 2;
  const detectable = round4(Math.max(Math.expm1(half), margin / 2));
  const beyond = Math.abs(Math.log(ratio)) >= Math.log1p(margin / 2);
  const within = ci95[0] >= 1 / (1 + margin) && ci95[1] <= 1 + margin;
  const verdict: AbVerdict = !holdsOne(ci95) && beyond ? (ratio < 1 ? 'regressed' : 'improved') : within ? 'unchanged' : 'inconclusive';
  const base = { verdict, ratio, ci95, pairs, margin, detectable };
  if (verdict !== 'inconclusive') return base;
  return {
    ...base,
    reason: `its 95 % interval (${ci95[0].toFixed(3)}-${ci95[1].toFixed(3)}x) is wider than ±${pct(margin)}: this pair could flag only a change over ${pct(detectable)}; it had ${pairs} paired rounds: give it more (--max-runs, --budget) or a quieter host`,
  };
}
