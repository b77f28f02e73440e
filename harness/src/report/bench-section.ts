/**
 * A bench report (bench:all, bench:node, ...) as the report model's section: its own renderers
 * (render/markdown.ts, render/html.ts) with the features' sections handed in, and the headline
 * questions it answers: what blocking costs and what async, a worker pool or more processes buy
 * back, per runtime and scenario.
 */
import { benchAnswers } from './answers.ts';
import { pairedRatioInterval, ratioConfidence } from '../present/headline.ts';
import { differentWork } from './different-work.ts';
import { cellsDoubt } from '../present/ratio-verdict.ts';
import { bystanderWords, verdictWords } from '../present/verdict-words.ts';
import { cellOf } from '../model/cell-lookups.ts';
import { formatRatio } from '../present/formats.ts';
import type { ChartAssets } from '../present/html-assets.ts';
import { renderConsoleSummary } from './render/console.ts';
import { renderHtml } from './render/html.ts';
import { renderMarkdown } from './render/markdown.ts';
import type { CellResult } from '../model/cell.ts';
import type { Comparison, ProcessComparison, ProcessRatios, Ratios } from '../model/comparison.ts';
import type { Report } from '../model/report.ts';
import type { Headline, ReportSection } from '../model/section.ts';
import type { SiteSection } from './site-model.ts';

function where(c: Pick<Comparison, 'runtime' | 'runtimeLabel' | 'scenario' | 'connections' | 'processes' | 'query'>): string {
  const extra = [
    c.connections === undefined ? '' : `${c.connections} connections`,
    c.processes === undefined ? '' : `${c.processes} process${c.processes === 1 ? '' : 'es'}`,
    c.query ?? '',
  ].filter((x) => x !== '');
  return `${c.runtimeLabel ?? c.runtime}, ${c.scenario}${extra.length === 0 ? '' : ` (${extra.join(', ')})`}`;
}

/** "async over sync": requests/s ratio with its interval, and what a bystander request (the probe) saw. */
function ratioHeadline(report: Report, c: Comparison, over: 'async' | 'worker', ratios: Ratios): Headline | undefined {
  if (ratios.throughput === null) return undefined;
  const a = cellOf(report, c, over);
  const b = cellOf(report, c, 'sync');
  // A figure from a cell that cannot carry it (invalid, failed) is never a finding.
  if (a === undefined || b === undefined) return undefined;
  // Not the same work per answer: its requests/s are not a finding (report/different-work.ts).
  if (differentWork(report, c.scenario, over) !== undefined) return undefined;
  // The interval of the runs paired by round (measured alternating, so machine drift cancels)
  // where the report has it; older reports: the runs taken in order.
  const ci = ratios.throughputCi95 ?? pairedRatioInterval(a.requestsPerSec.runs, b.requestsPerSec.runs);
  const what = over === 'async' ? 'async' : 'a worker pool';
  const figure = formatRatio(ratios.pairedThroughput ?? ratios.throughput);
  const probe = ratios.probeP99 === null ? '' : `; a bystander ${bystanderWords(ratios.probeP99)}`;
  const doubt = cellsDoubt([a, b]);
  const words = verdictWords({ ratio: ratios.pairedThroughput ?? ratios.throughput, ci, doubt });
  const answer = `${what} vs sync, requests/s: ${words.text}${words.kind === 'no-data' ? '' : probe}`;
  // Flagged cells still count, but the line says so, as the report's own summary does.
  const flagged = [a, b].flatMap((cell) => cell.flags.filter((f) => f !== 'shared-host').map((f) => `${cell.mode} ${f}`));
  return {
    question: `${where(c)}: what does ${what} buy back over blocking sync?`,
    answer: flagged.length === 0 ? answer : `${answer} (read with care: ${flagged.join(', ')})`,
    figure,
    confidence: ci === undefined ? tooFew(a, b) : ratioConfidence(ci, doubt),
    anchor: `scenario-${c.scenario}`,
  };
}

/** Why a ratio has no interval: the cells' own note, or their run counts. */
function tooFew(a: CellResult, b: CellResult): string {
  const runs = Math.min(a.requestsPerSec.runs.length, b.requestsPerSec.runs.length);
  return `no interval: ${runs} run${runs === 1 ? '' : 's'} a side (3 or more needed)`;
}

const PROCESS_RATIOS: Array<[keyof Omit<ProcessComparison, 'runtime' | 'scenario' | 'processes'>, string]> = [
  ['syncNOverSync1', 'sync on N processes over sync on 1'],
  ['asyncNOverAsync1', 'async on N processes over async on 1'],
];

function processHeadlines(p: ProcessComparison): Headline[] {
  return PROCESS_RATIOS.flatMap(([key, label]) => {
    const r: ProcessRatios | undefined = p[key];
    if (r === undefined || r.throughput === null) return [];
    const figure = formatRatio(r.throughput);
    return [
      {
        question: `${p.runtime}, ${p.scenario}: what do ${p.processes} processes buy (${label.replace(/N/g, String(p.processes))})?`,
        answer: `${figure} the requests/s${r.rss === null ? '' : `, for ${formatRatio(r.rss)} the memory`}`,
        figure,
        anchor: 'processes',
      },
    ];
  });
}

export function benchHeadlines(report: Report): Headline[] {
  const fromModes = report.comparisons
    // Every scenario with a sync mode to compare against (hello has none: baseline and raw).
    .filter((c) => cellOf(report, c, 'sync') !== undefined)
    .flatMap((c) => [
      ...(c.asyncOverSync === undefined ? [] : [ratioHeadline(report, c, 'async', c.asyncOverSync)]),
      ...(c.workerOverSync === undefined ? [] : [ratioHeadline(report, c, 'worker', c.workerOverSync)]),
    ])
    .filter((h): h is Headline => h !== undefined);
  return [...fromModes, ...(report.processComparisons ?? []).flatMap(processHeadlines)];
}

/** The whole bench report as one section; `extra` are the features' sections (versions compared). */
export function benchSection(report: Report, assets: () => ChartAssets, extra: readonly ReportSection[] = []): SiteSection {
  return {
    kind: 'bench',
    id: 'bench',
    title: 'Sync vs async (bench)',
    headlines: benchHeadlines(report),
    answers: () => benchAnswers(report),
    markdown: () => renderMarkdown(report, extra),
    html: () => renderHtml(report, assets(), extra),
    console: () => renderConsoleSummary(report),
  };
}
