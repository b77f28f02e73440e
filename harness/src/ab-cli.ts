// `pnpm bench:ab --a VARIANT --b VARIANT [bench flags]`: A and B measured in one session as lanes
// whose runs alternate round by round, each cell judged on B over A. Exit 1 on a regression,
// 0 otherwise, 2 on bad input (before any server starts).
import { resolve } from 'node:path';
import type { RuntimeName } from '@bench/app';
import { abConsole, abFeatures } from './ab/ab-section.ts';
import { abExitCode, abPairNeed, abSchedule, flagGiven, splitAbFlags } from './ab/ab-flags.ts';
import { checkPair, laneLabel, moduleName, parseVariant, type Side, sideLane, sideRecord, type Variant } from './ab/variants.ts';
import { checkoutRef, type RefCheckout, refSpec, unknownServerFlags } from './ab/ref.ts';
import { changedFiles, type RefScope, refScope, scopeWords } from './ab/ref-scope.ts';
import type { LaneSpec } from './bench/lanes.ts';
import { runBench } from './bench/bench.ts';
import { DEFAULT_RESULTS_ROOT } from './bench/run-setup.ts';
import { parsePlan } from './bench/plan.ts';
import { createProgress } from './bench/progress.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import { creatableDir, FlagError, typedPath, writableDir } from './cli/flags.ts';
import type { AbPlan } from './model/ab.ts';
import { interruptedReport, writeBenchReport } from './report/bench-files.ts';
import { makeRunDir, updateLatest } from './report/output.ts';
import { scenarioNames } from './servers/scenarios.ts';
import { stopAllServers } from './servers/server.ts';
import { takeMeasureFlags } from './measure/measure-flag.ts';
import { checkInstructionPlan, instructionExitCode, runInstructionCommand } from './measure/instruction-command.ts';
import { loadUserScenarios, setupUserScenarios, userScenarioFiles } from './servers/user-scenarios.ts';

