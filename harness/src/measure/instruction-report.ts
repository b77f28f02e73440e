// The file an instruction count leaves (instructions.json beside its callgrind dumps) and its
// plain-text rendering for the console and instructions.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeName } from '@bench/app';
import type { Environment } from '../model/environment.ts';
import type { CountSettings, InstructionCell, InstructionLane } from './instructions.ts';
import type { InstructionVerdict } from './instruction-verdict.ts';

/** What a count cannot see, said beside every figure it gives. */
export const BLIND_SPOTS =
  'counts user-space instructions of the whole server process (all threads, run one at a time by Valgrind); it cannot see kernel time, waiting (I/O, timers, the pool’s queue), parallel speed-up, cache and branch effects, or code-layout luck, and it counts native code on the path Valgrind’s CPU allows (without SHA extensions or AVX-512, a library may run a longer path than on the host): wall clock judges those';

export interface InstructionPair {
  runtime: RuntimeName;
  scenario: string;
  mode: string;
  a: string;
  b: string;
  result: InstructionVerdict;
}

export interface InstructionReport {
  kind: 'instructions';
  schemaVersion: 1;
  createdAt: string;
  status: 'complete' | 'interrupted';
  environment: Environment;
  valgrind: string;
  count: CountSettings;
  blindSpots: string;
  lanes: InstructionLane[];
  cells: InstructionCell[];
  /** bench:ab: B over A per cell. */
  pairs?: InstructionPair[];
  /** bench:ab: what A and B were. */
  sides?: { a: string; b: string };
  /** Wall time of the whole command, seconds. */
  seconds: number;
}

export function writeInstructionReport(runDir: string, report: InstructionReport): void {
  writeFileSync(join(runDir, 'instructions.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(runDir, 'instructions.md'), `${renderInstructions(report)}\n`);
}

const int = (x: number) => Math.round(x).toLocaleString('en');

export function renderInstructions(report: InstructionReport): string {
  const lines = [
    `Instructions per request under Valgrind ${report.valgrind} (callgrind), ${report.count.requests} requests a round at ${report.count.concurrency} connection${report.count.concurrency === 1 ? '' : 's'} after ${report.count.warmupRequests} warm-up requests, ${report.count.rounds} round${report.count.rounds === 1 ? '' : 's'} a cell; ${report.environment.cpu.model}, ${report.createdAt.slice(0, 10)}`,
    '',
    '| lane | version | settings | start-up under Valgrind |',
    '|---|---|---|---|',
    ...report.lanes.map(
      (l) =>
        `| ${l.lane} | ${l.version || '-'} | ${l.status === 'ok' ? l.settings : `${l.status}: ${l.reason ?? ''}`} | ${l.startSeconds === undefined ? '-' : `${l.startSeconds.toFixed(0)} s`} |`,
    ),
    '',
    '| lane | cell | instructions/request | rounds | time |',
    '|---|---|--:|---|--:|',
    ...report.cells.map(
      (c) =>
        `| ${c.lane} | ${c.scenario}/${c.mode} | ${c.perRequest === undefined ? `${c.status}: ${c.reason ?? ''}` : int(c.perRequest)} | ${c.rounds.map(int).join(' / ')} | ${c.seconds.toFixed(0)} s |`,
    ),
  ];
  if (report.pairs !== undefined && report.pairs.length > 0) {
    lines.push(
      '',
      `A: ${report.sides?.a ?? ''}, B: ${report.sides?.b ?? ''}`,
      '',
      '| runtime | cell | B/A | verdict | smallest change it could see | why |',
      '|---|---|--:|---|--:|---|',
      ...report.pairs.map(
        (p) =>
          `| ${p.runtime} | ${p.scenario}/${p.mode} | ${p.result.ratio === undefined ? '-' : p.result.ratio.toFixed(4)} | ${p.result.verdict} | ±${(p.result.threshold * 100).toFixed(2)} % | ${p.result.why} |`,
      ),
    );
  }
  lines.push('', `What it cannot see: it ${BLIND_SPOTS}.`, `Whole command: ${report.seconds.toFixed(0)} s.`);
  return lines.join('\n');
}
