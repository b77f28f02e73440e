/**
 * The sentences the renderers share: the comparison sentences under a scenario
 * ("node: async handles 2.41x the requests/s of sync ...") and the overload sentence. Pure text,
 * shared by the Markdown, HTML and console reports.
 */
import { percent } from '../flags.ts';
import { comparedCell } from '../../model/cell-lookups.ts';
import { profileEvidence } from './profile.ts';
import type { CellResult } from '../../model/cell.ts';
import type { Comparison, Ratios } from '../../model/comparison.ts';
import type { Report } from '../../model/report.ts';
import { measuredLagP99 } from '../loop-verdict.ts';
import { reconciledLag } from './findings.ts';
import { formatMs, formatRatio, formatRps } from '../../present/formats.ts';
import { runtimeLabel } from './labels.ts';
import { pairedRatioText } from '../../present/precision.ts';
import { costsText, modeCosts } from '../cpu-costs.ts';
import { differentWork, notComparedText } from '../different-work.ts';
import { cellsDoubt } from '../../present/ratio-verdict.ts';
import { bystanderWords, verdictWords } from '../../present/verdict-words.ts';

/** The tails beside the requests/s verdict: the load's p99 and what a bystander waits. */
function ratioDetails(ratios: Ratios): string {
  const probe = ratios.probeP99 === null ? '' : `, a bystander ${bystanderWords(ratios.probeP99)}`;
  return `(p99 ${formatRatio(ratios.p99)}${probe})`;
}

/** Cells a ratio was computed from that are not clean, so the sentence is not over-trusted. */
function caveat(cells: readonly (CellResult | undefined)[], paired = false): string {
  const notes = cells.flatMap((cell) => {
    if (cell === undefined) return [];
    if (cell.status !== 'ok') return [`${cell.mode} ${cell.status}`];
    // A paired interval already says how sure the ratio is: "unstable" adds nothing to it.
    return cell.flags.filter((flag) => !(paired && flag === 'unstable')).map((flag) => `${cell.mode} ${flag}`);
  });
  return notes.length === 0 ? '' : `, read with care: ${notes.join(', ')}`;
}

/** Why a throughput ratio could not be computed, side by side: "the async server failed, sync gave invalid answers". */
function whyNotComparable(sides: readonly [string, CellResult | undefined][]): string {
  const problems = sides.flatMap(([name, cell]) => {
    if (cell === undefined) return [];
    if (cell.status !== 'ok') return [cellsDoubt([cell]) ?? `${name} ${cell.status}`];
    return cell.requestsPerSec.median === 0 ? [`${name} measured 0 req/s`] : [];
  });
  return problems.join(', ');
}

function ratioSentence(
  runtime: string,
  [over, overCell]: [string, CellResult | undefined],
  [base, baseCell]: [string, CellResult | undefined],
  ratios: Ratios,
): string | undefined {
  if (ratios.throughput === null) {
    // A mode the module does not have is not a finding: nothing is said of it.
    if (overCell === undefined || baseCell === undefined) return undefined;
    return `${runtime}: ${over} vs ${base}, requests/s: could not tell: ${whyNotComparable([
      [over, overCell],
      [base, baseCell],
    ])}`;
  }
  const doubt = cellsDoubt([overCell, baseCell]);
  const paired = pairedRatioText(ratios);
  const words = verdictWords({ ratio: ratios.pairedThroughput ?? ratios.throughput, ci: ratios.throughputCi95, doubt });
  // A ratio the cells cannot carry is not quoted, nor what it would have said of the tails.
  if (words.kind === 'no-data') return `${runtime}: ${over} vs ${base}, requests/s: ${words.text}`;
  const note = caveat([overCell, baseCell], paired !== undefined);
  return `${runtime}: ${over} vs ${base}, requests/s: ${words.text}${paired === undefined ? '' : ` (${paired})`} ${ratioDetails(ratios)}${note}`;
}

/**
 * The sentences under a scenario, e.g.
 * "node: async handles 2.41x the requests/s of sync (p99 0.52x, probe p99 0.05x)".
 */
