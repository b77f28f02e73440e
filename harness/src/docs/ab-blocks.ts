/**
 * The A/B self-test in the docs (`ab-pairs`): every committed bench:ab pair of a folder, each
 * cell's verdict with the smallest change its pair could see, and the counts the gate is held to:
 * how many A/B pair-cells were flagged, how many A/A pair-cells were (false flags). A pair is A/A
 * when both sides ran the same thing (the same module bytes, settings, installation or commit), or
 * when its folder's name says so (`-aa`): sides that differ only in a setting nothing reads. In a
 * file: pair that also measured other scenarios, only the module's own cells are A/B: the others
 * ran the same built-in code on both sides.
 */
import { markdownTable } from 'markdown-table';
import { median, quantileSorted } from 'simple-statistics';
import { AB_PLAN } from '../ab/ab-flags.ts';
import { roundsCell } from '../ab/ab-section.ts';
import { judgeRatio, processPairsToSee } from '../ab/ab-verdict.ts';
import { DEFAULT_MIN_REQUESTS } from '../bench/run-length.ts';
import type { AbCell, AbComparison, AbPlan, AbSide } from '../model/ab.ts';
import type { Report } from '../model/report.ts';
import { formatDate } from '../present/formats.ts';
import { CHANGE_WORDS } from '../present/verdict-words.ts';
import { ratioText } from '../stats/paired.ts';

const what = (s: AbSide): string => JSON.stringify(s.file?.sha256 ?? s.env ?? s.runtime ?? s.ref?.commit ?? s.variant);
const isAa = (ab: AbPlan): boolean => what(ab.a) === what(ab.b);
/**
 * Whether a cell ran the same thing on both sides: the whole pair did, its folder says so, or it
 * is one of a file: pair's other scenarios (built-in code on both sides).
 */
const cellIsAa = (ab: AbPlan, scenario: string, folder = ''): boolean =>
  isAa(ab) || /(^|-)aa(-|$)/.test(folder) || (ab.a.file?.scenario !== undefined && ab.a.file.scenario !== scenario);
