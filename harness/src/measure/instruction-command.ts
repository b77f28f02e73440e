// `bench --measure instructions` and `bench:ab --measure instructions`: the plan's lanes counted
// under Valgrind, the report written beside the dumps, and for an A/B each cell judged B over A.
import { resolve } from 'node:path';
import type { LaneSpec } from '../bench/lanes.ts';
import type { Plan } from '../bench/plan.ts';
import { CommandError } from '../cli/command.ts';
import { environment } from '../system/environment.ts';
import { type CountSettings, countInstructions } from './instructions.ts';
import {
  BLIND_SPOTS,
  type InstructionPair,
  type InstructionReport,
  renderInstructions,
  writeInstructionReport,
} from './instruction-report.ts';
import { instructionVerdict } from './instruction-verdict.ts';
import { VALGRIND_MISSING, valgrindVersion } from './valgrind.ts';

export interface InstructionCommand {
  plan: Plan;
  /** Valgrind's version, as the entry point found it before planning (installedValgrind). */
  valgrind: string;
  lanes: readonly LaneSpec[];
  count: CountSettings;
  runDir: string;
  signal: AbortSignal;
  log(line: string): void;
  /** bench:ab: the lanes come in A, B order per runtime, and each cell is judged B over A. */
  sides?: { a: string; b: string };
}

/**
 * Valgrind's version, or exit 2 where it cannot run: checked once, before any checkout or
 * preflight the plan may make, and handed on (without Valgrind there is nothing to count with).
 */
export function installedValgrind(): string {
  const version = valgrindVersion();
  if (version === undefined) throw new CommandError(VALGRIND_MISSING);
  return version;
}

/** Refuses what an instruction count cannot do, before anything starts (exit 2). */
export function checkInstructionPlan(plan: Plan): void {
  if (plan.remote !== undefined)
    throw new CommandError('--measure instructions: the servers run under Valgrind on this host, not with --server-host');
  if (plan.processes !== undefined) throw new CommandError('--measure instructions counts one serving process: leave out --processes');
}

/** The count of a plan the entry point has checked (checkInstructionPlan), under the Valgrind it found. */
export async function runInstructionCommand(command: InstructionCommand): Promise<InstructionReport> {
  const started = Date.now();
  const { valgrind } = command;
  command.log(
    `counting instructions under Valgrind ${valgrind}: ${command.count.warmupRequests} warm-up requests, then ${command.count.rounds} rounds of ${command.count.requests} at ${command.count.concurrency} connection${command.count.concurrency === 1 ? '' : 's'} a cell`,
  );
  const run = await countInstructions(command.plan, command.lanes, command);
  const report: InstructionReport = {
    kind: 'instructions',
    schemaVersion: 1,
    createdAt: new Date(started).toISOString(),
    status: command.signal.aborted ? 'interrupted' : 'complete',
    environment: environment(),
    valgrind,
    count: command.count,
    blindSpots: BLIND_SPOTS,
    lanes: run.lanes,
    cells: run.cells,
    ...(command.sides === undefined
      ? {}
      : {
          sides: command.sides,
          pairs: pairsOf(
            run.cells,
            run.lanes.map((l) => l.lane),
          ),
        }),
    seconds: (Date.now() - started) / 1000,
  };
  writeInstructionReport(command.runDir, report);
  console.log(renderInstructions(report));
  console.log(`\nreport: ${resolve(command.runDir, 'instructions.md')}\n        ${resolve(command.runDir, 'instructions.json')}`);
  return report;
}

/** Lanes in A, B order per runtime: each cell of an A lane against the same cell of the B lane after it. */
function pairsOf(cells: InstructionReport['cells'], laneOrder: readonly string[]): InstructionPair[] {
  const pairs: InstructionPair[] = [];
  for (let i = 0; i + 1 < laneOrder.length; i += 2) {
    const [a, b] = [laneOrder[i], laneOrder[i + 1]];
    for (const cellA of cells.filter((c) => c.lane === a)) {
      const cellB = cells.find((c) => c.lane === b && c.scenario === cellA.scenario && c.mode === cellA.mode);
      const result = instructionVerdict(
        cellA.runtime,
        cellA.status === 'ok' ? cellA.rounds : [],
        cellB?.status === 'ok' ? cellB.rounds : [],
      );
      pairs.push({ runtime: cellA.runtime, scenario: cellA.scenario, mode: cellA.mode, a: a ?? '', b: b ?? '', result });
    }
  }
  return pairs;
}

/** bench:ab's exit: 1 when a cell regressed, else 0. */
export function instructionExitCode(report: InstructionReport): number {
  return report.pairs?.some((p) => p.result.verdict === 'regressed') === true ? 1 : 0;
}
