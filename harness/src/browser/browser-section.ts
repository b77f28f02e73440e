/**
 * A browser report (bench:browser) as the report model's section: its own renderers, and one
 * headline per claim of seed 002 checked in the browsers.
 */
import type { Headline, ReportSection } from '../model/section.ts';
import { checkClaims } from './claims.ts';
import { renderBrowserHtml } from './render-html.ts';
import { renderBrowserMarkdown } from './render-md.ts';
import type { BrowserSection } from './study.ts';

/** report.json of bench:browser: the study under `browser`. */
export interface BrowserReport {
  schemaVersion: 1;
  createdAt: string;
  status: 'complete' | 'interrupted';
  browser: BrowserSection;
}

export function browserHeadlines(study: BrowserSection): Headline[] {
  return checkClaims(study).map((c) => ({
    question: `Browser (seed 002): ${c.claim}?`,
    answer: `${c.verdict}: ${c.evidence}`,
    figure: c.verdict,
    confidence: `${study.parameters.samples} samples per case, medians compared`,
    anchor: '',
  }));
}

export function isBrowserReport(json: Record<string, unknown>): boolean {
  return (
    json.kind === 'browser' ||
    (typeof json.browser === 'object' && json.browser !== null && Array.isArray((json.browser as { cases?: unknown }).cases))
  );
}

export function browserSection(report: BrowserReport): ReportSection {
  const study = report.browser;
  return {
    kind: 'browser',
    id: 'browser',
    title: 'Browser study (bench:browser)',
    headlines: browserHeadlines(study),
    markdown: () => `# Browser study (${report.status}, ${report.createdAt})\n\n${renderBrowserMarkdown(study)}`,
    html: () => renderBrowserHtml(study),
  };
}
