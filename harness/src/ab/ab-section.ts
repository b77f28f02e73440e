/**
 * What bench:ab hands the report model: each cell's verdict on B over A (derived from the merged
 * report and the sides recorded in its parameters) and the section that shows them, with what A
 * and B were. Verdict words and the rule are in ab-verdict.ts.
 */
import { basename } from 'node:path';
import { markdownTable } from 'markdown-table';
import { throughputMargin } from '../compare/gate.ts';
import type { AbCell, AbComparison, AbPlan, AbSide, AbVerdict } from '../model/ab.ts';
import type { CellResult } from '../model/cell.ts';
import type { ScenarioName } from '../model/names.ts';
import type { Report } from '../model/report.ts';
import { laneOf } from '../model/cell-lookups.ts';
import { escapeHtml } from '../present/html-escape.ts';
import type { Headline, ReportFeatures, ReportSection } from '../model/section.ts';
import { escapeCell } from '../present/formats.ts';
import { FLAG_SHARE, judgeAb, signedPct as signed } from './ab-verdict.ts';
import { ratiosByProcess } from './process-pairs.ts';
import { ratioText } from '../stats/paired.ts';
import { pooledBetween, processComponents, type ProcessComponents } from '../stats/process-interval.ts';
import { CHANGE_WORDS } from '../present/verdict-words.ts';

const VERDICTS: readonly AbVerdict[] = ['regressed', 'improved', 'unchanged', 'inconclusive'];
const pct = (share: number): string => `${(share * 100).toFixed(1)} %`;

/**
 * Whether a report kept what its A/B verdicts are derived from: every measured cell's runs. A
 * trimmed sample keeps none, and then only the verdicts it stored.
 */
export const keepsRunDetails = (report: Pick<Report, 'results'>): boolean =>
  report.results.every((c) => c.status !== 'ok' || c.runDetails !== undefined);

/** Each A cell against B's cell of the same runtime, scenario, mode and input. */
export function compareAb(results: readonly CellResult[], ab: AbPlan): AbComparison {
  const matched = matchCells(results, ab);
  // The between-process variance of the log ratios, pooled over the cells of one scenario and
  // mode (and query: a size sweep's sizes are other work) measured on two or more process pairs
  // (stats/process-interval.ts): their processes start alike and run the same work, where a file
  // cell's processes can scatter ten times a hash cell's, and pooling the two would narrow the
  // one and widen the other.
  const kind = (c: CellResult): string => `${c.scenario}/${c.mode}?${c.query ?? ''}`;
  const components = new Map<string, ProcessComponents[]>();
  for (const { a, b } of matched) {
    const c = a.status === 'ok' && b?.status === 'ok' ? processComponents({ groups: ratiosByProcess(a, b) }) : undefined;
    if (c !== undefined) components.set(kind(a), [...(components.get(kind(a)) ?? []), c]);
  }
  const cells: AbCell[] = matched.map(({ a, b }) => {
    const mine = components.get(kind(a));
    return {
      runtime: a.runtime,
      scenario: a.scenario,
      mode: a.mode,
      ...(a.query === undefined ? {} : { query: a.query }),
      ...judgeAb(a, b, throughputMargin(a.scenario as ScenarioName, ab.margin), mine === undefined ? undefined : pooledBetween(mine)),
    };
  });
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, cells.filter((c) => c.verdict === v).length])) as Record<AbVerdict, number>;
  return { cells, counts };
}

function matchCells(results: readonly CellResult[], ab: AbPlan): { a: CellResult; b: CellResult | undefined }[] {
  return ab.a.lanes.flatMap((aLane, i) =>
    results
      .filter((r) => laneOf(r) === aLane)
      .map((a) => ({
        a,
        b: results.find(
          (r) =>
            laneOf(r) === ab.b.lanes[i] &&
            r.scenario === a.scenario &&
            r.mode === a.mode &&
            r.query === a.query &&
            r.connections === a.connections &&
            r.processes === a.processes,
        ),
      })),
  );
}

/**
 * One verdict in a line read at a glance: the estimate, its interval and what the pair could
 * see, and for an inconclusive cell why in a few words and what would settle it (its `reason`,
 * in the report under the table, says it in full).
 */
export function verdictLine(c: AbCell): string {
  const estimate =
    c.ratio === undefined || c.ci95 === undefined
      ? ''
      : `, B ${signed(c.ratio)} (${signed(c.ci95[0])} to ${signed(c.ci95[1])})${c.detectable === null ? '' : `, could see ${pct(c.detectable)}`}`;
  return verdictWords(c, estimate);
}

/**
 * The verdict, "within ±x" where unchanged, `estimate`, why where inconclusive, and the flags
 * that bear on it: a table's verdict column shows the estimate in columns of its own.
 */
