/** The lines a bench run says as it goes: its plan before the first cell, each finished cell, and each cell's profile. */
import type { CellResult } from '../../model/cell.ts';
import type { CellProfile } from '../../model/profile.ts';
import { MIN_RUNS_FOR_INTERVAL } from '../../stats/stats.ts';
import { percent } from '../flags.ts';
import { CONSOLE_WIDTH, wrap } from '../render/console.ts';
import { formatMs, formatRps } from '../../present/formats.ts';
import { heldSentence } from './profile.ts';

/** What the opening lines say of a plan: the part of bench/plan.ts's Plan they read (report/ knows no feature). */
export interface PlanOutline {
  scenarios: readonly string[];
  connections: readonly number[];
  sweep?: { parameter: string; values: readonly (string | number)[] } | undefined;
  runs: number;
  durationSec: number;
  warmupSec: number;
  targetPrecision?: number | undefined;
  maxRuns: number;
  budgetSec?: number | undefined;
  schedule: string;
  quick: boolean;
}

/** Lines of at most CONSOLE_WIDTH columns: a long one goes on over indented lines, word by word. */
const fitted = (line: string): string[] => wrap(line, CONSOLE_WIDTH, '  ').split('\n');

/**
 * What a bench run says before its first cell: what runs, how each cell is measured, and for a
 * --quick run that its figures are not to be quoted. `lanes`: each installation's name;
 * `fullPrecision`: what the default plan measures each cell to; `more`: lines of the entry
 * point's own (a file-limit warning, the server host), said after them. Each line fits a terminal.
 */
export function planLines(plan: PlanOutline, lanes: readonly string[], fullPrecision: number, more: readonly string[] = []): string[] {
  const sweep = plan.sweep === undefined ? '' : `, ${plan.sweep.parameter}=${plan.sweep.values.join(',')}`;
  const what = `bench: ${lanes.join(', ')} x ${plan.scenarios.length} scenarios, ${plan.connections.join(',')} connections${sweep}, runs ${plan.schedule}, modes paired`;
  const precision =
    plan.targetPrecision === undefined
      ? ''
      : `, then more (up to ${plan.maxRuns}) until within ±${plan.targetPrecision * 100} %${plan.budgetSec === undefined ? '' : ` in a ${plan.budgetSec} s budget`}`;
  const how = `bench: each cell ${plan.runs} runs of ${plan.durationSec} s after ${plan.warmupSec} s warm-up${precision}`;
  // --quick is a smoke run: it must say so before anyone quotes its figures.
  const smoke =
    plan.quick && plan.runs < MIN_RUNS_FOR_INTERVAL
      ? [
          `bench: --quick is a smoke test: ${plan.runs} runs a cell, no 95 % interval, figures that move by tens of percent run to run;`,
          `bench: not figures to quote (the default bench:all measures each cell to ±${fullPrecision * 100} %)`,
        ]
      : [];
  return [what, how, ...smoke, ...more.map((line) => `bench: ${line}`)].flatMap(fitted);
}

/** One plain line per finished cell, so a log shows results as they come. */
export function cellLine(cell: CellResult, connectionsSwept: boolean): string {
  const name = `${cell.runtimeLabel ?? cell.runtime}${cell.processes === undefined ? '' : ` x${cell.processes}`} ${cell.scenario}/${cell.mode}${connectionsSwept ? ` @${cell.connections} conns` : ''}`;
  if (cell.status === 'failed') return wrap(`${name}: FAILED: ${cell.reason ?? ''}`);
  const rps = cell.requestsPerSec;
  const figures = `${formatRps(rps.median)} req/s (CV ${(rps.cv * 100).toFixed(1)}%), p99 ${formatMs(cell.latencyMs.p99)} ms, probe p99 ${formatMs(cell.probeLatencyMs.p99)} ms`;
  const overload =
    cell.overload === undefined
      ? []
      : [`${cell.overload.timeouts} of ${cell.overload.sent} requests timed out (${percent(cell.overload.timeoutShare)})`];
  const restarts = cell.restarts === undefined ? [] : [`${cell.restarts.length} restart${cell.restarts.length === 1 ? '' : 's'}`];
  const notes = [...(cell.status === 'invalid' ? [`INVALID: ${cell.reason ?? ''}`] : []), ...cell.flags, ...overload, ...restarts];
  return wrap(`${name}: ${figures}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`);
}

const cellName = (cell: CellResult) => `${cell.runtimeLabel ?? cell.runtime} ${cell.scenario}/${cell.mode}`;

/** "profile: node fib/sync: 81 req/s under the profiler; main thread busy 85 %, the loop held …". */
export function profileLine(cell: CellResult, profile: CellProfile): string {
  const name = `profile: ${cellName(cell)}`;
  if (profile.summary === undefined) return `${name}: ${profile.reason ?? 'no profile'}`;
  return `${name}: ${profile.load.requestsPerSec} req/s under the profiler; ${heldSentence(profile.summary)} (${profile.file})`;
}

/** What bench/progress.ts ProgressLines asks for. */
export const progressLines = { cell: cellLine, profile: profileLine };
