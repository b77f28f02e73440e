/**
 * The same question at another core count: what each cell served with its servers on one set of
 * CPUs, beside what its CPU costs per request, measured in a run on another set, predict. A
 * server's requests/s is bounded twice: by the CPUs it may use over the CPU a request costs in
 * all (every thread), and by one CPU over what a request costs on the loop's thread (the loop
 * runs on one). With one CPU a worker can only add its hop, so its gain over sync falls near 1x;
 * a bystander's wait does not depend on the core count in the same way. Pure.
 */
import type { CellResult, CpuPerRequest } from '../model/cell.ts';
import type { Report } from '../model/report.ts';
import { totalCpuMs } from './cpu-costs.ts';

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

/** One row per cell measured ok in both reports, each side predicted from the other's per-request costs. */
export function coreCountRows(a: Report, b: Report): CoreCountRow[] {
  const other = new Map(b.results.filter((c) => c.status === 'ok').map((c) => [key(c), c]));
  return a.results.flatMap((ca) => {
    const cb = other.get(key(ca));
    if (ca.status !== 'ok' || cb === undefined || ca.serverCpus === undefined || cb.serverCpus === undefined) return [];
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
