// Instructions per request beside CPU time per request, cell by cell, from one plan measured both
// ways: their ratio (instructions a nanosecond of the server's CPU) should be about the same in
// every cell of one host, and a cell far from the others is one where a measure sees something the
// other does not. Pure: fixed inputs in, rows and words out.
import type { CellResult } from '../model/cell.ts';
import type { InstructionAgreement, InstructionBeside, InstructionCellRecord } from '../model/instructions.ts';
import { median } from '../stats/stats.ts';

/** What a count cannot see, said once under every table of instruction figures. */
export const CAVEAT =
  'Instructions are not time: a count sees user-space work only, not kernel time, waiting (I/O, timers, the pool’s queue) or parallel speed-up, models caches and branches only roughly, carries code-layout luck, and counts native code on the path Valgrind’s CPU allows (it lacks some features the host has); wall clock judges those.';

/**
 * A cell is flagged when its rate is more than this factor from the median either way. CPU time
 * a request from one wall-clock cell scatters by 10-15 % between server processes on these VMs,
 * and the count by under 1 %, so a factor of 1.5 (about three times that scatter) is not noise:
 * it is a cell where one measure sees work or stalls the other does not.
 */
export const FLAG_FACTOR = 1.5;

const totalCpuMs = (c: NonNullable<CellResult['cpuPerRequestMs']>): number => c.loopMs + c.poolMs + c.helperMs;

type WallCell = Pick<
  CellResult,
  'runtime' | 'runtimeLabel' | 'scenario' | 'mode' | 'status' | 'cpuPerRequestMs' | 'connections' | 'query' | 'processes'
>;

/** Each counted cell beside every wall-clock cell of its lane, scenario and mode (one a connection count). */
function joined(
  results: readonly WallCell[],
  cells: readonly InstructionCellRecord[],
): Omit<InstructionBeside, 'overMedian' | 'flagged' | 'why'>[] {
  const rows: Omit<InstructionBeside, 'overMedian' | 'flagged' | 'why'>[] = [];
  for (const counted of cells) {
    if (counted.status !== 'ok' || counted.perRequest === undefined) continue;
    for (const wall of results) {
      const cpu = wall.cpuPerRequestMs;
      // A sized cell (a query) or one of several processes is other work than the count's.
      if (wall.query !== undefined || (wall.processes ?? 1) !== 1) continue;
      if ((wall.runtimeLabel ?? wall.runtime) !== counted.lane || wall.scenario !== counted.scenario || wall.mode !== counted.mode)
        continue;
      if (wall.status === 'failed' || cpu === undefined || !(totalCpuMs(cpu) > 0)) continue;
      rows.push({
        lane: counted.lane,
        runtime: counted.runtime,
        scenario: counted.scenario,
        mode: counted.mode,
        ...(wall.connections === undefined ? {} : { connections: wall.connections }),
        instructionsPerRequest: counted.perRequest,
        cpuMsPerRequest: totalCpuMs(cpu),
        cpuByThreadMs: cpu,
        instructionsPerCpuNs: counted.perRequest / (totalCpuMs(cpu) * 1e6),
      });
    }
  }
  return rows;
}

/**
 * A sync cell runs its work on the loop: CPU on its pool threads beyond this share of its whole is
 * other work the process did during its runs (a worker starting up after another cell's), which
 * the count, a few requests in a window of its own, did not see.
 */
const STRAY_POOL_SHARE = 0.2;

/** Why a cell's rate may be off the others', by its direction (and, for a sync cell, its pool's CPU). */
function whyOff(overMedian: number, mode: string, cpu: NonNullable<CellResult['cpuPerRequestMs']>): string {
  if (overMedian < 1 && mode === 'sync' && cpu.poolMs > STRAY_POOL_SHARE * totalCpuMs(cpu))
    return 'CPU time on pool threads, which a sync cell does not use: other work in the server during its wall-clock runs (a worker starting up after another cell’s), not in the counted window';
  return overMedian < 1
    ? 'more CPU time than the instructions account for: kernel time (sockets, files, page faults), cache or branch misses, or threads contending under the wall-clock load'
    : 'more instructions than the CPU time accounts for: native code on a longer path under Valgrind, which hides CPU features it does not emulate (SHA extensions, AVX-512), other work that fell in the counted window (a worker starting up, a timer), fast cache-friendly code, or per-request work the wall-clock load shared between requests';
}

/** Sample standard deviation of log(x): about the relative spread for small spreads. */
function sdOfLog(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const logs = xs.map(Math.log);
  const m = logs.reduce((s, x) => s + x, 0) / logs.length;
  return Math.sqrt(logs.reduce((s, x) => s + (x - m) ** 2, 0) / (logs.length - 1));
}

/**
 * The counted cells beside their wall-clock twins, with each one's rate against the median, and
 * how steady the rate is over them; undefined when no counted cell has a wall-clock twin.
 */
export function sideBySide(
  results: readonly WallCell[],
  cells: readonly InstructionCellRecord[],
  flagFactor: number = FLAG_FACTOR,
): { beside: InstructionBeside[]; agreement: InstructionAgreement } | undefined {
  const rows = joined(results, cells);
  if (rows.length === 0) return undefined;
  const rates = rows.map((r) => r.instructionsPerCpuNs);
  const mid = median(rates);
  const beside = rows.map((r): InstructionBeside => {
    const overMedian = r.instructionsPerCpuNs / mid;
    const flagged = overMedian > flagFactor || overMedian < 1 / flagFactor;
    return { ...r, overMedian, flagged, ...(flagged ? { why: whyOff(overMedian, r.mode, r.cpuByThreadMs) } : {}) };
  });
  const steady = beside.filter((b) => !b.flagged).map((b) => b.instructionsPerCpuNs);
  return {
    beside,
    agreement: {
      cells: beside.length,
      medianPerCpuNs: mid,
      ...spread(rates),
      flagFactor,
      flagged: beside.length - steady.length,
      ...(steady.length < 2 || steady.length === beside.length ? {} : { unflagged: spread(steady) }),
    },
  };
}

const spread = (rates: readonly number[]) => ({ maxOverMin: Math.max(...rates) / Math.min(...rates), sdLog: sdOfLog(rates) });

/** "Across 17 cells the rate was 2.41 instructions a CPU ns (median), 1.62x from lowest to highest, sd 14 %; 2 cells flagged." */
export function agreementText(a: InstructionAgreement): string {
  const rate = `${a.medianPerCpuNs.toFixed(2)} instructions a nanosecond of the server's CPU`;
  if (a.cells < 2) return `One cell: ${rate}, no other to hold it against.`;
  const range = (s: { maxOverMin: number; sdLog: number }) =>
    `${s.maxOverMin.toFixed(2)}x from the lowest to the highest, sd ${(s.sdLog * 100).toFixed(0)} %`;
  const flagged =
    a.flagged === 0
      ? `none further than ${a.flagFactor}x from it`
      : `${a.flagged} cell${a.flagged === 1 ? '' : 's'} further than ${a.flagFactor}x from it (⚑ below)${a.unflagged === undefined ? '' : `; the other ${a.cells - a.flagged}: ${range(a.unflagged)}`}`;
  return `Across ${a.cells} cells: ${rate} (median), ${range(a)}; ${flagged}.`;
}