async function main({ signal }: CommandContext): Promise<number> {
  const { measure, count, rest: argvAb } = takeMeasureFlags(process.argv.slice(2));
  const { a: rawA, b: rawB, margin, strict, rest } = splitAbFlags(argvAb);
  const a = parseVariant('a', rawA, typedPath);
  const b = parseVariant('b', rawB, typedPath);
  checkPair(a, b);
  if (rest.some((arg) => arg === '--server-host' || arg.startsWith('--server-host=')))
    throw new FlagError('--server-host: bench:ab runs its servers on this host');
  // A file: pair names one scenario: A's module is the one the harness plans and checks from.
  let argv = rest;
  let moduleScenario: string | undefined;
  if (a.kind === 'file' && b.kind === 'file') {
    const [nameA, nameB] = [await moduleName('a', a), await moduleName('b', b)];
    if (nameA !== nameB) throw new FlagError(`--a ${a.raw} and --b ${b.raw}: the modules must share their name ("${nameA}", "${nameB}")`);
    if (!flagGiven(rest, 'scenarios')) argv = [...rest, '--scenarios', nameA];
    moduleScenario = nameA;
  }
  // Two commits: only the cells their difference can reach (a ref pointing at one commit twice is an A/A, measured as asked).
  let scope: RefScope | undefined;
  if (a.kind === 'ref' && b.kind === 'ref' && a.commit !== b.commit && !flagGiven(rest, 'scenarios') && !flagGiven(rest, 'sweep')) {
    scope = refScope(changedFiles(a.commit, b.commit), scenarioNames());
    const words = scopeWords(scope, `${a.commit.slice(0, 10)} and ${b.commit.slice(0, 10)}`);
    console.error(`bench:ab: ${words}`);
    if (scope.scenarios?.length === 0) return 0;
    if (scope.scenarios !== undefined) argv = [...argv, '--scenarios', scope.scenarios.join(',')];
  }
  // --quick's 2 runs give no paired interval: an A/B needs 3 rounds to say anything.
  if (argv.includes('--quick') && !argv.some((arg) => arg === '--runs' || arg.startsWith('--runs='))) argv = [...argv, '--runs', '3'];
  const fileA = a.kind === 'file' ? [a.path] : [];
  const files = await loadUserScenarios([...userScenarioFiles(argv, typedPath), ...fileA], 'bench:ab');
  if (files === undefined) return 2;
  const plan = parsePlan(argv);
  if (measure === 'instructions') checkInstructionPlan(plan);
  else abSchedule(plan, argv);
  // The variant's module goes to each side's servers on its own (variants.ts), not to both.
  plan.scenarioFiles = files.filter((file) => !fileA.includes(file));
  if (plan.versions !== undefined)
    throw new FlagError('--runtimes names versions: compare two with --a runtime:node@24 --b runtime:node@26');
  if (a.kind === 'runtime' && b.kind === 'runtime') {
    if (flagGiven(rest, 'runtimes') && plan.runtimes.join(',') !== a.request.name)
      throw new FlagError(
        `--runtimes ${plan.runtimes.join(',')}: a runtime: pair measures ${a.request.name} alone (its two installations)`,
      );
    plan.runtimes = [a.request.name];
  }
  if (plan.outDir !== undefined) plan.outDir = creatableDir('out', typedPath(plan.outDir));
  if (plan.dataDir !== undefined) plan.dataDir = typedPath(plan.dataDir);
  if (!(await setupUserScenarios(plan, 'bench:ab'))) return 2;
  const log = (line: string) => console.error(`bench:ab: ${line}`);
  // A ref: side is a worktree of its own with its own install, made (once) before anything starts.
  const checkouts = new Map<Variant, RefCheckout>();
  for (const v of [a, b]) if (v.kind === 'ref' && !checkouts.has(v)) checkouts.set(v, checkoutRef(v.ref, v.commit, log));
  // A flag either ref predates is left off both sides, so both set up and serve alike.
  const dropFlags = [...new Set((await Promise.all([...checkouts.values()].map(unknownServerFlags))).flat())];
  if (dropFlags.length > 0) log(`server flags left off both sides (a ref predates them): ${dropFlags.map((f) => `--${f}`).join(' ')}`);
  const laneFor = async (v: Variant, runtime: RuntimeName, side: Side): Promise<LaneSpec> => {
    const checkout = checkouts.get(v);
    return checkout === undefined
      ? sideLane(v, runtime, side, log)
      : { spec: { ...(await refSpec(checkout, runtime, dropFlags)), label: laneLabel(runtime, side) } };
  };
  const lanes: LaneSpec[] = [];
  for (const runtime of plan.runtimes) lanes.push(await laneFor(a, runtime, 'A'), await laneFor(b, runtime, 'B'));
  const ab = abPlan(a, b, plan.runtimes, margin, moduleScenario);
  if (scope?.scenarios !== undefined) ab.scopedBy = scope.serverFiles;
  if (signal.aborted) return 0;
  // Made only now that both sides resolved: a pair refused above leaves no empty --out behind.
  const runDir = plan.outDir === undefined ? makeRunDir(DEFAULT_RESULTS_ROOT) : writableDir('out', plan.outDir);

  const progress = createProgress();
  if (measure === 'instructions') {
    const sides = { a: a.raw, b: b.raw };
    const counted = await runInstructionCommand({ plan, lanes, count, runDir, signal, log, sides });
    return instructionExitCode(counted);
  }
  progress.log(
    `bench:ab: A ${a.raw} against B ${b.raw} on ${plan.runtimes.join(', ')} x ${plan.scenarios.join(', ')}, rounds alternating A B | B A`,
  );
  forceStop = () => {
    const partial = interruptedReport(runDir, abFeatures);
    if (partial !== undefined) writeBenchReport(runDir, partial, abFeatures);
  };
  const { report } = await runBench(plan, {
    progress,
    signal,
    lanes,
    runDir,
    features: abFeatures,
    parameters: { ab },
    pairing: { need: abPairNeed(margin, plan.maxRuns / (plan.roundsPerProcess ?? 1)) },
  });
  writeBenchReport(runDir, report, abFeatures);
  if (plan.outDir === undefined) updateLatest(DEFAULT_RESULTS_ROOT, runDir);
  if (report.ab !== undefined) console.log(abConsole(report));
  console.log(`\nreport: ${resolve(runDir, 'report.md')}\n        ${resolve(runDir, 'report.json')}`);
  const inconclusive = report.ab?.counts.inconclusive ?? 0;
  if (strict && inconclusive > 0)
    console.log(
      `--strict: ${inconclusive} inconclusive cell${inconclusive === 1 ? '' : 's'} fail the gate: a change of the margin neither found nor ruled out`,
    );
  return abExitCode(report, strict);
}

function abPlan(a: Variant, b: Variant, runtimes: readonly RuntimeName[], margin: number, moduleScenario: string | undefined): AbPlan {
  return {
    a: sideRecord(
      a,
      runtimes.map((r) => laneLabel(r, 'A')),
      moduleScenario,
    ),
    b: sideRecord(
      b,
      runtimes.map((r) => laneLabel(r, 'B')),
      moduleScenario,
    ),
    order: 'ABBA',
    margin,
  };
}

let forceStop = () => {};

runCommand('bench:ab', main, { interruptible: true, cleanup: stopAllServers, onForce: () => forceStop() });