export function comparisonLines(report: Report, comparison: Comparison): string[] {
  const cell = (mode: CellResult['mode']): CellResult | undefined => comparedCell(report, comparison, mode);
  const runtime = `${runtimeLabel(comparison)}${comparison.connections === undefined ? '' : ` @${comparison.connections} conns`}${comparison.query === undefined ? '' : ` at ${comparison.query}`}`;
  const lines: string[] = [];
  if (comparison.honoOverRaw !== undefined) {
    const line = ratioSentence(runtime, ['Hono', cell('baseline')], ['the raw server', cell('raw')], comparison.honoOverRaw);
    if (line !== undefined) lines.push(line);
  }
  for (const [mode, ratios] of [
    ['async', comparison.asyncOverSync],
    ['worker', comparison.workerOverSync],
  ] as const) {
    if (ratios === undefined) continue;
    const different = differentWork(report, comparison.scenario, mode);
    if (different !== undefined) {
      lines.push(`${runtime}: ${mode} vs sync, ${notComparedText(different)} ${ratioDetails(ratios)}`);
      continue;
    }
    const sentence = ratioSentence(runtime, [mode, cell(mode)], ['sync', cell('sync')], ratios);
    if (sentence === undefined) continue;
    const costs = modeCosts(cell(mode), cell('sync'));
    const clause = costs === undefined ? '' : costsText(costs);
    lines.push(`${sentence}${clause === '' ? '' : `; ${clause}`}`);
  }
  for (const mode of ['async', 'worker'] as const) {
    const line = loopSentence(runtime, cell(mode), cell('sync'));
    if (line !== undefined) lines.push(line);
  }
  const overload = overloadSentence(
    comparison.runtime,
    (['sync', 'async', 'worker'] as const).map(cell),
    comparison.connections ?? report.parameters.connections,
  );
  if (overload !== undefined) lines.push(overload);
  return lines;
}

/**
 * Overload as a result: per mode, the share that timed out, and what was still served, e.g.
 * "node at 1000 connections: sync 96 % of requests timed out after 10 s (served 31 req/s);
 * async none timed out, served 4,700 req/s".
 */
export function overloadSentence(runtime: string, cells: readonly (CellResult | undefined)[], connections: number): string | undefined {
  const measured = cells.filter((c): c is CellResult => c !== undefined && c.status === 'ok');
  if (!measured.some((c) => c.overload !== undefined)) return undefined;
  const parts = measured.map((c) => {
    const served = `${formatRps(c.requestsPerSec.median)} req/s`;
    if (c.overload === undefined) return `${c.mode}: none timed out, served ${served}`;
    return `${c.mode}: ${percent(c.overload.timeoutShare)} of requests timed out after ${c.overload.timeoutSec} s (served ${served})`;
  });
  return `${runtime} at ${connections} connections, ${parts.join('; ')}`;
}

const VERDICT_WORDS = { left: 'left the loop', stayed: 'stayed on the loop', partly: 'partly left the loop' } as const;

/**
 * Whether an off-loop mode left the event loop, in words, with the evidence, e.g.
 * "deno: async stayed on the loop (2 % of an idle loop's timer ticks ran during its calls;
 * loop lag p99 14 ms against sync's 15 ms; probe p99 16 ms against sync's 17 ms)".
 */
export function loopSentence(runtime: string, over: CellResult | undefined, sync: CellResult | undefined): string | undefined {
  const verdict = over?.loop?.verdict;
  if (over === undefined || verdict === undefined) return undefined;
  const evidence: string[] = [];
  const share = over.loop?.ticksShare;
  if (share !== undefined) evidence.push(`${percent(Math.min(1, share))} of an idle loop's timer ticks ran during its calls`);
  const lag = measuredLagP99(over);
  const syncLag = measuredLagP99(sync);
  if (lag !== undefined && syncLag !== undefined) evidence.push(`loop lag p99 ${formatMs(lag)} ms against sync's ${formatMs(syncLag)} ms`);
  if (over.status === 'ok' && sync?.status === 'ok') {
    evidence.push(`probe p99 ${formatMs(over.probeLatencyMs.p99)} ms against sync's ${formatMs(sync.probeLatencyMs.p99)} ms`);
  }
  const reconciled = reconciledLag({
    scenario: over.scenario,
    verdict,
    ...(share === undefined ? {} : { ticksShare: share }),
    ...(lag === undefined || syncLag === undefined ? {} : { lagP99Ms: lag, syncLagP99Ms: syncLag }),
  });
  if (reconciled !== undefined) evidence.push(reconciled);
  const profiled = profileEvidence(over, sync);
  if (profiled !== undefined) evidence.push(profiled);
  return `${runtime}: ${over.mode} ${VERDICT_WORDS[verdict]} (${evidence.join('; ')})`;
}
