/**
 * The --sweep section of report.md and report.html ("Where offloading starts to pay"): the
 * crossover sentences and the hop's cost per runtime, then the table of every value. Handed to
 * the renderers as a feature's section (model/section.ts), from report.sweep.
 */
import { markdownTable } from 'markdown-table';
import type { Report } from '../model/report.ts';
import type { SweepRuntime, SweepSummary } from '../model/sweep.ts';
import { escapeHtml } from '../present/html-escape.ts';
import type { Headline, ReportFeatures, ReportSection } from '../model/section.ts';
import { escapeCell } from '../present/formats.ts';
import { crossoverSentences, hopSentence, laneText, measureText, SWEEP_HEAD, sweepLegend, sweepRows } from './text/sweep.ts';

const ID = 'sweep';

const title = (s: SweepSummary): string => `Where offloading starts to pay: ${s.scenario} by ${s.parameter}`;

/** Every sentence of the section, runtime by runtime: the two crossovers, then the hop. */
export function sweepLines(s: SweepSummary): string[] {
  return s.runtimes.flatMap((r) => [...crossoverSentences(s, r), hopSentence(s, r)]);
}

function headline(s: SweepSummary, r: SweepRuntime): Headline {
  const c = r.throughput;
  const at = c.kind === 'from' ? r.points.find((p) => p.value === c.value) : undefined;
  const figure = c.kind === 'from' ? `${s.parameter}=${c.value ?? ''}` : c.kind === 'every' ? 'every size' : 'none';
  return {
    question: `From which ${s.parameter} does a worker pay for ${s.scenario} on ${laneText(r)}?`,
    answer: crossoverSentences(s, r)[0] ?? '',
    figure,
    ...(at === undefined ? {} : { confidence: measureText(at.throughput) }),
    anchor: ID,
  };
}

function markdown(s: SweepSummary): string {
  const rows = sweepRows(s).map((row) => row.map(escapeCell));
  return [
    `## ${title(s)}`,
    sweepLines(s)
      .map((line) => `- ${line}`)
      .join('\n'),
    markdownTable([SWEEP_HEAD, ...rows], { align: ['l', 'l', 'r', 'r', 'r'] }),
    sweepLegend(s).join(' '),
  ].join('\n\n');
}

function html(s: SweepSummary): string {
  const lines = sweepLines(s)
    .map((line) => `<li>${escapeHtml(line)}</li>`)
    .join('');
  const head = SWEEP_HEAD.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = sweepRows(s)
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return `<section id="${ID}"><h2>${escapeHtml(title(s))}</h2><ul>${lines}</ul><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table><p>${escapeHtml(sweepLegend(s).join(' '))}</p></section>`;
}

export function sweepSection(report: Pick<Report, 'sweep'>): ReportSection | undefined {
  const s = report.sweep;
  if (s === undefined) return undefined;
  return {
    kind: 'bench',
    id: ID,
    title: title(s),
    headlines: s.runtimes.map((r) => headline(s, r)),
    markdown: () => markdown(s),
    html: () => html(s),
    console: () => sweepLines(s).join('\n'),
  };
}

/** For the entry points: the sweep's section after the summary, when the report has one. */
export const sweepFeatures: ReportFeatures = {
  sections(report) {
    const section = sweepSection(report);
    return section === undefined ? [] : [section];
  },
};
