/** The paired ratios report.json carries: modes against sync, N processes against 1. */
import type { RuntimeName } from '@bench/app';
import type { ScenarioName } from './names.ts';

export interface Ratios {
  throughput: number | null;
  p99: number | null;
  probeP99: number | null;
  /**
   * added: from the runs paired by round (stats/paired.ts): the geometric mean of the
   * per-round throughput ratios, its 95 % interval, and how many pairs. An interval holding 1
   * reads "no gain" or "could not tell" (present/verdict-words.ts).
   */
  pairedThroughput?: number;
  throughputCi95?: [number, number];
  pairs?: number;
}

/** added: Ratios plus total RSS (every process of the server), over / base. */
export interface ProcessRatios extends Ratios {
  rss: number | null;
  overRssMB?: number;
  baseRssMB?: number;
}

/** added: one runtime and scenario, N processes against 1 (see report/process-ratios.ts). */
export interface ProcessComparison {
  runtime: RuntimeName;
  scenario: ScenarioName;
  processes: number;
  syncNOverSync1?: ProcessRatios;
  async1OverSyncN?: ProcessRatios;
  asyncNOverAsync1?: ProcessRatios;
}

export interface Comparison {
  runtime: RuntimeName;
  /** added: the installation's label when the plan named versions ("node@24"). */
  runtimeLabel?: string;
  scenario: ScenarioName;
  /** added: the connection count of the cells compared, in a --connections sweep. */
  connections?: number;
  /** added: the process count both sides ran with, when --processes was given. */
  processes?: number;
  /** added, with --sweep: the query both sides' requests carried ("kb=64"). */
  query?: string;
  asyncOverSync?: Ratios;
  workerOverSync?: Ratios;
  /** added: Hono /hello over raw /hello requests/s (scenario "hello" only). */
  honoOverRaw?: Ratios;
}
