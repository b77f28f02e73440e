/**
 * A calibration (bench:calibrate, calibration.json) as the report model's section: how close
 * the load generator gets to wrk per server, the text calibrate-cli prints, as Markdown and a
 * plain page.
 */
import { formatRps } from '../present/formats.ts';
import { escapeHtml } from '../present/html-escape.ts';
import { REPORT_CSS } from '../present/html-style.ts';
import type { Headline, ReportSection } from '../model/section.ts';
import type { CalibrationResult } from './calibration-math.ts';
import { renderClosest, renderHeader, renderOpenLoop, renderSettings, renderSummary } from './render-calibration.ts';

export function calibrateHeadlines(result: CalibrationResult): Headline[] {
  return result.results.flatMap((r) => {
    const best = r.best;
    if (r.status !== 'ok' || best === null) return [];
    const figure = best.ratio === null ? formatRps(best.autocannon.median) : `${best.ratio.toFixed(2)} of wrk`;
    return [
      {
        question: `Is the load generator the bottleneck on ${r.runtime} ${r.version} (${r.server} server)?`,
        answer: `autocannon ${formatRps(best.autocannon.median)} req/s${best.wrk === null ? '' : ` vs wrk ${formatRps(best.wrk.median)}`}: ${best.text}`,
        figure,
        confidence: `median of ${result.parameters.runs} run(s) per client${best.unstable ? '; runs varied (unstable)' : ''}`,
        anchor: '',
      },
    ];
  });
}

export function isCalibration(json: Record<string, unknown>): boolean {
  return Array.isArray(json.results) && typeof json.parameters === 'object' && json.parameters !== null && 'wrkThreads' in json.parameters;
}

function text(result: CalibrationResult): string {
  return [
    renderHeader(result),
    '',
    renderSummary(result),
    '',
    renderClosest(result),
    '',
    '### Every setting',
    '',
    renderSettings(result),
    '',
    '### The open-loop generator',
    '',
    renderOpenLoop(result),
  ].join('\n');
}

export function calibrateSection(result: CalibrationResult): ReportSection {
  return {
    kind: 'calibrate',
    id: 'calibrate',
    title: 'Generator ceiling (bench:calibrate)',
    headlines: calibrateHeadlines(result),
    markdown: () => `# Generator ceiling against wrk\n\n${text(result)}\n`,
    html: () =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Generator ceiling</title><style>${REPORT_CSS}</style></head><body><main><h1>Generator ceiling against wrk</h1><pre>${escapeHtml(text(result))}</pre></main></body></html>\n`,
    console: () => text(result),
  };
}