const isFlagged = (c: AbCell): boolean => c.verdict === 'regressed' || c.verdict === 'improved';
/** "3 of 5": how many of these cells were flagged. */
const flaggedOf = (cells: readonly AbCell[]): string => `${cells.filter(isFlagged).length} of ${cells.length}`;
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const name = (side: AbSide): string => side.variant.replace(/^file:.*\//, 'file:');

type Pair = { folder: string; report: Report };

/** Every cell of a set's bench:ab pairs, with its run (report, plan, verdicts) and whether it is A/A or A/B. */
function* pairCells(
  pairs: readonly Pair[],
): Generator<{ report: Report; plan: AbPlan; ab: AbComparison; cell: AbCell; kind: 'ab' | 'aa' }> {
  for (const { folder, report } of pairs) {
    const plan = report.parameters.ab;
    if (plan === undefined || report.ab === undefined) continue;
    const ab = report.ab;
    for (const cell of ab.cells) yield { report, plan, ab, cell, kind: cellIsAa(plan, cell.scenario, folder) ? 'aa' : 'ab' };
  }
}

export function abPairsBlock(pairs: readonly Pair[]): string {
  const rows: string[][] = [];
  const byKind: Record<'ab' | 'aa', AbCell[]> = { ab: [], aa: [] };
  for (const { report, plan, cell: c, kind } of pairCells(pairs)) {
    byKind[kind].push(c);
    const wall = report.timing === undefined ? '' : `, ${Math.round(report.timing.wallSec)} s`;
    rows.push([
      `${formatDate(report.createdAt)}${wall}`,
      kind === 'aa' ? 'A/A' : 'A/B',
      `${name(plan.a)} → ${name(plan.b)}`,
      `${c.runtime} ${c.scenario}/${c.mode}`,
      c.ratio === undefined || c.ci95 === undefined ? '—' : `${c.ratio.toFixed(3)}x (${ratioText(c.ci95[0])}-${ratioText(c.ci95[1])})`,
      roundsCell(c),
      c.detectable === null ? '—' : pct(c.detectable),
      c.verdict,
    ]);
  }
  const sorted = [...byKind.ab, ...byKind.aa].flatMap((c) => (c.detectable === null ? [] : [c.detectable])).sort((x, y) => x - y);
  const ratios = byKind.ab.flatMap((c) => (c.ratio === undefined ? [] : [c.ratio])).sort((x, y) => x - y);
  const flagged = (cells: AbCell[]): string => (cells.length === 0 ? 'none in this set' : `${flaggedOf(cells)} pair-cells flagged`);
  const summary = [
    `A/B pairs (A and B differ): ${flagged(byKind.ab)}${
      ratios.length === 0
        ? ''
        : `; their estimates of B/A: median ${median(ratios).toFixed(3)}x, from ${ratios[0]?.toFixed(3)}x to ${ratios.at(-1)?.toFixed(3)}x`
    }.`,
    `A/A pairs (both sides the same): ${flagged(byKind.aa)}${byKind.aa.length === 0 ? '' : ' (false flags)'}.`,
    sorted.length === 0
      ? ''
      : `Smallest change a pair could see: median ${pct(median(sorted))}, from ${pct(sorted[0] ?? 0)} to ${pct(sorted.at(-1) ?? 0)}.`,
    unadjustedLine(byKind),
  ]
    .filter((line) => line !== '')
    .join('  \n');
  const table = markdownTable(
    [['run', 'pair', 'A → B', 'cell', 'B/A (95 % CI)', 'rounds (process pairs)', 'could see', 'verdict'], ...rows],
    {
      align: ['l', 'l', 'l', 'l', 'r', 'r', 'r', 'l'],
    },
  );
  return [summary, '', table].join('\n');
}

/**
 * What the set's verdicts would have been without the adjustment for the machine's speed: each
 * adjusted cell judged by the same rule on the unadjusted interval its report keeps. Empty when
 * no cell was adjusted.
 */
function unadjustedLine(byKind: Record<'ab' | 'aa', AbCell[]>): string {
  const all = [...byKind.ab, ...byKind.aa];
  const adjusted = all.filter((c) => c.speedAdjusted !== undefined).length;
  if (adjusted === 0) return '';
  const plain = (c: AbCell): AbCell => {
    const u = c.speedAdjusted?.unadjusted;
    return u === undefined ? c : { ...c, ...judgeRatio(u.ratio, u.ci95, c.pairs, c.margin) };
  };
  const seen = all.map(plain).flatMap((c) => (c.detectable === null ? [] : [c.detectable]));
  const kinds = (['ab', 'aa'] as const)
    .filter((k) => byKind[k].length > 0)
    .map((k) => `${k === 'ab' ? 'A/B' : 'A/A'} ${flaggedOf(byKind[k].map(plain))} flagged`)
    .join(', ');
  return `Adjusted for the machine's speed: ${adjusted} of ${all.length} pair-cells; judged on their unadjusted intervals instead: ${kinds}${seen.length === 0 ? '' : `, could see median ${pct(median(seen))}`}.`;
}

/**
 * How many process pairs the cells had (median), and how many each would have needed, at the
 * spread its process pairs showed, to see a change of its margin 9 times in 10 (ab-verdict.ts
 * processPairsToSee): the median, and the 90th percentile, which is what a budget must give for 9 in 10
 * of such cells to get there. "11; 25, 47".
 */
function pairsHadNeeded(cells: readonly AbCell[]): string {
  const had = cells.flatMap((c) => (c.processPairs === undefined ? [] : [c.processPairs]));
  const needed = cells
    .flatMap((c) => (c.processPairs === undefined || c.ci95 === undefined ? [] : [processPairsToSee(c.ci95, c.margin, c.processPairs)]))
    .sort((x, y) => x - y);
  if (had.length === 0 || needed.length === 0) return '—';
  const count = (n: number): string => (Number.isFinite(n) ? String(Math.ceil(n)) : '> 400');
  return `${Math.round(median(had))}; ${count(quantileSorted(needed, 0.5))}, ${count(quantileSorted(needed, 0.9))}`;
}

export interface AbSet {
  /** The set's folder under the block's source: one A/B self-test (its pairs, each a folder). */
  set: string;
  pairs: Pair[];
}

/** A set run with longer runs than bench:ab's own says so: "; runs ≥ 100 requests". */
const runFloor = (floors: ReadonlySet<number>): string =>
  [...floors].every((n) => n === DEFAULT_MIN_REQUESTS) ? '' : `; runs ≥ ${[...floors].sort((x, y) => x - y).join(' or ')} requests`;

/** A set run with another budget than bench:ab's own says so: "; --budget 1380". */
const runBudget = (budgets: ReadonlySet<number>): string =>
  [...budgets].every((n) => n === AB_PLAN.budgetSec) ? '' : `; --budget ${[...budgets].sort((x, y) => x - y).join(' or ')}`;

/** How many of the cells were judged adjusted for the machine's speed: "all", "none" or "3 of 5". */
function adjustedOf(cells: readonly AbCell[]): string {
  const n = cells.filter((c) => c.speedAdjusted !== undefined).length;
  return n === 0 ? 'none' : n === cells.length ? 'all' : `${n} of ${cells.length}`;
}

/**
 * The gate's promise over every self-test set (`ab-promise`): a row per set and cell (scenario and
 * mode, over the runtimes it ran on), with how many cells shared each run's budget, the A/B
 * pair-cells flagged and what they read, and the A/A pair-cells flagged; the last line totals the
 * false flags over all sets, the figure held to "at most 1 in 20".
 */
export function abPromiseBlock(sets: readonly AbSet[]): string {
  const rows: string[][] = [];
  const total: Record<'ab' | 'aa', AbCell[]> = { ab: [], aa: [] };
  for (const { set, pairs } of sets) {
    const groups = new Map<
      string,
      { share: Record<'ab' | 'aa', number[]>; ab: AbCell[]; aa: AbCell[]; floors: Set<number>; budgets: Set<number> }
    >();
    for (const { report, ab, cell: c, kind } of pairCells(pairs)) {
      const key = `${c.scenario}/${c.mode}`;
      const group = groups.get(key) ?? { share: { ab: [], aa: [] }, ab: [], aa: [], floors: new Set<number>(), budgets: new Set<number>() };
      groups.set(key, group);
      group[kind].push(c);
      group.share[kind].push(ab.cells.length);
      group.floors.add(report.parameters.minRequests ?? DEFAULT_MIN_REQUESTS);
      group.budgets.add(report.parameters.budgetSec ?? AB_PLAN.budgetSec);
    }
    for (const [key, g] of groups) {
      const ratios = g.ab.flatMap((c) => (c.ratio === undefined ? [] : [c.ratio]));
      const seen = [...g.ab, ...g.aa].flatMap((c) => (c.detectable === null ? [] : [c.detectable]));
      // The A/B runs' share decides what the A/B flags could see; A/A runs may have run more cells.
      const share = median(g.share.ab.length > 0 ? g.share.ab : g.share.aa);
      const runtimesOf = (cells: AbCell[]): string => [...new Set(cells.map((c) => c.runtime))].join(', ');
      // A/A runs may have measured more runtimes than the A/B runs: the column says so.
      const runtimes =
        g.ab.length === 0 || g.aa.length === 0 || runtimesOf(g.aa) === runtimesOf(g.ab)
          ? runtimesOf([...g.ab, ...g.aa])
          : `${runtimesOf(g.ab)} (A/A: ${runtimesOf(g.aa)})`;
      total.ab.push(...g.ab);
      total.aa.push(...g.aa);
      rows.push([
        set,
        key,
        runtimes,
        `${share === 1 ? 'it alone' : `${share} share it`}${runFloor(g.floors)}${runBudget(g.budgets)}`,
        g.ab.length === 0 ? '—' : flaggedOf(g.ab),
        ratios.length === 0 ? '—' : `${median(ratios).toFixed(3)}x (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`,
        g.aa.length === 0 ? '—' : flaggedOf(g.aa),
        seen.length === 0 ? '—' : pct(median(seen)),
        pairsHadNeeded([...g.ab, ...g.aa]),
        adjustedOf([...g.ab, ...g.aa]),
      ]);
    }
  }
  const table = markdownTable(
    [
      [
        'set',
        'cell',
        'runtimes',
        "a run's budget: cells",
        'A/B flagged',
        'B/A: median (range)',
        'A/A flagged',
        'could see: median',
        'process pairs: had; needed (median, 90th pct)',
        'adjusted for speed',
      ],
      ...rows,
    ],
    { align: ['l', 'l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'] },
  );
  // An A/B cell read "unchanged" gave an all-clear on a change that was there: the worst of the misses.
  const cleared = total.ab.filter((c) => c.verdict === 'unchanged').length;
  const totals =
    `Over all ${sets.length} sets: A/B pair-cells flagged ${flaggedOf(total.ab)}, read unchanged ${cleared} (the interval within ` +
    `the margin while B did the margin's share more work), the rest inconclusive; A/A pair-cells flagged ${flaggedOf(total.aa)} (false flags).`;
  return [table, '', totals].join('\n');
}

/**
 * One bench:ab run cell by cell (`ab-seen`): per scenario and mode, on each runtime, the smallest
 * change its pair could see and its verdict, led by what the run cost (wall time, process pairs a
 * cell, rounds left out). A file: pair's module cells are marked A/B; its other scenarios ran the
 * same code on both sides.
 */
export function abSeenBlock(report: Report, plan: AbPlan, ab: AbComparison): string {
  const cells = ab.cells;
  const runtimes = [...new Set(cells.map((c) => c.runtime))];
  const keys = [...new Set(cells.map((c) => `${c.scenario}/${c.mode}`))];
  const pairs = cells.map((c) => c.processPairs ?? 0).sort((x, y) => x - y);
  const shared = cells.reduce((sum, c) => sum + (c.sharedRounds ?? 0), 0);
  const wall = report.timing?.wallSec;
  const lead = [
    `${formatDate(report.createdAt)}: ${cells.length} cells on ${runtimes.join(', ')}`,
    wall === undefined ? '' : `, ${Math.round(wall)} s in all (${Math.round(wall / cells.length)} s a cell)`,
    `; process pairs a cell: median ${pairs.length === 0 ? 0 : median(pairs)}, ${pairs[0] ?? 0} to ${pairs.at(-1) ?? 0}`,
    `; ${shared} rounds left out as shared.`,
  ].join('');
  const kindOf = (scenario: string): string => (cellIsAa(plan, scenario) ? 'A/A' : 'A/B');
  const flagged = (kind: string): string => flaggedOf(cells.filter((c) => kindOf(c.scenario) === kind));
  const counts = `Flagged (regressed or improved): A/B cells ${flagged('A/B')}, A/A cells ${flagged('A/A')}.`;
  const rows = keys.map((key) => {
    const [scenario = '', mode = ''] = key.split('/');
    return [
      key,
      kindOf(scenario),
      ...runtimes.map((runtime) => {
        const c = cells.find((x) => x.runtime === runtime && x.scenario === scenario && x.mode === mode);
        if (c === undefined) return '';
        return `${c.detectable === null ? '—' : pct(c.detectable)} (${c.ratio === undefined ? '' : `${c.ratio.toFixed(3)}x, `}${CHANGE_WORDS[c.verdict]})`;
      }),
    ];
  });
  const table = markdownTable([['cell', 'pair', ...runtimes.map((r) => `${r}: could see (B/A, verdict)`)], ...rows], {
    align: ['l', 'l', ...runtimes.map(() => 'r' as const)],
  });
  return [`${lead}  `, counts, '', table].join('\n');
}
