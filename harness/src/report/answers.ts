/**
 * A bench report's answers, gathered for the front page, the pictures and the findings: per
 * scenario, each question (worker over sync, async over sync, Hono over the raw server, and
 * what a bystander request waits) with one row per runtime: the ratio, its 95 % interval, the
 * sentence. Only cells that can carry a figure (both sides ok) give a row. Pure.
 */
import type { RuntimeName } from '@bench/app';
import type { CellResult } from '../model/cell.ts';
import type { Comparison, Ratios } from '../model/comparison.ts';
import type { Mode, ScenarioName } from '../model/names.ts';
import type { Report } from '../model/report.ts';
import { pairedRatioInterval } from '../present/headline.ts';
import { measuredLagP99 } from './loop-verdict.ts';
import { cellOf, laneOf } from '../model/cell-lookups.ts';
import { connectionsSwept } from '../model/parameters.ts';
import { type Interval, type LoopReading, loopFinding, type RatioWords, ratioSentence, workerFinding } from './text/findings.ts';
import { runtimeLabel } from './text/labels.ts';
import { type ModeCosts, modeCosts } from './cpu-costs.ts';
import { cpuWords } from '../present/verdict-words.ts';
import { differentWork } from './different-work.ts';
import { cellsDoubt, type RatioVerdict, ratioVerdict } from '../present/ratio-verdict.ts';

export interface AnswerRow {
  /** "node", "node@22 x2 @100 conns": the row's label. */
  lane: string;
  /** For the colour: a runtime keeps its colour on every page. */
  runtime: RuntimeName;
  ratio: number;
  /** Absent when the cells had too few paired runs for one. */
  ci?: Interval;
  /** How the ratio reads (present/ratio-verdict.ts): the picture's mark and the findings' clause. */
  verdict: RatioVerdict;
  /** Why its cells cannot carry an answer (shared host, invalid, failed); absent when they can. */
  doubt?: string;
  sentence: string;
  /** Beside a requests/s ratio over sync: the ceiling here and the CPU a request cost (report/cpu-costs.ts). */
  costs?: string;
  /** The figures behind `costs`. */
  modeCosts?: ModeCosts;
  /** Beside a requests/s ratio over sync: what one sync request takes, in ms. */
  syncRequestMs?: number;
}

export interface Question {
  /** "fib-worker", "hello-hono", "fib-async-bystander": stable, for anchors and file names. */
  id: string;
  scenario: ScenarioName;
  /** "fib: worker over sync, requests/s". */
  title: string;
  words: RatioWords;
  rows: AnswerRow[];
}

interface Pair {
  key: 'workerOverSync' | 'asyncOverSync' | 'honoOverRaw';
  id: string;
  over: Mode;
  base: Mode;
  words: Omit<RatioWords, 'measure'>;
}

/** The questions of a scenario, in the order the front page asks them. */
const PAIRS: readonly Pair[] = [
  { key: 'honoOverRaw', id: 'hono', over: 'baseline', base: 'raw', words: { over: 'Hono', base: 'the raw server' } },
  { key: 'workerOverSync', id: 'worker', over: 'worker', base: 'sync', words: { over: 'worker', base: 'sync' } },
  { key: 'asyncOverSync', id: 'async', over: 'async', base: 'sync', words: { over: 'async', base: 'sync' } },
];

const MEASURE_TITLES = { throughput: 'requests/s', bystander: "a bystander request's p99" } as const;

const laneName = (c: Comparison) => `${runtimeLabel(c)}${c.connections === undefined ? '' : ` @${c.connections} conns`}`;