function verdictWords(c: AbCell, estimate = ''): string {
  const within = c.verdict === 'unchanged' ? ` within ±${pct(c.margin)}` : '';
  const why = c.verdict === 'inconclusive' ? `: ${shortWhy(c)}` : '';
  return `${CHANGE_WORDS[c.verdict]}${within}${estimate}${why}${flagWords(c)}`;
}

/** Why a cell is inconclusive in a few words, and what would settle it: its `reason` in short. */
function shortWhy(c: AbCell): string {
  const margin = `±${pct(c.margin)}`;
  // A cell judged over rounds (no process pairs) is told no count of pairs: more of them, or a quieter host.
  const more =
    c.pairsNeeded !== undefined
      ? `; about ${c.pairsNeeded} pairs of server processes would see ${margin} (it had ${c.processPairs ?? 0})`
      : c.processPairs === undefined
        ? '; more pairs (--budget, --max-runs) or a quieter host'
        : '';
  switch (c.why) {
    case 'wide':
      return `interval wider than ${margin}${more || '; a quieter host'}`;
    case 'off-centre':
      return `interval reaches past ${margin}${more || '; only more pairs than the rule asks (--runs) would say which side'}`;
    case 'adjusted-only':
      return `within ${margin} only once adjusted for the machine's speed; more pairs or a quieter host`;
    case 'client-bound':
      return 'the load generator may have set the pace (client-bound); servers on another machine';
    case 'one-pair':
      return `all kept rounds on one pair of server processes${c.sharedRounds === undefined ? '' : ` (${c.sharedRounds} shared left out)`}: never judged; run without --quick`;
    case 'few-rounds':
      return `${c.pairs} paired rounds, 3 needed`;
    default:
      return c.reason ?? '';
  }
}

/** "; ⚠ client-bound (B), overloaded (A and B)": each flag with the sides it is on. */
function flagWords(c: AbCell): string {
  if (c.flags === undefined) return '';
  const { a, b } = c.flags;
  const notes = [...new Set([...a, ...b])].map((f) => `${f} (${a.includes(f) && b.includes(f) ? 'A and B' : a.includes(f) ? 'A' : 'B'})`);
  return notes.length === 0 ? '' : `; ⚠ ${notes.join(', ')}`;
}

const cellName = (c: AbCell): string => `${c.runtime} ${c.scenario}/${c.mode}${c.query === undefined ? '' : `?${c.query}`}`;

function describeSide(name: string, s: AbSide, report: Report): string {
  const versions = s.lanes
    .map((lane) => report.runtimes.find((r) => (r.label ?? r.name) === lane))
    .flatMap((r) => (r === undefined ? [] : [`${r.name} ${r.version}`]));
  const what =
    s.file !== undefined
      ? `module ${basename(s.file.path)} (sha256 ${s.file.sha256.slice(0, 12)})`
      : s.env !== undefined
        ? `server environment ${Object.entries(s.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : s.runtime !== undefined
          ? `installation ${s.runtime}`
          : s.ref !== undefined
            ? `commit ${s.ref.commit.slice(0, 10)} (${s.ref.name})`
            : s.variant;
  return `${name}: \`${s.variant}\`: ${what}; ${versions.join(', ')}`;
}

function explanation(report: Report, ab: AbPlan): string {
  return (
    `${describeSide('A', ab.a, report)}.  \n${describeSide('B', ab.b, report)}.  \n${scopeLine(ab, report)}` +
    `A and B ran as lanes alternating round by round (A B, then B A), each cell judged on B's requests/s over A's, paired ` +
    `round by round, with its 95 % interval: ${intervalUnits(report)} Rounds in which another process used the CPU beside either side are left out. regressed / improved: the interval excludes 1 and the change is at least ` +
    `${Math.round(FLAG_SHARE * 100)} % of the margin (±${pct(ab.margin)}, hello ±${pct(throughputMargin('hello', ab.margin))}); no change: the whole interval within ` +
    `the margin; could not tell: anything else (an interval wider than the margin or reaching past it, too few paired rounds, a cell that failed on either side). ` +
    `"could see" is the smallest change the pair could have flagged: a change read at that size or more would have been (a true change of that size is read above it about half the time; one of the margin 9 times in 10 once a cell's interval is half the margin wide).${speedWords(report)}`
  );
}

/** Which scenarios bench:ab chose for two commits, and from what (ab/ref-scope.ts). */
function scopeLine(ab: AbPlan, report: Report): string {
  if (ab.scopedBy === undefined) return '';
  const scenarios = [...new Set(report.results.map((c) => c.scenario))];
  return `The commits differ, for the servers, only in ${ab.scopedBy.map((f) => `\`${f}\``).join(', ')}: measured ${scenarios.join(', ')} alone, the cells the difference can reach (\`--scenarios\` names others).  \n`;
}

