/**
 * The same question at another core count: what each cell served with its servers on one set of
 * CPUs, beside what its CPU costs per request, measured in a run on another set, predict. A
 * server's requests/s is bounded twice: by the CPUs it may use over the CPU a request costs in
 * all (every thread), and by one CPU over what a request costs on the loop's thread (the loop
 * runs on one). With one CPU a worker can only add its hop, so its gain over sync falls near 1x;
 * a bystander's wait does not depend on the core count in the same way. A mode that does not do
 * sync's work per answer (report/different-work.ts: starve's async answers before its blockers
 * finish) is left out: its requests/s count other work, so neither its prediction nor its gain
 * over sync says what the others' do. Pure.
 */
import type { CellResult, CpuPerRequest } from '../model/cell.ts';
import type { Report } from '../model/report.ts';
import { totalCpuMs } from './cpu-costs.ts';
import { differentWork } from './different-work.ts';

/** requests/s the costs allow on `cpus` CPUs free for the server: min(cpus / total, 1 / loop). */
export function predictedRps(costs: CpuPerRequest, cpus: number): number | undefined {
  const total = totalCpuMs(costs);
  if (!(total > 0) || !(costs.loopMs > 0) || !(cpus > 0)) return undefined;
  return Math.min((cpus * 1000) / total, 1000 / costs.loopMs);
}

/**
 * CPUs free for the server in a run: its affinity, less what the load generator took where it
 * shared those CPUs (pinned on all of them, or not pinned).
 */
export function serverCpusFree(report: Report, cell: CellResult): number | undefined {
  const cpus = cell.serverCpus;
  if (cpus === undefined) return undefined;
  const pinning = report.environment.pinning;
  const apart =
    pinning !== undefined &&
    'server' in pinning &&
    pinning.clientCpus !== undefined &&
    pinning.clientCpus + cpus <= report.environment.cpu.count;
  return apart ? cpus : Math.max(0.1, cpus - cell.client.cpuPercent / 100);
}

export interface CoreCountRow {
  runtime: string;
  scenario: string;
  mode: string;
  /** Per report (in the order given): its servers' CPUs, the prediction from the other report's costs, and the measurement. */
  at: { cpus: number; predicted?: number; measured: number; probeP99Ms: number }[];
}

const key = (c: CellResult) => `${c.runtimeLabel ?? c.runtime}\u0000${c.scenario}\u0000${c.mode}`;

/** Why a cell's mode is left out of the table (either report says it is other work than sync's), or undefined. */
function otherWork(a: Report, b: Report, cell: CellResult): string | undefined {
  return (differentWork(a, cell.scenario, cell.mode) ?? differentWork(b, cell.scenario, cell.mode))?.why;
}

/** The scenario/mode pairs the table leaves out, and why: "starve/async" and starve's own words. */
export function coreCountLeftOut(a: Report, b: Report): { scenario: string; mode: string; why: string }[] {
  const seen = new Map<string, { scenario: string; mode: string; why: string }>();
  for (const cell of [...a.results, ...b.results]) {
    const why = otherWork(a, b, cell);
    if (why !== undefined) seen.set(`${cell.scenario}/${cell.mode}`, { scenario: cell.scenario, mode: cell.mode, why });
  }
  return [...seen.values()];
}

/**
 * One row per cell measured ok in both reports, each side predicted from the other's per-request
 * costs; modes that do other work than sync's are left out (coreCountLeftOut).
 */
export function coreCountRows(a: Report, b: Report): CoreCountRow[] {
  const other = new Map(b.results.filter((c) => c.status === 'ok').map((c) => [key(c), c]));
  return a.results.flatMap((ca) => {
    const cb = other.get(key(ca));
    if (ca.status !== 'ok' || cb === undefined || ca.serverCpus === undefined || cb.serverCpus === undefined) return [];
    if (otherWork(a, b, ca) !== undefined) return [];
    const side = (report: Report, cell: CellResult, costsFrom: CellResult) => {
      const free = serverCpusFree(report, cell);
      const predicted =
        costsFrom.cpuPerRequestMs === undefined || free === undefined ? undefined : predictedRps(costsFrom.cpuPerRequestMs, free);
      return {
        cpus: cell.serverCpus ?? 0,
        ...(predicted === undefined ? {} : { predicted }),
        measured: cell.requestsPerSec.median,
        probeP99Ms: cell.probeLatencyMs.p99,
      };
    };
    return [{ runtime: ca.runtimeLabel ?? ca.runtime, scenario: ca.scenario, mode: ca.mode, at: [side(a, ca, cb), side(b, cb, ca)] }];
  });
}
