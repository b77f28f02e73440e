/** The lines a bench run says as it goes: each finished cell, and each cell's profile. */
import type { CellResult } from '../../model/cell.ts';
import type { CellProfile } from '../../model/profile.ts';
import { percent } from '../flags.ts';
import { formatMs, formatRps } from '../../present/formats.ts';
import { heldSentence } from './profile.ts';

/** One plain line per finished cell, so a log shows results as they come. */
export function cellLine(cell: CellResult, connectionsSwept: boolean): string {
  const name = `${cell.runtimeLabel ?? cell.runtime}${cell.processes === undefined ? '' : ` x${cell.processes}`} ${cell.scenario}/${cell.mode}${connectionsSwept ? ` @${cell.connections} conns` : ''}`;
  if (cell.status === 'failed') return `${name}: FAILED: ${cell.reason ?? ''}`;
  const rps = cell.requestsPerSec;
  const figures = `${formatRps(rps.median)} req/s (CV ${(rps.cv * 100).toFixed(1)}%), p99 ${formatMs(cell.latencyMs.p99)} ms, probe p99 ${formatMs(cell.probeLatencyMs.p99)} ms`;
  const overload =
    cell.overload === undefined
      ? []
      : [`${cell.overload.timeouts} of ${cell.overload.sent} requests timed out (${percent(cell.overload.timeoutShare)})`];
  const restarts = cell.restarts === undefined ? [] : [`${cell.restarts.length} restart${cell.restarts.length === 1 ? '' : 's'}`];
  const notes = [...(cell.status === 'invalid' ? [`INVALID: ${cell.reason ?? ''}`] : []), ...cell.flags, ...overload, ...restarts];
  return `${name}: ${figures}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`;
}

const cellName = (cell: CellResult) => `${cell.runtimeLabel ?? cell.runtime} ${cell.scenario}/${cell.mode}`;

/** "profile: node fib/sync: 81 req/s under the profiler; main thread busy 85 %, the loop held …". */
export function profileLine(cell: CellResult, profile: CellProfile): string {
  const name = `profile: ${cellName(cell)}`;
  if (profile.summary === undefined) return `${name}: ${profile.reason ?? 'no profile'}`;
  return `${name}: ${profile.load.requestsPerSec} req/s under the profiler; ${heldSentence(profile.summary)} (${profile.file})`;
}

/** What bench/progress.ts ProgressLines asks for. */
export const progressLines = { cell: cellLine, profile: profileLine };
