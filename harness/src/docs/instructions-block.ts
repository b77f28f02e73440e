// The `instructions` result block: the A/A spread of instructions per request over server
// processes of each runtime, and what bench:ab's rule makes of A/A pairs and of an injected
// change, from the committed counts (one instructions report per server process).
import { markdownTable } from 'markdown-table';
import type { RuntimeName } from '@bench/app';
import { formatDate } from '../present/formats.ts';
import { mean, median, sampleStdDev } from '../stats/stats.ts';
import { instructionThreshold, instructionVerdict } from '../measure/instruction-verdict.ts';
import type { InstructionReport } from '../measure/instruction-report.ts';
import { CAVEAT } from '../measure/side-by-side.ts';

interface Process {
  folder: string;
  report: InstructionReport;
}

/** One runtime and module's processes: each one's figure and rounds, in folder order. */
export interface ProcessSet {
  runtime: RuntimeName;
  module: string;
  version: string;
  settings: string;
  figures: number[];
  rounds: number[][];
  startSeconds: number[];
  cellSeconds: number[];
  idlePerSecond: number[];
}

/** Folders are named `<runtime>-<module>-<nn>`: the processes of one runtime and module, grouped. */
export function processSets(processes: readonly Process[]): ProcessSet[] {
  const sets = new Map<string, ProcessSet>();
  for (const { folder, report } of processes) {
    const key = folder.replace(/-\d+$/, '');
    const lane = report.lanes[0];
    const cell = report.cells[0];
    if (lane === undefined || cell?.perRequest === undefined) continue;
    const set = sets.get(key) ?? {
      runtime: lane.runtime,
      module: key.slice(lane.runtime.length + 1),
      version: lane.version,
      settings: lane.settings,
      figures: [],
      rounds: [],
      startSeconds: [],
      cellSeconds: [],
      idlePerSecond: [],
    };
    set.figures.push(cell.perRequest);
    set.rounds.push(cell.rounds);
    if (lane.startSeconds !== undefined) set.startSeconds.push(lane.startSeconds);
    set.cellSeconds.push(cell.seconds);
    if (cell.idlePerSecond !== undefined) set.idlePerSecond.push(cell.idlePerSecond);
    sets.set(key, set);
  }
  return [...sets.values()];
}

/** The A/A spread: the sample standard deviation of log(figure) over processes. */
export function logSpread(figures: readonly number[]): number {
  return figures.length < 2 ? 0 : sampleStdDev(figures.map(Math.log));
}

const pct = (x: number, digits = 2) => `${(x * 100).toFixed(digits)} %`;
const int = (x: number) => Math.round(x).toLocaleString('en');

export function instructionsBlock(processes: readonly Process[]): string {
  const first = processes[0]?.report;
  if (first === undefined) return 'No instruction counts committed yet.';
  const sets = processSets(processes);
  const aa = sets.filter((s) => !s.module.includes('pct'));
  const rows = aa.map((s) => {
    // Pairs of distinct processes, each once: A/A pairs as bench:ab would judge them.
    const pairs = s.rounds.flatMap((a, i) => s.rounds.slice(i + 1).map((b) => instructionVerdict(s.runtime, a, b)));
    const quiet = pairs.filter((p) => p.verdict === 'unchanged').length;
    const range = Math.max(...s.figures) / Math.min(...s.figures) - 1;
    return [
      `${s.runtime} ${s.version}`,
      String(s.figures.length),
      int(median(s.figures)),
      pct(logSpread(s.figures), 3),
      pct(range),
      `±${pct(instructionThreshold(s.runtime))}`,
      `${quiet} of ${pairs.length}`,
      s.idlePerSecond.length === 0 ? '—' : int(median(s.idlePerSecond)),
      `${Math.round(median(s.startSeconds))} s`,
      `${Math.round(median(s.cellSeconds))} s`,
      // bench:ab on one module: an A and a B server, one after the other, each started and its cell counted.
      `${Math.round(2 * (median(s.startSeconds) + median(s.cellSeconds)))} s`,
    ];
  });
  const table = markdownTable(
    [
      [
        'runtime',
        'processes',
        'instructions/request (median)',
        'A/A spread (sd)',
        'max/min',
        'bench:ab rule',
        'A/A pairs quiet (every two processes)',
        'idle, instructions/s',
        'start-up',
        'cell',
        'one-module bench:ab',
      ],
      ...rows,
    ],
    { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] },
  );
  const lines = [
    `Counted ${formatDate(first.createdAt)} on ${first.environment.cpu.model} × ${first.environment.cpu.count} (shared with other jobs), Valgrind ${first.valgrind}, collected at commit ${first.environment.commit.slice(0, 7)}: one server process per count, one after another, ${first.count.warmupRequests} warm-up requests, then ${first.count.rounds} rounds of ${first.count.requests} at ${first.count.concurrency} connection${first.count.concurrency === 1 ? '' : 's'}; the figure is the rounds after the first. Times are wall clock under Valgrind on that shared host: start-up is paid once per server process; a one-module bench:ab starts an A and a B server and counts one cell on each.`,
    '',
    table,
    '',
    `Settings: ${aa.map((s) => `${s.runtime}: ${s.settings}`).join('; ')}.`,
  ];
  for (const b of sets.filter((s) => s.module.includes('pct'))) {
    const a = aa.find((s) => s.runtime === b.runtime);
    if (a === undefined) continue;
    const n = Math.min(a.rounds.length, b.rounds.length);
    const verdicts = Array.from({ length: n }, (_, i) => instructionVerdict(b.runtime, a.rounds[i] ?? [], b.rounds[i] ?? []));
    const flagged = verdicts.filter((v) => v.verdict === 'regressed').length;
    const change = mean(b.figures) / mean(a.figures) - 1;
    lines.push(
      '',
      `Injected change on ${b.runtime} (${b.module} against ${a.module}): ${pct(change)} more instructions a request on average; flagged as regressed in ${flagged} of ${n} pairs of one process each (A's n-th process against B's n-th).`,
    );
  }
  lines.push('', `*${CAVEAT}*`);
  return lines.join('\n');
}
