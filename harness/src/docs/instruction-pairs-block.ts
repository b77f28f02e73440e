// The `instruction-pairs` result block: the instruction gate's promise, shown on fresh bench:ab
// runs (each an A and a B server process started for it) of one module against itself and against
// a 1 % change: how many A/A runs stayed quiet, how many 1 % runs were flagged, what a plan cost;
// beside it, from runs with callgrind's cache simulation on, whether estimated cycles are steadier
// than instructions, and how much of the JIT code the runtimes' maps named.
import { markdownTable } from 'markdown-table';
import type { RuntimeName } from '@bench/app';
import type { InstructionReport } from '../measure/instruction-report.ts';
import { instructionThreshold } from '../measure/instruction-verdict.ts';
import { formatDate } from '../present/formats.ts';
import { median } from '../stats/stats.ts';
import { logSpread } from './instructions-block.ts';

/** The wall time and host CPU use around one plan, added by the script that ran the plans. */
interface PlanTime {
  wallSeconds: number;
  /** Share of the host's CPUs busy during the plan, everything on it counted. */
  hostCpuBusy: number;
  /** Share of the host's CPUs the plan's own processes used, where measured. */
  ownCpu?: number;
}

export type PairRun = InstructionReport & { plan?: PlanTime };

/** What the gate promises on a one-module plan: quiet A/A pairs, flagged 1 % pairs, a plan's time on 2 cores. */
export const PROMISE = { aaQuiet: 19 / 20, flagged: 9 / 10, planSeconds: 180 };

type Kind = 'aa' | 'injected' | 'cache-sim';

/** A run's kind from its folder (`<runtime>-aa-<nn>`, `-inj-`, `-aacs-`): the cache-simulated ones are A/A too. */
function kindOf(folder: string): Kind | undefined {
  if (/-aacs-\d+$/.test(folder)) return 'cache-sim';
  if (/-inj-\d+$/.test(folder)) return 'injected';
  if (/-aa-\d+$/.test(folder)) return 'aa';
  return undefined;
}

interface Run {
  folder: string;
  kind: Kind;
  runtime: RuntimeName;
  report: PairRun;
}

