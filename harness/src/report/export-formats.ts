/**
 * A bench report exported for the dashboards people already run: Bencher's metric format (BMF:
 * benchmark -> measure -> { value, lower_value, upper_value }) and github-action-benchmark's
 * custom tools (an array of { name, unit, value, range, extra }: customBiggerIsBetter for
 * requests/s, customSmallerIsBetter for p99). Only measured (ok) cells; an A/B report adds each
 * cell's B/A ratio with its interval. Pure.
 */
import type { CellResult } from '../model/cell.ts';
import type { Report } from '../model/report.ts';
import { laneOf } from './lanes.ts';

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

function bmf(report: Report): Bmf {
  const out: Bmf = {};
  for (const cell of measured(report)) {
    const rps = cell.requestsPerSec;
    out[benchmarkName(cell)] = {
      throughput: { value: round(rps.median), lower_value: round(rps.ci95[0]), upper_value: round(rps.ci95[1]) },
      'p99-latency-ms': { value: round(cell.latencyMs.p99) },
    };
  }
  for (const c of report.ab?.cells ?? []) {
    if (c.ratio === undefined || c.ci95 === undefined) continue;
    out[`${c.runtime} ${c.scenario}/${c.mode}${c.query === undefined ? '' : ` ${c.query}`} B/A`] = {
      ratio: { value: c.ratio, lower_value: c.ci95[0], upper_value: c.ci95[1] },
    };
  }
  return out;
}

function actionBenchmark(report: Report, metric: 'rps' | 'p99'): ActionBenchmarkResult[] {
  return measured(report).map((cell) => {
    const rps = cell.requestsPerSec;
    const extra = `${rps.runs.length} runs; 95 % CI ${round(rps.ci95[0])}-${round(rps.ci95[1])} req/s; p99 ${cell.latencyMs.p99} ms; ${report.environment.commit.slice(0, 10)}`;
    return metric === 'rps'
      ? { name: benchmarkName(cell), unit: 'req/s', value: round(rps.median), range: `± ${round((rps.ci95[1] - rps.ci95[0]) / 2)}`, extra }
      : { name: `${benchmarkName(cell)} p99`, unit: 'ms', value: round(cell.latencyMs.p99), extra };
  });
}

/** The report in that format, as the JSON text to write. */
export function exportReport(report: Report, format: ExportFormat): string {
  const value = format === 'bmf' ? bmf(report) : actionBenchmark(report, format === 'github-action-benchmark' ? 'rps' : 'p99');
  return `${JSON.stringify(value, null, 2)}\n`;
}
