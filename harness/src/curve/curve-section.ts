/**
 * A curve report (bench:curve) as the report model's section: its own renderers, and one
 * headline per curve: capacity at the latency target for each runtime, scenario and mode.
 */
import type { ChartAssets } from '../present/html-assets.ts';
import { formatMs } from '../present/formats.ts';
import type { Headline, ReportSection } from '../model/section.ts';
import type { CapacityBracket, Curve, CurveReport } from './curve-types.ts';
import { renderCurveHtml } from './render-html.ts';
import { formatCapacity, renderCurveMarkdown, sortedCurves } from './render-text.ts';

/** How sure the capacity is: the bracket's ends, each shown by a step decided at the stated confidence. */
function confidence(curve: Curve): string {
  const c = curve.capacity;
  if (c === undefined) {
    // Reports before the capacity search: a ladder rung, not a bracket.
    if (curve.capacityPerSec === null) return 'not even the lowest step met the target';
    return curve.capacityAtLeast
      ? 'a lower bound: the top step still met the target'
      : 'highest step of the ladder that met the target (no bracket)';
  }
  const at = `${Math.round(c.confidence * 100)} % confidence per step`;
  const width =
    c.passPerSec !== null && c.failPerSec !== null ? `, bracket ${Math.round((c.failPerSec / c.passPerSec - 1) * 100)} % wide` : '';
  const why: Record<CapacityBracket['end'], string> = {
    resolved: 'searched to the resolution',
    'generator-bound': "a lower bound: the generator's own ceiling stopped the search",
    'undecided-limit': 'search ended on steps that could not decide in their time',
    'step-limit': 'search ended at its step limit',
    'below-floor': 'not even the lowest rate passed',
    rates: 'rates given by hand, no search',
  };
  return `${why[c.end]}; ${at}${width}`;
}

function headline(curve: Curve, sloMs: number, percentile: number, arrivals: string): Headline | undefined {
  // A curve that cannot carry a capacity (invalid, failed) is never a finding.
  if (curve.status !== 'ok') return undefined;
  const capacity = formatCapacity(curve);
  const target = `p${percentile} ≤ ${formatMs(sloMs)} ms`;
  return {
    question: `${curve.runtime}, ${curve.scenario} ${curve.mode}: how many requests/s within ${target}?`,
    answer: `${capacity} req/s (open loop, ${arrivals} arrivals)${curve.kneePerSec === null ? '' : `, latency starts climbing near ${Math.round(curve.kneePerSec)} req/s`}`,
    figure: capacity,
    confidence: confidence(curve),
    anchor: `curve-${curve.scenario}`,
  };
}

export function curveHeadlines(report: CurveReport): Headline[] {
  const p = report.parameters;
  return sortedCurves(report.curves).flatMap((c) => headline(c, p.sloMs, p.percentile ?? 99, p.arrivals) ?? []);
}

export function isCurveReport(json: Record<string, unknown>): boolean {
  return json.kind === 'curve';
}

export function curveSection(report: CurveReport, assets: () => ChartAssets): ReportSection {
  if (!Array.isArray(report.curves)) throw new Error('"curves" is not an array');
  return {
    kind: 'curve',
    id: 'curve',
    title: 'Load curves (bench:curve)',
    headlines: curveHeadlines(report),
    markdown: () => renderCurveMarkdown(report),
    html: () => renderCurveHtml(report, assets()),
  };
}