/** What the adjustment for the machine's speed is, where any cell was adjusted (overProcessPairs). */
function speedWords(report: Report): string {
  const adjusted = report.ab?.cells.filter((c) => c.speedAdjusted !== undefined).length ?? 0;
  if (adjusted === 0) return '';
  const cells = adjusted === report.ab?.cells.length ? 'Every cell' : `${adjusted} of ${report.ab?.cells.length ?? 0} cells`;
  return (
    ` ${cells}: B/A and its interval are adjusted for the machine's speed, timed beside every run (the pairs' B/A read against the speed during B's runs over during A's, ` +
    `at the speed ratio of 1: A and B alternate, so neither side runs on the faster machine by design); report.json keeps each cell's unadjusted ratio and interval.`
  );
}

/** What the interval is over: the pairs of server processes the run started, or the rounds. */
function intervalUnits(report: Report): string {
  const per = report.parameters.roundsPerProcess;
  return per === undefined
    ? 'over the rounds (two-level, rounds and process pairs, when the cell ran on two pairs of server processes).'
    : `a new pair of server processes every ${per} rounds, and the interval over those pairs (Student's t on each pair's geometric mean ratio), since a process that runs apart by itself moves all its rounds alike; more pairs were measured while a cell's interval was too wide to flag a change of its margin 9 times in 10, within the run's budget.`;
}

const HEAD = ['runtime', 'scenario', 'mode', 'B/A', '95 % CI', 'rounds (process pairs)', 'could see', 'verdict'];

/** A cell's rounds, the process pairs they ran on and the rounds left out for a shared host: "12 (6)". */
export const roundsCell = (c: AbCell): string =>
  `${c.pairs}${c.processPairs === undefined ? '' : ` (${c.processPairs})`}${c.sharedRounds === undefined ? '' : `, ${c.sharedRounds} shared left out`}`;

function row(c: AbCell): string[] {
  return [
    c.runtime,
    c.scenario,
    `${c.mode}${c.query === undefined ? '' : ` ${c.query}`}`,
    c.ratio === undefined ? '—' : `${c.ratio.toFixed(3)}x`,
    c.ci95 === undefined ? '—' : `${ratioText(c.ci95[0])}-${ratioText(c.ci95[1])}x`,
    roundsCell(c),
    c.detectable === null ? '—' : pct(c.detectable),
    verdictWords(c),
  ];
}

/** Each inconclusive cell's reason in full, under the table whose line gives it in a few words. */
function reasons(ab: AbComparison): string[] {
  return ab.cells.filter((c) => c.verdict === 'inconclusive' && c.reason !== undefined).map((c) => `${cellName(c)}: ${c.reason}`);
}

/** The one line a user reads first: how many cells of each verdict. */
export function abHeadline(ab: AbComparison): string {
  const { regressed, improved, unchanged, inconclusive } = ab.counts;
  const broken = ab.cells.filter((c) => c.bFailed === true).length;
  const mark = regressed > 0 || broken > 0 ? '✗' : inconclusive > 0 ? '?' : '✓';
  const failed = broken === 0 ? '' : ` (B failed in ${broken} where A measured)`;
  const w = CHANGE_WORDS;
  return `${mark} ${regressed} ${w.regressed}, ${improved} ${w.improved}, ${unchanged} ${w.unchanged}, ${inconclusive} ${w.inconclusive}${failed}`;
}

/**
 * What the cells left inconclusive for want of process pairs would need, and the budget that would give
 * it them at this run's pace (its wall time over the process pairs each short cell had): a user reads what
 * to run next, not only that this run could not tell.
 */
