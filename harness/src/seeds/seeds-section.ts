/**
 * A seeds report (bench:seeds) as the report model's section: its own renderers, and one
 * headline per claim replayed: the verdict, the measured ratio and its 95 % interval.
 */
import { ratioConfidence } from '../present/headline.ts';
import { claimWords, measuredWords } from './claim-words.ts';
import { formatRatio } from '../present/formats.ts';
import type { Headline, ReportSection } from '../model/section.ts';
import { CLAIMS } from './claims.ts';
import type { ClaimRow } from './judge.ts';
import { renderSeedsConsole, renderSeedsHtml, renderSeedsMarkdown, type SeedsReport } from './render.ts';

function headline(row: ClaimRow): Headline {
  const claim = CLAIMS.find((c) => c.id === row.claim);
  const r = row.ratio;
  const figure = r === undefined ? '—' : formatRatio(r.median);
  return {
    question: `Seed claim ${row.claim} on ${row.runtime}: ${claim?.claim ?? row.claim}`,
    answer: `${claimWords(row.verdict, row.claimed, r?.ci95)} (measured ${measuredWords(row)}; ${formatRatio(row.claimed)} claimed)`,
    figure,
    ...(r === undefined ? {} : { confidence: ratioConfidence(r.ci95) }),
    anchor: '',
  };
}

export function seedsHeadlines(report: SeedsReport): Headline[] {
  return report.rows.map(headline);
}

export function isSeedsReport(json: Record<string, unknown>): boolean {
  return json.kind === 'seeds';
}

export function seedsSection(report: SeedsReport): ReportSection {
  if (!Array.isArray(report.rows)) throw new Error('"rows" is not an array');
  return {
    kind: 'seeds',
    id: 'seeds',
    title: 'Seed claims (bench:seeds)',
    headlines: seedsHeadlines(report),
    markdown: () => renderSeedsMarkdown(report),
    html: () => renderSeedsHtml(report),
    console: () => renderSeedsConsole(report),
  };
}