const pct = (x: number, digits = 2) => `${(x * 100).toFixed(digits)} %`;
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${pct(Math.abs(x))}`;
const secs = (x: number) => `${Math.round(x)} s`;

function runsOf(reports: readonly { folder: string; report: unknown }[]): Run[] {
  return reports.flatMap(({ folder, report }) => {
    const r = report as PairRun;
    const kind = kindOf(folder);
    const pair = r.pairs?.[0];
    if (kind === undefined || pair === undefined) return [];
    return [{ folder, kind, runtime: pair.runtime, report: r }];
  });
}

/** The A side's processes, and the B side's where B ran the same module. */
const sameModuleFigures = (runs: readonly Run[], pick: (c: PairRun['cells'][number]) => number | undefined) =>
  runs.flatMap((r) =>
    r.report.cells
      .filter((c) => r.kind !== 'injected' || c.lane === r.report.pairs?.[0]?.a)
      .map(pick)
      .filter((x): x is number => x !== undefined),
  );

function promiseRows(runs: readonly Run[], runtimes: readonly RuntimeName[]): string[][] {
  // A runtime counted only with the cache simulation on has no plain run to show here.
  const plain = runtimes.filter((runtime) => runs.some((r) => r.runtime === runtime && r.kind !== 'cache-sim'));
  return plain.map((runtime) => {
    const mine = runs.filter((r) => r.runtime === runtime && r.kind !== 'cache-sim');
    const aa = mine.filter((r) => r.kind === 'aa');
    const inj = mine.filter((r) => r.kind === 'injected');
    const verdict = (r: Run) => r.report.pairs?.[0]?.result;
    const quiet = aa.filter((r) => verdict(r)?.verdict === 'unchanged').length;
    const flagged = inj.filter((r) => verdict(r)?.verdict === 'regressed').length;
    const ratios = inj.map((r) => verdict(r)?.ratio).filter((x): x is number => x !== undefined);
    const aaRatios = aa.map((r) => verdict(r)?.ratio).filter((x): x is number => x !== undefined);
    const times = mine.map((r) => r.report.plan?.wallSeconds ?? r.report.seconds);
    const version = mine[0]?.report.lanes[0]?.version ?? '';
    const figures = sameModuleFigures(mine, (c) => c.perRequest);
    return [
      `${runtime} ${version}`,
      aa.length === 0 ? '—' : `${quiet} of ${aa.length}`,
      aaRatios.length === 0 ? '—' : `${signed(Math.min(...aaRatios) - 1)} to ${signed(Math.max(...aaRatios) - 1)}`,
      inj.length === 0 ? '—' : `${flagged} of ${inj.length}`,
      ratios.length === 0 ? '—' : signed(median(ratios) - 1),
      `±${pct(instructionThreshold(runtime))}`,
      figures.length < 2 ? '—' : pct(logSpread(figures), 3),
      times.length === 0 ? '—' : `${secs(median(times))} (${secs(Math.max(...times))})`,
      leastShared(mine),
    ];
  });
}

/** The plan run while the host was least busy otherwise: its time and how busy the host was in all. */
function leastShared(runs: readonly Run[]): string {
  const timed = runs.filter((r) => r.report.plan !== undefined);
  const best = timed.sort((a, b) => (a.report.plan?.hostCpuBusy ?? 1) - (b.report.plan?.hostCpuBusy ?? 1))[0]?.report.plan;
  if (best === undefined) return '—';
  return `${secs(best.wallSeconds)} (host ${pct(best.hostCpuBusy, 0)} busy)`;
}

function cacheRows(
  runs: readonly Run[],
  runtimes: readonly RuntimeName[],
): { rows: string[][]; steadier: RuntimeName[]; not: RuntimeName[]; fewest: number } {
  const steadier: RuntimeName[] = [];
  const not: RuntimeName[] = [];
  let fewest = Number.POSITIVE_INFINITY;
  const rows = runtimes.flatMap((runtime) => {
    const simulated = runs.filter((r) => r.runtime === runtime && r.kind === 'cache-sim');
    const instructions = sameModuleFigures(simulated, (c) => c.perRequest);
    const cycles = sameModuleFigures(simulated, (c) => c.cyclesPerRequest);
    if (cycles.length < 2 || cycles.length !== instructions.length) return [];
    const plain = runs.filter((r) => r.runtime === runtime && r.kind !== 'cache-sim').flatMap((r) => r.report.cells.map((c) => c.seconds));
    const withSim = simulated.flatMap((r) => r.report.cells.map((c) => c.seconds));
    const [si, sc] = [logSpread(instructions), logSpread(cycles)];
    (sc < si ? steadier : not).push(runtime);
    fewest = Math.min(fewest, cycles.length);
    return [
      [
        runtime,
        String(cycles.length),
        pct(si, 3),
        pct(sc, 3),
        (median(cycles) / median(instructions)).toFixed(2),
        secs(median(withSim)),
        plain.length === 0 ? '—' : secs(median(plain)),
      ],
    ];
  });
  return { rows, steadier, not, fewest };
}

/** What the runtimes' JIT maps named, and what Valgrind said it could not run, from the lanes and cells. */
function namesAndWarnings(runs: readonly Run[], runtimes: readonly RuntimeName[]): string[] {
  const named = runtimes.flatMap((runtime) => {
    const shares = runs.flatMap((r) => r.report.cells.filter((c) => c.runtime === runtime).map((c) => c.jitNamed));
    const known = shares.filter((x): x is number => x !== undefined);
    const share = known.length === 0 ? 0 : median(known);
    // Rounding must not print a gap as none.
    const words = share < 1 && share >= 0.9999 ? 'over 99.99 %' : pct(share);
    return known.length === 0 ? [`${runtime}: no map read`] : [`${runtime} ${words} (median of ${known.length} cells)`];
  });
  const lines = [
    `JIT code named from the runtime's own map (share of the instructions counted in memory no file is mapped to): ${named.join('; ')}.`,
  ];
  for (const runtime of runtimes) {
    const lanes = runs.flatMap((r) => r.report.lanes.filter((l) => l.runtime === runtime));
    // The core's warnings (upper case) say what it could not run; the cache simulation's notes do not.
    const core = (l: (typeof lanes)[number]) => (l.valgrindWarnings ?? []).filter((w) => w.startsWith('WARNING'));
    const warnings = [...new Set(lanes.flatMap(core))];
    const failed = lanes.filter((l) => l.status !== 'ok');
    const said = lanes.filter((l) => core(l).length > 0).length;
    if (warnings.length > 0)
      lines.push(
        `Valgrind on ${runtime}: ${warnings.join('; ')} (in ${said} of ${lanes.length} server processes; each still served and was counted).`,
      );
    if (failed.length > 0)
      lines.push(
        `${runtime}: ${failed.length} of ${lanes.length} server processes did not serve under Valgrind: ${[...new Set(failed.map((l) => l.reason))].join('; ')}.`,
      );
  }
  return lines;
}