export function processPairsAdvice(report: Pick<Report, 'ab' | 'timing' | 'parameters'>): string | undefined {
  const cells = report.ab?.cells ?? [];
  // judgeRatio sets pairsNeeded only where it is past the process pairs the cell had.
  const short = cells.filter((c) => c.pairsNeeded !== undefined);
  const needed = Math.max(0, ...short.map((c) => c.pairsNeeded ?? 0));
  const had = Math.max(0, ...cells.map((c) => c.processPairs ?? 0));
  // Each short cell at the pace it had: one paced out at its minimum beside cells that went on
  // needs more of the run's time than the most any cell had suggests.
  const scale = Math.max(0, ...short.map((c) => (c.pairsNeeded ?? 0) / (c.processPairs ?? Number.POSITIVE_INFINITY)));
  if (short.length === 0 || had === 0 || scale === 0) return undefined;
  const named = short.slice(0, 4).map((c, i) => `${cellName(c)}${i === 0 ? ' would need' : ''} about ${c.pairsNeeded}`);
  const more = short.length - named.length;
  const rest = more > 0 ? `, and ${more} more cell${more === 1 ? '' : 's'}` : '';
  const wall = report.timing?.wallSec;
  const { maxRuns, roundsPerProcess } = report.parameters;
  const per = roundsPerProcess ?? 1;
  const cap = maxRuns === undefined ? undefined : maxRuns / per;
  const given = `this run gave a cell at most ${had}${wall === undefined ? '' : `, in ${Math.round(wall)} s`}`;
  const pace =
    wall === undefined
      ? ''
      : ` At that pace \`--budget ${Math.ceil((wall * scale) / 60) * 60}\`${cap !== undefined && needed > cap ? ` with \`--max-runs ${needed * per}\`` : ''} gives ${short.length === 1 ? 'it' : 'each of them'} what it needs; fewer cells (--runtimes, --scenarios, --modes) get more of the same budget each.`;
  return `Inconclusive for want of pairs of server processes: to see a change of the margin 9 times in 10 at the spread ${short.length === 1 ? 'it' : 'they'} showed, ${named.join(', ')}${rest} (${given}).${pace}`;
}

export function abMarkdown(report: Report): string | undefined {
  const ab = report.ab;
  const plan = report.parameters.ab;
  if (ab === undefined || plan === undefined) return undefined;
  const table = markdownTable([HEAD, ...ab.cells.map((c) => row(c).map(escapeCell))], {
    align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'l'],
  });
  const advice = processPairsAdvice(report);
  const full = reasons(ab);
  return [
    '## A/B',
    `**${abHeadline(ab)}**`,
    table,
    ...(advice === undefined ? [] : [advice]),
    ...(full.length === 0 ? [] : [`Why each inconclusive cell is, in full:\n\n${full.map((r) => `- ${r}`).join('\n')}`]),
    explanation(report, plan),
  ].join('\n\n');
}

function abHtml(report: Report): string {
  const ab = report.ab;
  const plan = report.parameters.ab;
  if (ab === undefined || plan === undefined) return '';
  const head = `<tr>${HEAD.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const rows = ab.cells.map(
    (c) =>
      `<tr data-verdict="${c.verdict}">${row(c)
        .map((x) => `<td>${escapeHtml(x)}</td>`)
        .join('')}</tr>`,
  );
  const full = reasons(ab);
  return [
    '<h2 id="ab">A/B</h2>',
    `<p><strong>${escapeHtml(abHeadline(ab))}</strong></p>`,
    `<div class="table-wrap"><table class="ab"><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table></div>`,
    ...[processPairsAdvice(report)].filter((a) => a !== undefined).map((a) => `<p>${escapeHtml(a.replaceAll('`', ''))}</p>`),
    ...(full.length === 0
      ? []
      : [`<p>Why each inconclusive cell is, in full:</p><ul>${full.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>`]),
    `<p class="muted">${escapeHtml(explanation(report, plan).replaceAll('  \n', ' '))}</p>`,
  ].join('\n');
}

/** The console's view: the headline, then one line per cell. */
export function abConsole(report: Pick<Report, 'ab' | 'timing' | 'parameters'>): string {
  const ab = report.ab ?? { cells: [], counts: { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 } };
  const advice = processPairsAdvice(report);
  return [
    abHeadline(ab),
    ...ab.cells.map((c) => `  ${cellName(c)}: ${verdictLine(c)}`),
    ...(advice === undefined ? [] : [advice.replaceAll('`', '')]),
  ].join('\n');
}

function headline(c: AbCell): Headline {
  return {
    question: `Is B slower than A on ${cellName(c)}?`,
    answer: verdictLine(c),
    figure: c.ratio === undefined ? '—' : `${c.ratio.toFixed(3)}x`,
    ...(c.ci95 === undefined
      ? {}
      : {
          confidence: `95 % CI ${ratioText(c.ci95[0])}-${ratioText(c.ci95[1])}x over ${c.pairs} paired rounds${c.processPairs === undefined ? '' : ` on ${c.processPairs} pairs of server processes`}${c.speedAdjusted === undefined ? '' : ", adjusted for the machine's speed"}`,
        }),
    anchor: 'ab',
  };
}

function abSection(report: Report): ReportSection | undefined {
  const markdown = abMarkdown(report);
  if (markdown === undefined || report.ab === undefined) return undefined;
  return {
    kind: 'ab',
    id: 'ab',
    title: 'A/B',
    lead: true,
    headlines: report.ab.cells.map(headline),
    markdown: () => markdown,
    html: () => abHtml(report),
    console: () => abConsole(report),
  };
}

/** For ab-cli and report-cli: the verdicts derived from a report that recorded its sides, and their section. */
export const abFeatures: ReportFeatures = {
  derive(report) {
    const plan = report.parameters.ab;
    return plan === undefined ? {} : { ab: compareAb(report.results, plan) };
  },
  sections(report) {
    const section = abSection(report);
    return section === undefined ? [] : [section];
  },
};