/** The row of one comparison for one pair and measure, when both cells can carry it. */
function rowOf(report: Report, c: Comparison, pair: Pair, measure: RatioWords['measure']): AnswerRow | undefined {
  const ratios: Ratios | undefined = c[pair.key];
  const over = cellOf(report, c, pair.over);
  const base = cellOf(report, c, pair.base);
  if (ratios === undefined || over === undefined || base === undefined) return undefined;
  // A mode that does other work per answer than its base is not compared on requests/s.
  if (measure === 'throughput' && differentWork(report, c.scenario, pair.over) !== undefined) return undefined;
  const ratio = measure === 'throughput' ? (ratios.pairedThroughput ?? ratios.throughput) : ratios.probeP99;
  if (ratio === null || !(ratio > 0)) return undefined;
  // The interval of the runs paired by round where the report has it (as the headline quotes).
  const ci =
    measure === 'throughput'
      ? (ratios.throughputCi95 ?? pairedRatioInterval(over.requestsPerSec.runs, base.requestsPerSec.runs))
      : undefined;
  const lane = laneName(c);
  const words = { ...pair.words, measure };
  const doubt = cellsDoubt([over, base]);
  const costs = measure === 'throughput' && pair.base === 'sync' ? modeCosts(over, base) : undefined;
  // What one request takes on the loop in sync: the figure a "2x" is a multiple of.
  const oneRequest = measure === 'throughput' && pair.base === 'sync' && base.requestsPerSec.median > 0;
  // The ceiling is said once, in the conditions (conditionsText); beside each ratio only what a request cost.
  const costsLine = costs?.cpuRatio === undefined ? '' : `${cpuWords(costs.cpuRatio)} a request`;
  return {
    ...(costsLine === '' ? {} : { costs: costsLine }),
    ...(costs === undefined ? {} : { modeCosts: costs }),
    ...(oneRequest ? { syncRequestMs: 1000 / base.requestsPerSec.median } : {}),
    lane,
    runtime: c.runtime,
    ratio,
    ...(ci === undefined ? {} : { ci }),
    ...(doubt === undefined ? {} : { doubt }),
    verdict: ratioVerdict(ratio, ci, doubt),
    sentence: ratioSentence(lane, words, ratio, ci, doubt),
  };
}

/** Lanes in the report's runtime order, so every picture lists the runtimes alike. */
function laneRank(report: Report): (lane: string) => number {
  const order = report.runtimes.map((r) => r.label ?? r.name);
  return (lane) => {
    const i = order.findIndex((o) => lane === o || lane.startsWith(`${o} `));
    return i === -1 ? order.length : i;
  };
}

/**
 * Every question the report answers, grouped by scenario (the report's order), then by pair
 * (Hono, worker, async over their base): requests/s, then what a bystander request waits (that
 * ratio has no interval in the report).
 */
export function answerQuestions(report: Report): Question[] {
  const scenarios = [...new Set(report.results.map((c) => c.scenario))];
  const rank = laneRank(report);
  return scenarios.flatMap((scenario) => {
    // A --sweep's sized cells answer by size, in their own section (sweep-section.ts), not here.
    const comparisons = report.comparisons.filter((c) => c.scenario === scenario && c.query === undefined);
    return PAIRS.flatMap((pair) =>
      (['throughput', 'bystander'] as const).flatMap((measure): Question[] => {
        const rows = comparisons
          .map((c) => rowOf(report, c, pair, measure))
          .filter((r): r is AnswerRow => r !== undefined)
          .sort((a, b) => rank(a.lane) - rank(b.lane));
        if (rows.length === 0) return [];
        const id = `${scenario}-${pair.id}${measure === 'bystander' ? '-bystander' : ''}`;
        const title = `${scenario}: ${pair.words.over} over ${pair.words.base}, ${MEASURE_TITLES[measure]}`;
        return [{ id, scenario, title, words: { ...pair.words, measure }, rows }];
      }),
    );
  });
}

/** Per runtime lane: where a worker pays, from the worker questions' rows. */
export function workerFindings(questions: readonly Question[]): string[] {
  const worker = questions.filter((q) => q.id === `${q.scenario}-worker`);
  const lanes = [...new Set(worker.flatMap((q) => q.rows.map((r) => r.lane)))];
  return lanes.map((lane) =>
    workerFinding(
      lane,
      worker.flatMap((q) =>
        q.rows
          .filter((r) => r.lane === lane)
          .map((r) => ({
            scenario: q.scenario,
            ratio: r.ratio,
            ...(r.ci === undefined ? {} : { ci: r.ci }),
            ...(r.doubt === undefined ? {} : { doubt: r.doubt }),
            ...(r.costs === undefined ? {} : { costs: r.costs }),
          })),
      ),
    ),
  );
}

