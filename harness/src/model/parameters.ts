/** report.json's parameters: what a run was asked to do (the contract: docs/design.md). */
import type { AbPlan } from './ab.ts';
import type { Mode, ScenarioName } from './names.ts';

export interface Parameters {
  /** added, with bench:ab: what A and B were and the margin the verdicts hold to. */
  ab?: AbPlan;
  connections: number;
  /** added: --connections as a list (a sweep): each count is then a dimension of the cells, which carry their own `connections`. */
  connectionsSweep?: number[];
  durationSec: number;
  warmupSec: number;
  runs: number;
  /** added: probe rate in requests/s, and per-scenario server settings. */
  probeRatePerSec: number;
  hashCost: number;
  fibN: number;
  sleepMs: number;
  fileCount: number;
  fileSizeBytes: number;
  /**
   * added: whether file reads hit the page cache ("warm") or the files were evicted before each
   * run ("cold", --cold, where the OS allows it; the reason is given when it did not).
   */
  fileCache: 'warm' | 'cold';
  coldUnavailable?: string;
  /**
   * added: with warm reads, the file scenario's inputs were read through once right
   * before its cells, so no runtime's first run pays for pages the kernel had put out meanwhile
   * (a VM may page out file pages idle for a minute): the share of their bytes in the page cache
   * before and after (undefined where fincore cannot tell), and how long the read took.
   */
  filesPrimed?: { residentBefore?: number; residentAfter?: number; sec: number };
  /**
   * added: the state the servers' allocators were held in (--allocator; system/allocator.ts):
   * "fresh" (every large buffer mapped fresh), "keep" (freed memory kept, --keep-freed-memory) or
   * "shipped" (left to adjust itself). Absent in older reports: "keep" when serverEnv is there,
   * else "shipped".
   */
  allocator?: AllocatorState;
  /** added: the allocator settings added to every server's environment (system/allocator.ts). */
  serverEnv?: Record<string, string>;
  /**
   * added: how runs of one cell on different runtimes are ordered. "interleaved": A B C A B C,
   * so a slow minute on the machine is shared by all runtimes; "sequential": all of A, then B.
   */
  schedule: 'interleaved' | 'sequential';
  /** added: with --target-cv, runs are added (up to maxRuns) until each cell's CV is at most this. */
  targetCv?: number;
  maxRuns?: number;
  /**
   * added: runs are added (up to maxRuns, within budgetSec) until each cell's 95 %
   * interval is within this share of its median (hello: twice it).
   */
  targetPrecision?: number;
  budgetSec?: number;
  /** added: scenarios whose cells were cross-checked with wrk, or why none were. */
  crossCheck?: ScenarioName[] | { reason: string };
  /** added: the longest the harness waits for a working server to drain before restarting it. */
  drainCapSec?: number;
  /** added: runs are lengthened to hold this many completed requests; warm-up goes on until steady, up to warmupMaxSec. */
  minRequests?: number;
  warmupMaxSec?: number;
  /** added: per-request timeout of the load, in seconds (requests waiting longer count as timeouts). */
  timeoutSec?: number;
  /** added: --baseline, the installation other versions of its runtime are compared with (default: the oldest). */
  versionBaseline?: string;
  /**
   * added, when --processes named auto: the count it stood for and whose CPUs it
   * counted ("this host", or the server host's name with --server-host).
   */
  autoProcesses?: { count: number; cpusOf: string };
  /** added, --server-cpus N: the servers and their pools ran on N CPUs (environment.pinning names which). */
  serverCpus?: number;
  /** added: server processes each cell's runs were split between (the servers restarted midway through each group's rounds). */
  serverProcesses?: number;
  /** added, bench:ab: a new pair of server processes every this many rounds (each pair is one unit of a cell's interval). */
  roundsPerProcess?: number;
  /**
   * added: the scenarios planned, in the report's order (hello, the built-in modules, then the
   * user's own in the order given), each with its module's one-line description and, for a
   * module of the user's own (--scenario-file), its file (from the repository's root when it
   * lies inside it).
   */
  scenarios?: ScenarioEntry[];
  /** added, with --sweep: the scenario, the input parameter and its values (ascending) its cells were measured at. */
  sweep?: SweepParameters;
}

/** added: --sweep json:kb=16,64,256 (bench/sweep-plan.ts). */
export interface SweepParameters {
  scenario: ScenarioName;
  parameter: string;
  /** As the query carries them ("64"), ascending. */
  values: string[];
}

export interface ScenarioEntry {
  name: ScenarioName;
  description: string;
  file?: string;
  /** added: modes whose answer is not sync's work per request (the module's differentWork): their requests/s are not compared. */
  differentWork?: { modes: Mode[]; why: string; compares: string };
}

/** What --allocator holds the servers' allocators to (system/allocator.ts). */
export type AllocatorState = 'fresh' | 'keep' | 'shipped';

/**
 * Whether the run swept connection counts (--connections 1,10,100). Every cell carries its count,
 * but only a sweep makes it a dimension: the labels name it ("sync @100"), the comparisons and the
 * cell files keep each count apart. Older reports named a cell's count only in a sweep.
 */
export function connectionsSwept(report: { parameters: Pick<Parameters, 'connectionsSweep'> }): boolean {
  return report.parameters.connectionsSweep !== undefined;
}
