/**
 * A bench report exported for the dashboards people already run: Bencher's metric format (BMF:
 * benchmark -> measure -> { value, lower_value, upper_value }) and github-action-benchmark's
 * custom tools (an array of { name, unit, value, range, extra }: customBiggerIsBetter for
 * requests/s, customSmallerIsBetter for p99). Only measured (ok) cells; an A/B report adds each
 * cell's B/A ratio with the 95 % interval of its geometric mean, to BMF and beside requests/s
 * (not beside p99: a ratio of requests/s is bigger-is-better). Pure.
 *
 * A cell's requests/s goes out as the mean of its runs, not the report's headline median: the
 * report's interval (Summary.ci95) is the 95 % interval of the mean, and a dashboard draws the
 * bounds around the value it is given. Where the report has no interval (too few runs) no bounds
 * go out; the mean is still the value, so one series never switches statistic (with one or two
 * runs it is the median anyway).
 */
import type { AbCell } from '../model/ab.ts';
import type { CellResult, Summary } from '../model/cell.ts';
import type { Report } from '../model/report.ts';
import { mean } from '../stats/stats.ts';
import { laneOf } from '../model/cell-lookups.ts';

export const EXPORT_FORMATS = ['bmf', 'github-action-benchmark', 'github-action-benchmark-p99'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}
type Bmf = Record<string, Record<string, BmfMetric>>;

/** github-action-benchmark's BenchmarkResult. */
interface ActionBenchmarkResult {
  name: string;
  value: number;
  unit: string;
  range?: string;
  extra?: string;
}

const round = (x: number, digits = 4): number => Number(x.toPrecision(digits + 2));

/** "node hash/sync", "node@24 fib/worker n=30", "node-A checksum/sync": one name per cell of the report. */
function benchmarkName(cell: CellResult): string {
  const connections = cell.connections === undefined ? '' : ` c${cell.connections}`;
  const processes = cell.processes === undefined ? '' : ` x${cell.processes}`;
  return `${laneOf(cell)} ${cell.scenario}/${cell.mode}${cell.query === undefined ? '' : ` ${cell.query}`}${processes}${connections}`;
}

const measured = (report: Report): CellResult[] => report.results.filter((c) => c.status === 'ok');

/** The mean of a cell's runs and, where the report gives one, its 95 % interval of the mean. */
interface Throughput {
  mean: number;
  runs: number;
  ci95?: [number, number];
}

function throughputOf(rps: Summary): Throughput {
  const runs = rps.runs.length;
  const m = round(mean(rps.runs));
  if (rps.intervalNote !== undefined || runs < 2) return { mean: m, runs };
  const ci95: [number, number] = [round(rps.ci95[0]), round(rps.ci95[1])];
  // The report rounds the runs and the bounds each on their own, so the mean of the rounded runs
  // can stray past a bound of a near-zero-width interval by that rounding.
  return { mean: Math.min(ci95[1], Math.max(ci95[0], m)), runs, ci95 };
}

/** "node hash/sync B/A": an A/B cell's name, as A's and B's lanes share it. */
const abName = (c: AbCell): string => `${c.runtime} ${c.scenario}/${c.mode}${c.query === undefined ? '' : ` ${c.query}`} B/A`;

/** A/B cells with a ratio and its interval: those without had too few pairs to judge. */
const ratios = (report: Report): Array<AbCell & { ratio: number; ci95: [number, number] }> =>
  (report.ab?.cells ?? []).flatMap((c) => (c.ratio === undefined || c.ci95 === undefined ? [] : [{ ...c, ratio: c.ratio, ci95: c.ci95 }]));

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;

function bmf(report: Report): Bmf {
  const out: Bmf = {};
  for (const cell of measured(report)) {
    const t = throughputOf(cell.requestsPerSec);
    out[benchmarkName(cell)] = {
      throughput: t.ci95 === undefined ? { value: t.mean } : { value: t.mean, lower_value: t.ci95[0], upper_value: t.ci95[1] },
      'p99-latency-ms': { value: round(cell.latencyMs.p99) },
    };
  }
  // B/A is the geometric mean of the pairs' ratios; its bounds are that geometric mean's 95 % interval.
  for (const c of ratios(report)) out[abName(c)] = { ratio: { value: c.ratio, lower_value: c.ci95[0], upper_value: c.ci95[1] } };
  return out;
}

function rpsResult(report: Report, cell: CellResult): ActionBenchmarkResult {
  const t = throughputOf(cell.requestsPerSec);
  const runs = `mean of ${t.runs} run${t.runs === 1 ? '' : 's'}`;
  const interval =
    t.ci95 === undefined
      ? (cell.requestsPerSec.intervalNote ?? 'too few runs for an interval')
      : `95 % CI of the mean ${t.ci95[0]}-${t.ci95[1]} req/s`;
  const extra = `${runs}; ${interval}; median ${round(cell.requestsPerSec.median)} req/s; p99 ${cell.latencyMs.p99} ms; ${report.environment.commit.slice(0, 10)}`;
  // The half-width from the upper bound: the lower one is cut at zero when the runs disagree wildly.
  const range = t.ci95 === undefined ? {} : { range: `± ${round(t.ci95[1] - t.mean)}` };
  return { name: benchmarkName(cell), unit: 'req/s', value: t.mean, ...range, extra };
}

function p99Result(report: Report, cell: CellResult): ActionBenchmarkResult {
  const runs = cell.requestsPerSec.runs.length;
  const extra = `median of ${runs} run${runs === 1 ? "'s" : "s'"} p99; ${report.environment.commit.slice(0, 10)}`;
  return { name: `${benchmarkName(cell)} p99`, unit: 'ms', value: round(cell.latencyMs.p99), extra };
}

/** An A/B cell's B/A of requests/s: bigger is better, so only beside requests/s. */
function ratioResult(report: Report, c: AbCell & { ratio: number; ci95: [number, number] }): ActionBenchmarkResult {
  const seen = c.detectable === null ? '' : `; could see ${percent(c.detectable)}`;
  // The interval's units: process pairs when there are 3 or more, else rounds (AbCell.ratio).
  const over = (c.processPairs ?? 0) >= 3 ? `${c.processPairs} process pairs` : `${c.pairs} rounds`;
  const adjusted = c.speedAdjusted === undefined ? '' : ", adjusted for the machine's speed";
  const extra = `${c.verdict} (margin ±${percent(c.margin)})${seen}; geometric mean B/A over ${over}${adjusted}, 95 % CI ${c.ci95[0]}-${c.ci95[1]}; ${report.environment.commit.slice(0, 10)}`;
  // lo-hi, not ±: the interval of a geometric mean is not symmetric about it.
  return { name: abName(c), unit: 'B/A', value: c.ratio, range: `${c.ci95[0]}-${c.ci95[1]}`, extra };
}

function actionBenchmark(report: Report, metric: 'rps' | 'p99'): ActionBenchmarkResult[] {
  return metric === 'rps'
    ? [...measured(report).map((cell) => rpsResult(report, cell)), ...ratios(report).map((c) => ratioResult(report, c))]
    : measured(report).map((cell) => p99Result(report, cell));
}

/** The report in that format, as the JSON text to write. */
export function exportReport(report: Report, format: ExportFormat): string {
  const value = format === 'bmf' ? bmf(report) : actionBenchmark(report, format === 'github-action-benchmark' ? 'rps' : 'p99');
  return `${JSON.stringify(value, null, 2)}\n`;
}