const OFF_LOOP: readonly Mode[] = ['async', 'worker'];

/** Per runtime lane and off-loop mode: which calls stayed on the loop, with the figure the verdict rests on. */
export function loopFindings(report: Report): string[] {
  const withVerdict = report.results.filter((c) => OFF_LOOP.includes(c.mode) && c.loop?.verdict !== undefined);
  const swept = connectionsSwept(report);
  const lane = (c: CellResult) => `${runtimeLabel(c)}${swept && c.connections !== undefined ? ` @${c.connections} conns` : ''}`;
  const rank = laneRank(report);
  const lanes = [...new Set(withVerdict.map(lane))].sort((a, b) => rank(a) - rank(b));
  return lanes.flatMap((name) =>
    OFF_LOOP.flatMap((mode) => {
      const cells = withVerdict.filter((c) => lane(c) === name && c.mode === mode);
      if (cells.length === 0) return [];
      return [
        loopFinding(
          name,
          mode,
          cells.map((c) => loopReading(report, c)),
        ),
      ];
    }),
  );
}

function loopReading(report: Report, cell: CellResult): LoopReading {
  const sync = report.results.find(
    (c) =>
      laneOf(c) === laneOf(cell) &&
      c.scenario === cell.scenario &&
      c.mode === 'sync' &&
      c.connections === cell.connections &&
      c.processes === cell.processes,
  );
  const lag = measuredLagP99(cell);
  const syncLag = measuredLagP99(sync);
  return {
    scenario: cell.scenario,
    verdict: cell.loop?.verdict ?? 'left',
    ...(cell.loop?.ticksShare === undefined ? {} : { ticksShare: cell.loop.ticksShare }),
    ...(lag === undefined || syncLag === undefined ? {} : { lagP99Ms: lag, syncLagP99Ms: syncLag }),
  };
}

/** The findings people quote, with the questions they rest on. */
export interface Answers {
  /** The conditions every finding holds under: connections, the servers' CPUs, runtime versions, inputs. */
  conditions?: string;
  questions: Question[];
  /** Per runtime and off-loop mode: stayed on the loop or left it. Empty when no cell had a loop check. */
  loop: string[];
  /** Per runtime: where a worker pays. Empty when no scenario ran a worker. */
  worker: string[];
}

/**
 * "Under 10 connections; the servers on 2 CPUs; node 24.21.0, bun 1.4.5, deno 2.9.6; each
 * scenario at its default input (hash cost 10, fib(28), sleep 20 ms)": what a quoted finding
 * holds under, said beside it.
 */
export function conditionsText(report: Report): string {
  const p = report.parameters;
  const cpus = Math.max(0, ...report.results.map((c) => c.serverCpus ?? 0));
  const pinning = report.environment.pinning;
  const servers =
    cpus > 0
      ? `the servers on ${cpus} CPU${cpus === 1 ? '' : 's'}`
      : pinning !== undefined && 'server' in pinning
        ? `the servers on CPUs ${pinning.server}`
        : `the servers on the host's ${report.environment.cpu.count} CPUs`;
  const versions = report.runtimes
    .filter((r) => r.status === 'ok')
    .map((r) => `${r.label ?? r.name} ${r.version}`)
    .join(', ');
  const inputs = `hash cost ${p.hashCost}, fib(${p.fibN}), sleep ${p.sleepMs} ms, the catalogue's at their defaults`;
  const ceiling =
    cpus > 0
      ? ` With ${cpus} CPU${cpus === 1 ? '' : 's'}, moving computation off the loop can serve at most about ${cpus}x what sync does.`
      : '';
  return `Under ${p.connections} connections; ${servers}${versions === '' ? '' : `; ${versions}`}; inputs: ${inputs}.${ceiling}`;
}

export function benchAnswers(report: Report): Answers {
  const questions = answerQuestions(report);
  return { conditions: conditionsText(report), questions, loop: loopFindings(report), worker: workerFindings(questions) };
}
