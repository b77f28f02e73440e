/**
 * Reproducibility of one run by another: the same default run twice in a
 * row should give, for at least 90 % of cells, medians inside each other's 95 % intervals on
 * requests/s. A cell reproduces when each report's median lies inside the other's interval
 * (both ways: a narrow interval on one side is not excused by a wide one on the other). Cells
 * with no interval on a side (too few runs) or not ok on a side cannot reproduce and say why.
 * Pure.
 */
import type { CellResult } from '../model/cell.ts';

/** The share of cells that must reproduce for the pair of runs to count as reproduced. */
export const REPRODUCED_SHARE = 0.9;

export interface CellSpread {
  median: number;
  ci95: [number, number];
}

export interface UnreproducedCell {
  /** "node fib/sync" (the installation's label when versions were named). */
  cell: string;
  baseline?: CellSpread;
  current?: CellSpread;
  /** Why: which median falls outside which interval, or why there is nothing to test. */
  reason: string;
}

export interface Reproducibility {
  /** Cells in both reports whose medians sit inside each other's intervals. */
  reproduced: number;
  /** Cells in both reports. */
  of: number;
  /** reproduced / of >= REPRODUCED_SHARE (false with no cell in both reports). */
  holds: boolean;
  notReproduced: UnreproducedCell[];
}

const inside = (x: number, [lo, hi]: readonly [number, number]): boolean => x >= lo && x <= hi;

function spread(cell: CellResult): CellSpread {
  return { median: cell.requestsPerSec.median, ci95: [cell.requestsPerSec.ci95[0], cell.requestsPerSec.ci95[1]] };
}

function name(cell: CellResult): string {
  return `${cell.runtimeLabel ?? cell.runtime} ${cell.scenario}/${cell.mode}`;
}

/** Why a pair of cells does not reproduce; undefined when it does. */
export function whyNotReproduced(baseline: CellResult, current: CellResult): string | undefined {
  if (baseline.status !== 'ok' || current.status !== 'ok') {
    const sides = [
      baseline.status !== 'ok' ? `baseline ${baseline.status}` : '',
      current.status !== 'ok' ? `current ${current.status}` : '',
    ].filter((s) => s !== '');
    return `not ok (${sides.join(', ')})`;
  }
  const note = baseline.requestsPerSec.intervalNote ?? current.requestsPerSec.intervalNote;
  if (note !== undefined) return `no interval: ${note}`;
  const a = spread(baseline);
  const b = spread(current);
  const misses: string[] = [];
  if (!inside(b.median, a.ci95)) misses.push(`current median ${fmt(b.median)} outside baseline ${range(a.ci95)}`);
  if (!inside(a.median, b.ci95)) misses.push(`baseline median ${fmt(a.median)} outside current ${range(b.ci95)}`);
  return misses.length === 0 ? undefined : misses.join('; ');
}

/**
 * The cells of both reports, matched by `keyOf` (the comparison's own key), counted as
 * reproduced or not; the ones that are not listed in the current report's order.
 */
export function reproducibility(pairs: readonly (readonly [CellResult, CellResult])[]): Reproducibility {
  const notReproduced: UnreproducedCell[] = [];
  for (const [baseline, current] of pairs) {
    const reason = whyNotReproduced(baseline, current);
    if (reason !== undefined) notReproduced.push({ cell: name(current), baseline: spread(baseline), current: spread(current), reason });
  }
  const of = pairs.length;
  const reproduced = of - notReproduced.length;
  return { reproduced, of, holds: of > 0 && reproduced / of >= REPRODUCED_SHARE, notReproduced };
}

/** "reproduced: 30 of 33 cells (91 %; at least 90 % asked)". */
export function reproducedLine(r: Reproducibility): string {
  if (r.of === 0) return 'reproduced: no cell is in both reports';
  const share = Math.round((r.reproduced / r.of) * 100);
  return `reproduced: ${r.reproduced} of ${r.of} cells (${share} %; at least ${REPRODUCED_SHARE * 100} % asked${r.holds ? '' : ', not met'}): medians inside each other's 95 % intervals on requests/s`;
}

function fmt(x: number): string {
  return x >= 100 ? String(Math.round(x)) : String(Number(x.toPrecision(3)));
}

function range([lo, hi]: readonly [number, number]): string {
  return `${fmt(lo)} to ${fmt(hi)}`;
}
