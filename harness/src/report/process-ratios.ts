/**
 * "Then run one process per core", as ratios: for each runtime and scenario measured
 * with --processes, the N-process cells against the 1-process ones. Memory is the price of this
 * answer, so each ratio carries total RSS (all processes of the server) beside requests/s, load
 * p99 and probe p99. Pure functions.
 */
import { cellRatios, roundRatio } from './mode-ratios.ts';
import type { CellResult } from '../model/cell.ts';
import type { ProcessComparison, ProcessRatios } from '../model/comparison.ts';
import type { Mode } from '../model/names.ts';

function find(cells: readonly CellResult[], mode: Mode, processes: number): CellResult | undefined {
  return cells.find((c) => c.mode === mode && c.processes === processes);
}

export function processRatios(over: CellResult | undefined, base: CellResult | undefined): ProcessRatios {
  const ok = over?.status === 'ok' && base?.status === 'ok' && base.server.rssMB > 0 && over.server.rssMB > 0;
  return {
    ...cellRatios(over, base),
    rss: ok ? roundRatio(over.server.rssMB / base.server.rssMB) : null,
    ...(over?.status === 'ok' ? { overRssMB: over.server.rssMB } : {}),
    ...(base?.status === 'ok' ? { baseRssMB: base.server.rssMB } : {}),
  };
}

/**
 * Per runtime, scenario and process count N > 1 (when 1 was measured too): sync xN over sync x1
 * (what processes buy blocking code), async x1 over sync xN (the async answer against the
 * processes answer) and async xN over async x1 (whether processes add to async).
 */
export function processComparisons(results: readonly CellResult[]): ProcessComparison[] {
  const out: ProcessComparison[] = [];
  const groups = new Map<string, CellResult[]>();
  for (const cell of results) {
    if (cell.processes === undefined) continue;
    const key = `${cell.runtime}\u0000${cell.scenario}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  for (const cells of groups.values()) {
    const first = cells[0];
    if (first === undefined || !cells.some((c) => c.processes === 1)) continue;
    const counts = [...new Set(cells.map((c) => c.processes ?? 1))].filter((n) => n > 1).sort((a, b) => a - b);
    for (const n of counts) {
      const sync1 = find(cells, 'sync', 1);
      const syncN = find(cells, 'sync', n);
      const async1 = find(cells, 'async', 1);
      const asyncN = find(cells, 'async', n);
      out.push({
        runtime: first.runtime,
        scenario: first.scenario,
        processes: n,
        ...(sync1 !== undefined || syncN !== undefined ? { syncNOverSync1: processRatios(syncN, sync1) } : {}),
        ...(async1 !== undefined || syncN !== undefined ? { async1OverSyncN: processRatios(async1, syncN) } : {}),
        ...(async1 !== undefined || asyncN !== undefined ? { asyncNOverAsync1: processRatios(asyncN, async1) } : {}),
      });
    }
  }
  return out;
}
