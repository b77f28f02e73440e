/**
 * Reproducibility of one run by another: the same default run twice should agree, for at least
 * 90 % of its headline paired ratios and its cells, by one rule (stats/agreement.ts): medians
 * within their combined 95 % interval or 3 %, whichever is larger. Ratios are the product (their
 * runs alternate, so a drift of the host cancels inside each pair); a cell's absolute requests/s
 * only reproduces while the host holds its speed. Cells with no interval on a side (too few runs)
 * or not ok on a side cannot reproduce and say why. Pure.
 */
import type { CellResult, Summary } from '../model/cell.ts';
import type { Comparison, Ratios } from '../model/comparison.ts';
import { AGREEMENT_FLOOR, agreement, type Estimate } from '../stats/agreement.ts';

/** The share that must agree for the pair of runs to count as reproduced. */
export const REPRODUCED_SHARE = 0.9;

export interface CellSpread {
  median: number;
  ci95: [number, number];
}

export interface UnreproducedCell {
  /** "node fib/sync" or "node fib worker/sync" (the installation's label when versions were named). */
  cell: string;
  baseline?: CellSpread;
  current?: CellSpread;
  /** Why: how far apart against what was allowed, or why there is nothing to test. */
  reason: string;
}

export interface Reproducibility {
  /** Items in both reports that agree by the rule. */
  reproduced: number;
  /** Items in both reports. */
  of: number;
  /** reproduced / of >= REPRODUCED_SHARE (false with nothing in both reports). */
  holds: boolean;
  notReproduced: UnreproducedCell[];
  /** added: which figure ("requests/s", "paired ratio"). */
  figure?: string;
}

/** The headline ratios of a report's comparisons: mode over sync, Hono over raw. */
const RATIO_NAMES = [
  ['asyncOverSync', 'async/sync'],
  ['workerOverSync', 'worker/sync'],
  ['honoOverRaw', 'hono/raw'],
] as const;

function spread(s: Estimate): CellSpread {
  return { median: s.median, ci95: [s.ci95[0], s.ci95[1]] };
}

function name(cell: CellResult): string {
  return `${cell.runtimeLabel ?? cell.runtime} ${cell.scenario}/${cell.mode}`;
}

function percent(x: number): string {
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
}

/** Why two estimates disagree by the rule; undefined when they agree. */
export function whyDisagree(a: Estimate, b: Estimate): string | undefined {
  const verdict = agreement(a, b);
  if (verdict === undefined) return 'a median of 0: nothing to compare';
  if (verdict.agree) return undefined;
  return `${percent(verdict.difference)} apart, beyond ±${(verdict.allowed * 100).toFixed(1)} % (combined 95 % interval, at least ${AGREEMENT_FLOOR * 100} %)`;
}

function noInterval(s: Summary): string | undefined {
  return s.intervalNote;
}

/** Why a pair of cells does not reproduce on requests/s; undefined when it does. */
export function whyNotReproduced(baseline: CellResult, current: CellResult): string | undefined {
  if (baseline.status !== 'ok' || current.status !== 'ok') {
    const sides = [
      baseline.status !== 'ok' ? `baseline ${baseline.status}` : '',
      current.status !== 'ok' ? `current ${current.status}` : '',
    ].filter((s) => s !== '');
    return `not ok (${sides.join(', ')})`;
  }
  const note = noInterval(baseline.requestsPerSec) ?? noInterval(current.requestsPerSec);
  if (note !== undefined) return `no interval: ${note}`;
  return whyDisagree(baseline.requestsPerSec, current.requestsPerSec);
}

function counted(notReproduced: UnreproducedCell[], of: number, figure: string): Reproducibility {
  const reproduced = of - notReproduced.length;
  return { reproduced, of, holds: of > 0 && reproduced / of >= REPRODUCED_SHARE, notReproduced, figure };
}

