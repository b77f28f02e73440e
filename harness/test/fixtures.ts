/** Builders of fixed inputs for the pure-module tests: sane defaults, override what the test is about. */
import type { CellResult, RunResult } from '../src/model/cell.ts';
import type { Environment } from '../src/model/environment.ts';
import type { Parameters } from '../src/model/parameters.ts';
import type { Report, RuntimeEntry } from '../src/model/report.ts';

export function makeRun(overrides: Partial<RunResult> = {}): RunResult {
  return {
    requestsPerSec: 1000,
    requests: 10_000,
    latencyMs: { p50: 5, p90: 8, p99: 12, p999: 20, max: 30 },
    probeLatencyMs: { p50: 1, p99: 2, max: 4, count: 100 },
    eventLoopLagMs: { p99: 1.5, max: 3 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    serverCount: 10_000,
    clientCount: 10_000,
    server: { cpuPercent: 100, rssMB: 80 },
    client: { cpuPercent: 50 },
    ...overrides,
  };
}

/** A summarised cell with the figures the comparison and rendering tests look at. */
export function makeCell(
  overrides: Partial<CellResult> & Pick<CellResult, 'runtime' | 'scenario' | 'mode'>,
  figures: { rps?: number; p99?: number; probeP99?: number } = {},
): CellResult {
  const rps = figures.rps ?? 1000;
  return {
    path: `/${overrides.scenario}/${overrides.mode}`,
    status: 'ok',
    flags: [],
    requestsPerSec: { median: rps, ci95: [rps - 10, rps + 10], cv: 0.01, runs: [rps, rps, rps] },
    latencyMs: { p50: 5, p90: 8, p99: figures.p99 ?? 12, p999: 20, max: 30 },
    probeLatencyMs: { p50: 1, p99: figures.probeP99 ?? 2, max: 4 },
    eventLoopLagMs: { p99: 1.5, max: 3 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    server: { cpuPercent: 100, rssMB: 80 },
    client: { cpuPercent: 50 },
    runDetails: [],
    ...overrides,
  };
}

export const environment: Environment = {
  os: 'Ubuntu 24.04.1 LTS',
  kernel: '6.8.0-45-generic',
  cpu: { model: 'AMD EPYC 7763', count: 4 },
  memoryBytes: 16 * 1024 ** 3,
  commit: '0123456789abcdef0123456789abcdef01234567',
  dirty: true,
  loadGenerator: { name: 'autocannon', version: '8.0.0' },
  harnessNode: '20.20.2',
};

export const parameters: Parameters = {
  connections: 100,
  durationSec: 10,
  warmupSec: 3,
  runs: 3,
  probeRatePerSec: 20,
  hashCost: 10,
  fibN: 27,
  sleepMs: 20,
  fileCount: 64,
  fileSizeBytes: 64 * 1024,
  fileCache: 'warm',
  schedule: 'interleaved',
};

export const runtimes: RuntimeEntry[] = [
  { name: 'node', version: '20.20.2', status: 'ok' },
  { name: 'bun', version: '1.2.3', status: 'ok' },
  { name: 'deno', version: '', status: 'skipped', reason: 'deno not installed' },
];

/** A complete bench report of `results` on the fixed environment above. */
export function makeReport(results: CellResult[], overrides: Partial<Report> = {}): Report {
  return {
    schemaVersion: 1,
    createdAt: '2025-01-02T03:04:05.000Z',
    status: 'complete',
    environment,
    parameters,
    runtimes,
    results,
    comparisons: [],
    ...overrides,
  };
}

/** The machine-speed sampler's summary of a session on two pinned vCPUs. */
export function makeMachineSpeed(overrides: Partial<NonNullable<Environment['machineSpeed']>> = {}): Environment['machineSpeed'] {
  return {
    vcpus: 2,
    pinned: true,
    intervalMs: 250,
    coresWorth: { min: 1.0, max: 1.9 },
    overheadPercent: 0.3,
    samples: 900,
    idleFloor: 0.02,
    ...overrides,
  };
}
