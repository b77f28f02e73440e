/**
 * A curve report (bench:curve) as the report model's section: its own renderers, and one
 * headline per curve: capacity at the latency target for each runtime, scenario and mode.
 */
import type { ChartAssets } from '../report/render/html-assets.ts';
import { formatMs } from '../report/render/format.ts';
import type { Headline, ReportSection } from '../report/section.ts';
import type { Curve, CurveReport } from './curve-types.ts';
import { renderCurveHtml } from './render-html.ts';
import { formatCapacity, renderCurveMarkdown, sortedCurves } from './render-text.ts';

function headline(curve: Curve, sloMs: number): Headline | undefined {
  // A curve that cannot carry a capacity (invalid, failed) is never a finding.
  if (curve.status !== 'ok') return undefined;
  const capacity = formatCapacity(curve);
  const target = `p99 ≤ ${formatMs(sloMs)} ms`;
  return {
    question: `${curve.runtime}, ${curve.scenario} ${curve.mode}: how many requests/s within ${target}?`,
    answer: `${capacity} req/s (open loop)${curve.kneePerSec === null ? '' : `, latency starts climbing near ${Math.round(curve.kneePerSec)} req/s`}`,
    figure: capacity,
    confidence: curve.capacityPerSec === null
      ? 'not even the lowest step met the target'
      : curve.capacityAtLeast
        ? 'a lower bound: the top step still met the target'
        : 'highest step of the ladder that met the target',
    anchor: `curve-${curve.scenario}`,
  };
}

export function curveHeadlines(report: CurveReport): Headline[] {
  return sortedCurves(report.curves).flatMap((c) => headline(c, report.parameters.sloMs) ?? []);
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
