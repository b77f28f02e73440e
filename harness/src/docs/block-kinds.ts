/**
 * What each kind of result block renders to, from the report its `source` names. Every figure
 * comes from that committed report through the project's own renderers (report/render, seeds,
 * browser); nothing here measures. Kinds:
 *   run-line       one line: when, where and on what the run was measured
 *   bench-summary  the headline: per heavy scenario and runtime, what async and the worker pool buy
 *   bench-report   sections of the bench's report.md (`sections=hash,sleep,processes`, `depth=3`)
 *   seeds          the claims table of a bench:seeds run
 *   browser        the browser study's tables (`depth=3`)
 *   curve          a bench:curve run's capacity table and sentences (`depth=3`)
 *   pair           two runs of one commit as bench:compare --json judged them (source is that JSON)
 *   findings       what people quote: which off-loop modes stayed on the loop, where a worker pays
 *   headline       a README's opening: per scenario and off-loop mode, its verdict over sync on each runtime, a
 *                  picture of them (`picture=<svg path>`) and "In words" from the same verdicts
 *   answers        a picture per question with its sentences (SVG files under `pictures=<folder>`)
 *   ab-pairs       every bench:ab pair under a folder (source=<folder>/: each <name>/report.json), flags counted;
 *                  a pair is A/A when its sides ran the same thing or its folder's name says -aa
 *   ab-promise     the gate's promise over self-test sets (source=<folder>/ sets=<set>,<set>: each set a folder
 *                  of pairs as ab-pairs reads it): per set and cell, A/B and A/A pair-cells flagged; the totals
 *   ab-seen        one bench:ab run cell by cell: what each pair could see, its verdict, what the run cost
 *   instructions-beside  a --measure wall,instructions run: each cell's instructions and CPU time a request side by side,
 *                  their ratio's spread over the cells and the cells far from it
 *   instructions   instructions per request over server processes (source=<folder>/: each <runtime>-<module>-<nn>/report.json
 *                  an instruction count): the A/A spread per runtime, A/A pairs and an injected change as bench:ab judges them
 *   instruction-pairs  fresh bench:ab --measure instructions runs (source=<folder>/: each <runtime>-aa|inj|aacs-<nn>/report.json):
 *                  A/A runs quiet, +1 % runs flagged, time per plan; cycles estimated by cache simulation; JIT code named
 * A marker with `optional=yes` whose source is not committed yet says how to make it, instead of
 * failing: a page can be written before its sample is taken.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { markdownTable } from 'markdown-table';
import { renderBrowserMarkdown } from '../browser/render-md.ts';
import type { CurveReport } from '../curve/curve-types.ts';
import { renderCurveMarkdown } from '../curve/render-text.ts';
import type { BrowserSection } from '../browser/study.ts';
import { formatDate, formatMs, formatRps } from '../present/formats.ts';
import { renderMarkdown } from '../report/render/markdown.ts';
import { runtimeLabel } from '../report/text/labels.ts';
import { hostHealth } from '../report/text/host-health.ts';
import { runsText } from '../present/precision.ts';
import { differentWork } from '../report/different-work.ts';
import { coreCountBlock } from './core-count-block.ts';
import { sampleConditions } from './sample-conditions.ts';
import { cellsDoubt } from '../present/ratio-verdict.ts';
import { plainLegend, type VerdictKind, verdictWords } from '../present/verdict-words.ts';
import type { CellResult } from '../model/cell.ts';
import type { Ratios } from '../model/comparison.ts';
import type { Environment } from '../model/environment.ts';
import type { Mode } from '../model/names.ts';
import type { Report } from '../model/report.ts';
import { renderSeedsMarkdown, type SeedsReport } from '../seeds/render.ts';
import { versionFeatures } from '../versions/versions-section.ts';
import { combineFeatures } from '../model/section.ts';
import { sweepFeatures } from '../report/sweep-section.ts';
import { isComparison, renderPair } from './pair-block.ts';
import { headlineBlock } from './headline-block.ts';
import { abPairsBlock, abPromiseBlock, abSeenBlock, type AbSet } from './ab-blocks.ts';
import { abFeatures } from '../ab/ab-section.ts';
import { AnswerBlockError, answersBlock, findingsBlock, type Rendered } from './answer-blocks.ts';
import type { ResultBlock } from './result-blocks.ts';
import { instructionsBlock } from './instructions-block.ts';
import { instructionsMarkdown } from '../measure/instruction-section.ts';
import { instructionPairsBlock } from './instruction-pairs-block.ts';

export class BlockError extends Error {}

/** `page`: the Markdown file the block is in, repository-relative (for links to files drawn with it). */
type Renderer = (report: unknown, params: Record<string, string>, page: string) => string | Rendered;