/** The cells of both reports, matched by the comparison's own key, counted as reproduced or not. */
export function reproducibility(pairs: readonly (readonly [CellResult, CellResult])[]): Reproducibility {
  const notReproduced: UnreproducedCell[] = [];
  for (const [baseline, current] of pairs) {
    const reason = whyNotReproduced(baseline, current);
    if (reason !== undefined)
      notReproduced.push({
        cell: name(current),
        baseline: spread(baseline.requestsPerSec),
        current: spread(current.requestsPerSec),
        reason,
      });
  }
  return counted(notReproduced, pairs.length, 'requests/s');
}

/**
 * The cells of both reports on their drift-cancelled figure (req/unit), for those that carry it
 * on both sides with an interval (across processes where measured); undefined when none does.
 */
export function driftCancelledReproducibility(pairs: readonly (readonly [CellResult, CellResult])[]): Reproducibility | undefined {
  const notReproduced: UnreproducedCell[] = [];
  let of = 0;
  for (const [baseline, current] of pairs) {
    const b = baseline.driftCancelled?.requestsPerUnit;
    const c = current.driftCancelled?.requestsPerUnit;
    if (baseline.status !== 'ok' || current.status !== 'ok' || b === undefined || c === undefined) continue;
    if (b.intervalNote !== undefined || c.intervalNote !== undefined) continue;
    of++;
    const reason = whyDisagree(b, c);
    if (reason !== undefined) notReproduced.push({ cell: name(current), baseline: spread(b), current: spread(c), reason });
  }
  return of === 0 ? undefined : counted(notReproduced, of, 'req/unit (drift-cancelled)');
}

/** A comparison's paired ratio as an estimate; undefined when its runs were not paired. */
export function pairedEstimate(ratios: Ratios | undefined): Estimate | undefined {
  if (ratios?.pairedThroughput === undefined || ratios.throughputCi95 === undefined) return undefined;
  return { median: ratios.pairedThroughput, ci95: ratios.throughputCi95 };
}

function comparisonKey(c: Comparison): string {
  return [c.runtimeLabel ?? c.runtime, c.scenario, c.connections ?? '', c.processes ?? ''].join('\u0000');
}

export interface RatioPair {
  /** "node fib worker/sync". */
  name: string;
  baseline: Estimate;
  current: Estimate;
}

/** The headline paired ratios present, with an interval, in both reports. */
export function ratioPairs(baseline: readonly Comparison[], current: readonly Comparison[]): RatioPair[] {
  const before = new Map(baseline.map((c) => [comparisonKey(c), c]));
  const pairs: RatioPair[] = [];
  for (const c of current) {
    const b = before.get(comparisonKey(c));
    if (b === undefined) continue;
    for (const [field, label] of RATIO_NAMES) {
      const was = pairedEstimate(b[field]);
      const now = pairedEstimate(c[field]);
      if (was !== undefined && now !== undefined)
        pairs.push({ name: `${c.runtimeLabel ?? c.runtime} ${c.scenario} ${label}`, baseline: was, current: now });
    }
  }
  return pairs;
}

/** The headline paired ratios of both reports counted as reproduced or not, by the same rule as the cells. */
export function ratioReproducibility(pairs: readonly RatioPair[]): Reproducibility {
  const notReproduced: UnreproducedCell[] = [];
  for (const pair of pairs) {
    const reason = whyDisagree(pair.baseline, pair.current);
    if (reason !== undefined)
      notReproduced.push({ cell: pair.name, baseline: spread(pair.baseline), current: spread(pair.current), reason });
  }
  return counted(notReproduced, pairs.length, 'paired ratio');
}

const RULE = `medians within their combined 95 % interval or ${AGREEMENT_FLOOR * 100} %, whichever is larger`;

/** "ratios reproduced: 18 of 18 (100 %; at least 90 % asked): medians within ...". */
export function reproducedLine(r: Reproducibility, what = 'cells'): string {
  if (r.of === 0) return `reproduced: no ${what} in both reports`;
  const share = Math.round((r.reproduced / r.of) * 100);
  return `${what} reproduced: ${r.reproduced} of ${r.of} (${share} %; at least ${REPRODUCED_SHARE * 100} % asked${r.holds ? '' : ', not met'}): ${RULE}${r.figure === undefined ? '' : ` on ${r.figure}`}`;
}