export function instructionPairsBlock(reports: readonly { folder: string; report: unknown }[]): string {
  const runs = runsOf(reports);
  const first = runs[0]?.report;
  if (first === undefined) return 'No bench:ab instruction runs committed yet.';
  const runtimes = [...new Set(runs.map((r) => r.runtime))].sort();
  const dates = runs.map((r) => r.report.createdAt).sort();
  const commits = [...new Set(runs.map((r) => r.report.environment.commit.slice(0, 7)))];
  const promise = markdownTable(
    [
      [
        'runtime',
        'A/A runs quiet',
        'A/A read as',
        '+1 % runs flagged',
        '+1 % read as (median)',
        'rule',
        'spread over these processes (sd)',
        'time per plan, median (max)',
        'least shared plan',
      ],
      ...promiseRows(runs, runtimes),
    ],
    { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] },
  );
  const lines = [
    `Counted ${formatDate(dates[0] ?? '')} to ${formatDate(dates.at(-1) ?? '')} on ${first.environment.cpu.model} × ${first.environment.cpu.count} (shared with other jobs), Valgrind ${first.valgrind}, at commit${commits.length === 1 ? '' : 's'} ${commits.join(', ')}. Each run is a fresh one-module \`bench:ab --measure instructions\` on fib22: A/A with the same file on both sides, +1 % with fib22-1pct as B; its own two server processes, ${first.count.warmupRequests} warm-up requests, ${first.count.rounds} rounds of ${first.count.requests}. The promise: A/A quiet in at least ${Math.round(PROMISE.aaQuiet * 20)} of 20, +1 % flagged in at least ${Math.round(PROMISE.flagged * 10)} of 10, a plan within ${PROMISE.planSeconds} s on 2 cores. A plan's time is wall clock around the command, waiting for nothing else; the host is busy with the plan's own server under Valgrind (about one CPU of two) and with whatever else ran beside it.`,
    '',
    promise,
  ];
  const cache = cacheRows(runs, runtimes);
  if (cache.rows.length > 0) {
    lines.push(
      '',
      `With callgrind's cache simulation (\`--cache-sim=yes\`; cycles estimated as instructions + 10 × first-level misses + 100 × last-level misses), A/A runs counted the same way:`,
      '',
      markdownTable(
        [
          [
            'runtime',
            'processes',
            'instructions spread (sd)',
            'estimated cycles spread (sd)',
            'cycles per instruction',
            'cell with simulation',
            'cell without',
          ],
          ...cache.rows,
        ],
        { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r'] },
      ),
      '',
      `Estimated cycles scattered less than instructions on ${cache.steadier.length === 0 ? 'no runtime' : cache.steadier.join(', ')}${cache.not.length === 0 ? '' : `, no less on ${cache.not.join(', ')}`}${cache.fewest < 10 ? `, over as few as ${cache.fewest} processes a runtime: too few to change the figure, which stays instructions` : ''}.`,
    );
  }
  lines.push('', ...namesAndWarnings(runs, runtimes));
  return lines.join('\n');
}