/** "#" -> "###" for depth 3: a report's own headings sit below the page's. */
function demote(markdown: string, depth: number): string {
  return markdown.replace(/^(#{1,6}) /gm, (_m, hashes: string) => `${'#'.repeat(Math.min(6, hashes.length + depth - 1))} `);
}

function depthOf(params: Record<string, string>, fallback: number): number {
  const depth = Number(params.depth ?? fallback);
  if (!Number.isInteger(depth) || depth < 1 || depth > 6) throw new BlockError(`depth=${params.depth} is not 1 to 6`);
  return depth;
}

/** "2026-11-23 16:40 UTC, AMD EPYC x 2, 23.5 GiB, Debian 12, commit abc1234; node 24.21.0, ..." */
function runLine(
  createdAt: string,
  env: Environment,
  runtimes: readonly { name: string; label?: string; version?: string; status: string }[],
  parameters?: Parameters<typeof sampleConditions>[1],
): string {
  const machine = `${env.cpu.model} × ${env.cpu.count}, ${(env.memoryBytes / 2 ** 30).toFixed(1)} GiB, ${env.os}`;
  const lanes = runtimes.map((r) => `${r.label ?? r.name} ${r.status === 'ok' ? (r.version ?? '') : r.status}`.trim()).join(', ');
  // What fresh memory cost here: /file/* cells move with it from one VM boot to the next.
  const touch =
    env.memoryFirstTouch === undefined ? '' : ` Fresh memory cost ${env.memoryFirstTouch.usPerPage} µs a 4 KB page on first touch.`;
  return `Measured ${formatDate(createdAt)} on ${machine}; commit ${env.commit.slice(0, 7)}${env.dirty ? ' (uncommitted changes)' : ''}${lanes === '' ? '' : `; ${lanes}`}.${sampleConditions(runtimes, parameters)}${touch}`;
}

/**
 * What many runs ran on, in one line: "126 runs from 2026-11-27 16:35 to 2026-11-29 03:40 UTC on
 * AMD EPYC × 2; node 26.12.1, bun 1.4.5, deno 2.9.6." Every distinct machine and version is named.
 */
function setsLine(reports: readonly Report[]): string {
  const times = reports.map((r) => r.createdAt).sort();
  // A report that does not say where it ran adds no machine, rather than an unknown one.
  const machines = [
    ...new Set(reports.flatMap((r) => (r.environment === undefined ? [] : [`${r.environment.cpu.model} × ${r.environment.cpu.count}`]))),
  ];
  const lanes = reports.flatMap((r) => r.runtimes ?? []);
  const versions = [...new Set(lanes.filter((l) => l.status === 'ok').map((l) => `${l.name} ${l.version ?? ''}`.trim()))];
  const span = times.length === 0 ? '' : ` from ${formatDate(times[0] ?? '')} to ${formatDate(times.at(-1) ?? '')}`;
  const where = machines.length === 0 ? '' : ` on ${machines.join(', ')}`;
  return `${reports.length} runs${span}${where}${versions.length === 0 ? '' : `; ${versions.join(', ')}`}.${sampleConditions(lanes, undefined)}`;
}

/** What `docs:results --take --note` recorded beside a sample (the machine's load, say). */
const sampleNote = (report: unknown) => {
  const note = (report as { docsSample?: { note?: string } }).docsSample?.note;
  return note === undefined ? '' : ` ${note}`;
};

function benchRunLine(report: Report): string {
  const wall = report.timing === undefined ? '' : ` Wall time ${Math.round(report.timing.wallSec)} s.`;
  // Whether the host held and which cells shared it: the report's own health statement, briefly.
  const health = hostHealth(report.environment, report.results, true);
  return `${runLine(report.createdAt, report.environment, report.runtimes, report.parameters)}${wall}${health === undefined ? '' : ` ${health.text}`}${sampleNote(report)}`;
}

const cellFor = (cells: readonly CellResult[], lane: string, scenario: string, mode: Mode) =>
  cells.find((c) => runtimeLabel(c) === lane && c.scenario === scenario && c.mode === mode);

/** "31.0 ± 1.2", or the median alone with a mark when the cell cannot carry a figure. */
function rps(cell: CellResult | undefined): string {
  if (cell === undefined) return '';
  if (cell.status !== 'ok') return `✗ ${cell.status}`;
  const [low, high] = cell.requestsPerSec.ci95;
  const { median, intervalNote } = cell.requestsPerSec;
  const spread = intervalNote !== undefined || high <= low ? '' : ` ± ${formatRps((high - low) / 2, median)}`;
  return `${formatRps(median)}${spread}${cell.flags.length === 0 ? '' : ' ⚠'}`;
}

const probe = (cell: CellResult | undefined) => (cell === undefined || cell.status !== 'ok' ? '—' : formatMs(cell.probeLatencyMs.p99));

/**
 * The front page's answer, one row per heavy scenario and runtime: requests/s of sync, async and
 * worker with their 95 % intervals and the ratio to sync, and what one more caller waits (probe p99).
 */
function benchSummary(report: Report): string {
  const cells = report.results;
  const scenarios = [...new Set(cells.filter((c) => c.mode === 'sync').map((c) => c.scenario))];
  const rows: string[][] = [];
  const used = new Set<VerdictKind>();
  for (const scenario of scenarios) {
    for (const lane of [...new Set(cells.filter((c) => c.scenario === scenario).map(runtimeLabel))]) {
      const sync = cellFor(cells, lane, scenario, 'sync');
      const async = cellFor(cells, lane, scenario, 'async');
      const worker = cellFor(cells, lane, scenario, 'worker');
      const comparison = report.comparisons.find((c) => runtimeLabel(c) === lane && c.scenario === scenario && c.connections === undefined);
      // The ratio measured paired (runs alternating, so drift cancels) with its interval where the
      // report has it, read by present/ratio-verdict.ts.
      const ratioText = (r: Ratios | undefined, over: CellResult | undefined) => {
        if (over !== undefined && differentWork(report, scenario, over.mode) !== undefined) return ' (not compared: other work per answer)';
        const ratio = r?.pairedThroughput ?? r?.throughput;
        if (ratio === null || ratio === undefined) return '';
        const ci = r?.throughputCi95;
        const words = verdictWords({ ratio, ci, doubt: cellsDoubt([over, sync]) });
        used.add(words.kind);
        return ` (${words.text})`;
      };
      const withRatio = (cell: CellResult | undefined, r: Ratios | undefined) =>
        cell === undefined ? '—' : `${rps(cell)}${ratioText(r, cell)}`;
      rows.push([
        scenario,
        lane,
        sync === undefined ? '—' : rps(sync),
        withRatio(async, comparison?.asyncOverSync),
        withRatio(worker, comparison?.workerOverSync),
        [sync, async, worker]
          .filter((c) => c !== undefined)
          .map(probe)
          .join(' → '),
      ]);
    }
  }
  const table = markdownTable(
    [
      [
        'scenario',
        'runtime',
        'sync req/s',
        'async req/s (paired ratio over sync)',
        'worker req/s (paired ratio over sync)',
        'probe p99 ms: sync → async → worker',
      ],
      ...rows,
    ],
    {
      align: ['l', 'l', 'r', 'r', 'r', 'r'],
    },
  );
  const p = report.parameters;
  const runs = runsText(p, report.results);
  const ratios = report.comparisons.some((c) => c.asyncOverSync?.throughputCi95 !== undefined)
    ? " Paired ratio: the geometric mean of the per-round ratios of runs taken alternating (sync, async, async, sync, …), with its 95 % interval; it is not the quotient of the two medians beside it, which carry the host's drift between rounds."
    : '';
  const verdicts = used.size === 0 ? '' : ` The verdicts: ${plainLegend(used).join('; ')}.`;
  const how = `Medians of ${runs} of ${p.durationSec} s at ${p.connections} connections, ± the half-width of the 95 % interval; ⚠ marks a flagged cell (unstable, client-bound, shared host, …: see the full report).${ratios}${verdicts} Probe p99: what one more caller waits while the load runs.`;
  return [benchRunLine(report), '', table, '', how].join('\n');
}

/** "Versions compared" -> "versions-compared": how a marker names a report section. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/\s+/g, '-');

/** The report's own Markdown, cut to the named `## ` sections (`sections=hash,versions-compared`; all when none named). */
function benchReport(report: Report, params: Record<string, string>): string {
  const depth = depthOf(params, 3);
  // A report with several versions of a runtime, or a --sweep, carries that section as well, as bench-cli renders it.
  const sections = renderMarkdown(report, combineFeatures(abFeatures, versionFeatures, sweepFeatures).sections?.(report) ?? [])
    .split(/^(?=## )/m)
    .slice(1);
  const name = (section: string) => slug(section.slice(3, section.indexOf('\n')));
  const wanted = params.sections?.split(',');
  const missing = (wanted ?? []).filter((w) => !sections.some((s) => name(s) === w));
  if (missing.length > 0) throw new BlockError(`sections=${missing.join(',')}: the report has ${sections.map(name).join(', ')}`);
  // In the order the marker names them, so a page can lead with the section it is about.
  const kept = wanted === undefined ? sections : wanted.map((w) => sections.find((s) => name(s) === w) ?? '');
  return [benchRunLine(report), '', demote(kept.map((s) => s.trim()).join('\n\n'), depth - 1)].join('\n');
}

function seeds(report: unknown): string {
  // The renderer's own title and header lines stay: they name the run (date, machine, commit).
  const r = report as SeedsReport;
  // The renderer's header names the machine and the date; the servers' versions go beside it.
  const lanes = r.runtimes.map((l) => `${l.name} ${l.status === 'ok' ? (l.version ?? '') : l.status}`.trim()).join(', ');
  const note = `${lanes === '' ? '' : ` Servers: ${lanes}.`}${sampleConditions(r.runtimes, r.parameters)}${sampleNote(report)}`;
  return `${renderSeedsMarkdown(r).replace(/^# Claims checked\n\n/, '')}${note === '' ? '' : `\n${note.trim()}`}`;
}

function browser(report: unknown, params: Record<string, string>): string {
  const r = report as { createdAt: string; environment: Environment; browser: BrowserSection };
  const line = `${runLine(
    r.createdAt,
    r.environment,
    r.browser.browsers.map((b) => ({ name: b.name, version: b.version, status: b.status })),
  )}${sampleNote(r)}`;
  return [line, '', demote(renderBrowserMarkdown(r.browser).replace(/^## [^\n]*\n\n/, ''), depthOf(params, 3) - 2)].join('\n');
}

/** The capacity table and sentences of a curve run (its "## Capacity at ..." section). */
function curve(report: unknown, params: Record<string, string>): string {
  const r = report as CurveReport;
  const capacity = renderCurveMarkdown(r)
    .split(/^(?=## )/m)
    .find((section) => section.startsWith('## Capacity at'));
  if (capacity === undefined) throw new BlockError('the curve report has no "## Capacity at" section');
  const wall = r.elapsedSec === undefined ? '' : ` Wall time ${Math.round(r.elapsedSec)} s.`;
  return [
    `${runLine(r.createdAt, r.environment, r.runtimes, r.parameters)}${wall}${sampleNote(r)}`,
    '',
    demote(capacity.trim(), depthOf(params, 3) - 1),
  ].join('\n');
}

const KINDS: Record<string, Renderer> = {
  'run-line': (report) => {
    const r = report as Report;
    return Array.isArray(r.results)
      ? benchRunLine(r)
      : `${runLine(r.createdAt, r.environment, r.runtimes ?? [], r.parameters)}${sampleNote(r)}`;
  },
  'bench-summary': (report) => benchSummary(report as Report),
  'bench-report': (report, params) => benchReport(report as Report, params),
  seeds,
  browser,
  curve,
  pair: (comparison) => {
    if (!isComparison(comparison)) throw new BlockError('the source is not the JSON of bench:compare --json');
    return renderPair(comparison);
  },
  'ab-pairs': (pairs) => abPairsBlock(pairs as AbSet['pairs']),
  'ab-promise': (sets, params) => {
    if (params.sets === undefined) throw new BlockError('ab-promise needs sets=<folder>,<folder> under a source folder');
    const read = sets as AbSet[];
    const empty = read.find((s) => s.pairs.length === 0);
    if (empty !== undefined) throw new BlockError(`sets: ${empty.set} holds no <pair>/report.json`);
    return `${setsLine(read.flatMap((s) => s.pairs.map((p) => p.report as Report)))}\n\n${abPromiseBlock(read)}`;
  },
  'ab-seen': (source) => {
    const report = source as Report;
    if (report.parameters.ab === undefined || report.ab === undefined) throw new BlockError('the source is not a bench:ab report');
    return `${runLine(report.createdAt, report.environment, report.runtimes, report.parameters)}\n\n${abSeenBlock(report, report.parameters.ab, report.ab)}`;
  },
  findings: (report, params) => findingsBlock(report as Report, depthOf(params, 3), benchRunLine(report as Report)),
  headline: (report, params, page) => headlineBlock(report as Report, params.picture, page),
  instructions: (report) => instructionsBlock(report as Parameters<typeof instructionsBlock>[0]),
  'instructions-beside': (report) => {
    const body = instructionsMarkdown(report as Report, '');
    if (body === undefined) throw new BlockError('the source has no instruction counts (a --measure wall,instructions run)');
    return `${benchRunLine(report as Report)}\n\n${body}`;
  },
  'instruction-pairs': (reports) => instructionPairsBlock(reports as Parameters<typeof instructionPairsBlock>[0]),
  answers: (report, params, page) => {
    try {
      return answersBlock(report as Report, depthOf(params, 3), benchRunLine(report as Report), params.pictures, page);
    } catch (error) {
      if (error instanceof AnswerBlockError) throw new BlockError(error.message);
      throw error;
    }
  },
};

export const BLOCK_KINDS = [...Object.keys(KINDS), 'core-count'];

/** The body a block should hold, from its committed report; `root` is the repository. */
export function renderBlock(block: Pick<ResultBlock, 'kind' | 'params'>, root: string, page = 'README.md'): string {
  return renderBlockFiles(block, root, page).body;
}

/** The body and the files drawn with it (pictures), from its committed report. */
export function renderBlockFiles(block: Pick<ResultBlock, 'kind' | 'params'>, root: string, page: string): Rendered {
  const render = KINDS[block.kind];
  if (render === undefined && block.kind !== 'core-count')
    throw new BlockError(`unknown kind "${block.kind}" (known: ${BLOCK_KINDS.join(', ')})`);
  const source = block.params.source;
  if (source === undefined) throw new BlockError('no source=<report.json> in the marker');
  if (block.params.optional === 'yes' && !existsSync(resolve(root, source))) {
    const dir = source.replace(/\/report\.json$/, '');
    return {
      body: `No sample committed yet at \`${source}\`: measure, then \`pnpm docs:results --take <its report.json> ${dir}\` fills this block.`,
      files: {},
    };
  }
  let report: unknown;
  const read = (path: string): unknown => JSON.parse(readFileSync(resolve(root, path), 'utf8'));
  // A folder: every report.json one level below it, in name order.
  const folder = (dir: string) =>
    readdirSync(resolve(root, dir))
      .sort()
      .filter((d) => existsSync(resolve(root, dir, d, 'report.json')))
      .map((d) => ({ folder: d, report: read(`${dir}${d}/report.json`) }));
  try {
    // `sets=a,b`: folders of folders, each set read as a folder above.
    const sets = block.params.sets?.split(',');
    report = !source.endsWith('/')
      ? read(source)
      : sets === undefined
        ? folder(source)
        : sets.map((set) => ({ set, pairs: folder(`${source}${set}/`) }));
  } catch (error) {
    throw new BlockError(`source=${source}: ${(error as Error).message.split('\n')[0]}`);
  }
  // Two reports of one plan at two core counts: the second is `other=`.
  if (block.kind === 'core-count') {
    const other = block.params.other;
    if (other === undefined) throw new BlockError('core-count needs other=<report.json> (the run at the other core count)');
    let second: unknown;
    try {
      second = JSON.parse(readFileSync(resolve(root, other), 'utf8'));
    } catch (error) {
      throw new BlockError(`other=${other}: ${(error as Error).message.split('\n')[0]}`);
    }
    return { body: coreCountBlock(report as Report, second as Report, benchRunLine), files: {} };
  }
  if (render === undefined) throw new BlockError(`unknown kind "${block.kind}"`);
  const rendered = render(report, block.params, page);
  return typeof rendered === 'string' ? { body: rendered, files: {} } : rendered;
}
