/**
 * Two curve reports -> capacity at the target per cell, side by side. A capacity is one ladder,
 * not repeated runs: there is no significance test, and a drop counts as a regression only past
 * the threshold and down to the next lower ladder rate or below (a rate between two steps is within the ladder's resolution).
 */
import { markdownTable } from 'markdown-table';
import { formatRps } from '../report/render/markdown.ts';
import type { Curve, CurveReport } from './curve-types.ts';
import { formatCapacity, sortedCurves } from './render-text.ts';

export interface CapacityChange {
  cell: string;
  baseline: Curve | undefined;
  current: Curve | undefined;
  /** current / baseline capacity; null when either has none. */
  ratio: number | null;
  regressed: boolean;
}

const key = (c: Curve) => `${c.runtime} ${c.scenario}/${c.mode}`;

/** The next lower rate on the curve's ladder below its capacity: the ladder's resolution there. */
function stepBelow(curve: Curve): number | undefined {
  const rates = curve.steps.map((s) => s.offeredPerSec).filter((r) => curve.capacityPerSec !== null && r < curve.capacityPerSec);
  return rates.length === 0 ? undefined : Math.max(...rates);
}

export function compareCurves(baseline: CurveReport, current: CurveReport, threshold: number): { changes: CapacityChange[]; hasRegression: boolean; notes: string[] } {
  const before = new Map(baseline.curves.map((c) => [key(c), c]));
  const after = new Map(current.curves.map((c) => [key(c), c]));
  const cells = [...new Set([...sortedCurves(baseline.curves).map(key), ...sortedCurves(current.curves).map(key)])];
  const changes = cells.map((cell): CapacityChange => {
    const b = before.get(cell);
    const c = after.get(cell);
    const bc = b?.status === 'ok' ? b.capacityPerSec : null;
    const cc = c?.status === 'ok' ? c.capacityPerSec : null;
    const ratio = bc !== null && cc !== null && bc > 0 ? Math.round((cc / bc) * 1000) / 1000 : null;
    const below = b === undefined ? undefined : stepBelow(b);
    const regressed = ratio !== null && ratio < 1 - threshold && (below === undefined || (cc ?? 0) <= below);
    return { cell, baseline: b, current: c, ratio, regressed };
  });
  const notes: string[] = [];
  if (baseline.parameters.sloMs !== current.parameters.sloMs) notes.push(`different targets: p99 ≤ ${baseline.parameters.sloMs} ms vs ${current.parameters.sloMs} ms`);
  if (baseline.parameters.arrivals !== current.parameters.arrivals) notes.push(`different arrivals: ${baseline.parameters.arrivals} vs ${current.parameters.arrivals}`);
  if (baseline.environment.cpu.model !== current.environment.cpu.model) notes.push(`different machines: ${baseline.environment.cpu.model} vs ${current.environment.cpu.model}`);
  return { changes, hasRegression: changes.some((c) => c.regressed), notes };
}

export function renderCurveComparison(result: ReturnType<typeof compareCurves>, sloMs: number): string {
  const rows = result.changes.map((c) => [
    c.cell,
    c.baseline === undefined ? 'absent' : formatCapacity(c.baseline),
    c.current === undefined ? 'absent' : formatCapacity(c.current),
    c.ratio === null ? '-' : `${c.ratio >= 1 ? '+' : ''}${formatRps((c.ratio - 1) * 100)} %`,
    c.regressed ? 'REGRESSED' : '',
  ]);
  return [
    `## Capacity at p99 ≤ ${sloMs} ms: baseline vs current`,
    '',
    markdownTable([['cell', 'baseline req/s', 'current req/s', 'change', ''], ...rows]),
    '',
    'One ladder per report, no repeated runs: a drop is a regression only past the threshold and at or below the baseline ladder\'s next lower rate.',
    ...result.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
