/**
 * Two curve reports -> capacity at the target per cell, side by side. A capacity is a bracket
 * [highest rate shown to pass, lowest shown to fail] at a stated confidence, so two capacities
 * differ only where their brackets do not overlap: one run failed at a rate the other passed.
 * Overlapping brackets "could not tell" (the vocabulary of present/verdict-words.ts). A drop is a regression when the brackets
 * are apart and the midpoints (geometric) differ by more than the threshold. Reports from before
 * the bracket (no `capacity` field) fall back to ladder rates: a drop counts only past the
 * threshold and down to the next lower ladder rate or below.
 */
import { markdownTable } from 'markdown-table';
import { formatRps } from '../present/formats.ts';
import { CHANGE_WORDS } from '../present/verdict-words.ts';
import type { Curve, CurveReport } from './curve-types.ts';
import { formatCapacity, sortedCurves } from './render-text.ts';

export interface CapacityChange {
  cell: string;
  baseline: Curve | undefined;
  current: Curve | undefined;
  /** current / baseline capacity (brackets: their geometric midpoints); null when either has none. */
  ratio: number | null;
  /** Brackets apart and current lower / higher, or overlapping (could not tell); null: no figure to compare. */
  verdict: 'lower' | 'higher' | 'could not tell' | null;
  regressed: boolean;
}

/** A curve's capacity as an interval: [proven pass or 0, proven fail or ∞]; null when it has none. */
export function capacityInterval(curve: Curve | undefined): [number, number] | null {
  if (curve === undefined || curve.status !== 'ok' || curve.capacity === undefined) return null;
  const { passPerSec, failPerSec } = curve.capacity;
  if (passPerSec === null && failPerSec === null) return null;
  return [passPerSec ?? 0, failPerSec ?? Number.POSITIVE_INFINITY];
}

/** Geometric midpoint of a bracket; an open end is left out (the proven end alone). */
function midpoint([lo, hi]: [number, number]): number | null {
  if (lo > 0 && Number.isFinite(hi)) return Math.sqrt(lo * hi);
  if (lo > 0) return lo;
  return Number.isFinite(hi) ? hi : null;
}

function bracketChange(
  b: [number, number],
  c: [number, number],
  threshold: number,
): Pick<CapacityChange, 'ratio' | 'verdict' | 'regressed'> {
  const mb = midpoint(b);
  const mc = midpoint(c);
  const ratio = mb !== null && mc !== null && mb > 0 ? Math.round((mc / mb) * 1000) / 1000 : null;
  // Apart: the current run failed at or below a rate the baseline passed (or the reverse).
  const lower = c[1] <= b[0];
  const higher = c[0] >= b[1];
  const verdict = lower ? 'lower' : higher ? 'higher' : 'could not tell';
  return { ratio, verdict, regressed: lower && (ratio === null || ratio < 1 - threshold) };
}

const key = (c: Curve) => `${c.runtime} ${c.scenario}/${c.mode}`;

/** The next lower rate on the curve's ladder below its capacity: the ladder's resolution there. */
function stepBelow(curve: Curve): number | undefined {
  const rates = curve.steps.map((s) => s.offeredPerSec).filter((r) => curve.capacityPerSec !== null && r < curve.capacityPerSec);
  return rates.length === 0 ? undefined : Math.max(...rates);
}

export function compareCurves(
  baseline: CurveReport,
  current: CurveReport,
  threshold: number,
): { changes: CapacityChange[]; hasRegression: boolean; notes: string[] } {
  const before = new Map(baseline.curves.map((c) => [key(c), c]));
  const after = new Map(current.curves.map((c) => [key(c), c]));
  const cells = [...new Set([...sortedCurves(baseline.curves).map(key), ...sortedCurves(current.curves).map(key)])];
  const changes = cells.map((cell): CapacityChange => {
    const b = before.get(cell);
    const c = after.get(cell);
    const bi = capacityInterval(b);
    const ci = capacityInterval(c);
    if (bi !== null && ci !== null) return { cell, baseline: b, current: c, ...bracketChange(bi, ci, threshold) };
    const bc = b?.status === 'ok' ? b.capacityPerSec : null;
    const cc = c?.status === 'ok' ? c.capacityPerSec : null;
    const ratio = bc !== null && cc !== null && bc > 0 ? Math.round((cc / bc) * 1000) / 1000 : null;
    const below = b === undefined ? undefined : stepBelow(b);
    const regressed = ratio !== null && ratio < 1 - threshold && (below === undefined || (cc ?? 0) <= below);
    return {
      cell,
      baseline: b,
      current: c,
      ratio,
      verdict: ratio === null ? null : regressed ? 'lower' : 'could not tell',
      regressed,
    };
  });
  const notes: string[] = [];
  if (baseline.parameters.sloMs !== current.parameters.sloMs)
    notes.push(`different targets: p99 ≤ ${baseline.parameters.sloMs} ms vs ${current.parameters.sloMs} ms`);
  if (baseline.parameters.arrivals !== current.parameters.arrivals)
    notes.push(`different arrivals: ${baseline.parameters.arrivals} vs ${current.parameters.arrivals}`);
  if ((baseline.parameters.percentile ?? 99) !== (current.parameters.percentile ?? 99))
    notes.push(`different percentiles: p${baseline.parameters.percentile ?? 99} vs p${current.parameters.percentile ?? 99}`);
  if (baseline.parameters.confidence !== current.parameters.confidence)
    notes.push(
      `different confidence: ${baseline.parameters.confidence ?? 'none stated'} vs ${current.parameters.confidence ?? 'none stated'}`,
    );
  if (baseline.environment.cpu.model !== current.environment.cpu.model)
    notes.push(`different machines: ${baseline.environment.cpu.model} vs ${current.environment.cpu.model}`);
  return { changes, hasRegression: changes.some((c) => c.regressed), notes };
}

/** "lower: the brackets are apart", "could not tell: the brackets overlap"; ladder rates without brackets say less. */
function verdictText(c: CapacityChange): string {
  if (c.verdict === null) return '-';
  const brackets = capacityInterval(c.baseline) !== null && capacityInterval(c.current) !== null;
  if (!brackets) return c.verdict;
  return c.verdict === 'could not tell' ? 'could not tell: the brackets overlap' : `${c.verdict}: the brackets are apart`;
}

export function renderCurveComparison(result: ReturnType<typeof compareCurves>, sloMs: number): string {
  const rows = result.changes.map((c) => [
    c.cell,
    c.baseline === undefined ? 'absent' : formatCapacity(c.baseline),
    c.current === undefined ? 'absent' : formatCapacity(c.current),
    c.ratio === null ? '-' : `${c.ratio >= 1 ? '+' : ''}${formatRps((c.ratio - 1) * 100)} %`,
    verdictText(c),
    c.regressed ? CHANGE_WORDS.regressed.toUpperCase() : '',
  ]);
  return [
    `## Capacity at p99 ≤ ${sloMs} ms: baseline vs current`,
    '',
    markdownTable([['cell', 'baseline req/s', 'current req/s', 'change (midpoints)', 'brackets', ''], ...rows]),
    '',
    "A capacity is a bracket [highest rate shown to pass, lowest shown to fail]: overlapping brackets could not tell the two apart; a drop is a regression when the brackets are apart and the midpoints differ by more than the threshold. (Reports without brackets: a drop past the threshold and at or below the baseline ladder's next lower rate.)",
    ...result.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
