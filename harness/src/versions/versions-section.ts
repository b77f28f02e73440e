/**
 * What the versions feature hands the report model: the comparison derived from a merged bench
 * report with several installations of a runtime, and its section (table and headlines).
 */
import { formatChange, formatP } from '../compare/render-compare.ts';
import type { Report } from '../model/report.ts';
import type { Headline, ReportFeatures, ReportSection } from '../model/section.ts';
import type { VersionChange } from '../model/change.ts';
import { compareInstallations } from './version-changes.ts';
import { versionsHtml, versionsMarkdown } from './render-versions.ts';

function headline(c: VersionChange): Headline | undefined {
  const m = c.throughput;
  if (m === undefined || m.ratio === null) return undefined;
  const p = m.test?.p;
  const same = c.verdict === 'unchanged' || c.verdict === 'not-testable';
  const figure = `${m.ratio.toFixed(2)}x`;
  return {
    question: `Does ${c.current.label} (${c.current.version}) differ from ${c.baseline.label} (${c.baseline.version}) on ${c.scenario} ${c.mode}?`,
    answer:
      c.verdict === 'not-testable'
        ? `could not tell: fewer than 2 runs a side (${figure}, ${formatChange(m.change)})`
        : same
          ? `no change in requests/s (${figure}, ${formatChange(m.change)})`
          : `${c.verdict === 'improved' ? 'faster' : 'slower'}: ${figure} the requests/s (${formatChange(m.change)})`,
    figure,
    ...(p === undefined ? { confidence: 'not testable (fewer than 2 runs a side)' } : { confidence: `Welch p = ${formatP(p)}` }),
    anchor: 'versions',
  };
}

export function versionsSection(report: Report): ReportSection | undefined {
  const v = report.versions;
  const markdown = versionsMarkdown(report);
  if (v === undefined || markdown === undefined) return undefined;
  return {
    kind: 'versions',
    id: 'versions',
    title: 'Versions compared',
    headlines: v.changes.flatMap((c) => headline(c) ?? []),
    markdown: () => markdown,
    html: () => versionsHtml(report),
  };
}

/** For bench-cli and report-cli: compare named versions, and render the comparison. */
export const versionFeatures: ReportFeatures = {
  derive(report) {
    const versions = compareInstallations(report.results, report.runtimes, report.parameters.versionBaseline);
    return versions === undefined ? {} : { versions };
  },
  sections(report) {
    const section = versionsSection(report);
    return section === undefined ? [] : [section];
  },
};
