/**
 * bench:ab's plan from its command line: the variant rules in one place (a file: pair shares one
 * scenario name, two commits measure only the cells their difference reaches, a runtime: pair
 * measures its runtime alone, a ref: side gets a worktree of its own), the bench plan shaped for
 * pairs of processes (ab-flags.ts abSchedule), and one lane per runtime and side.
 */
import type { RuntimeName } from '@bench/app';
import type { LaneSpec } from '../bench/lanes.ts';
import { parsePlan, type Plan } from '../bench/plan.ts';
import { creatableDir, FlagError, typedPath } from '../cli/flags.ts';
import type { AbPlan } from '../model/ab.ts';
import { scenarioNames } from '../servers/scenarios.ts';
import { loadUserScenarios, setupUserScenarios, userScenarioFiles } from '../servers/user-scenarios.ts';
import { abSchedule, flagGiven, splitAbFlags } from './ab-flags.ts';
import { checkoutRef, type RefCheckout, refSpec, unknownServerFlags } from './ref.ts';
import { changedFiles, type RefScope, refScope, scopeWords } from './ref-scope.ts';
import { checkPair, laneLabel, moduleName, parseVariant, type Side, sideLane, sideRecord, sideRole, type Variant } from './variants.ts';

/** What bench:ab runs: the bench plan, its A and B lanes, and what the report records of the pair. */
export interface AbRun {
  plan: Plan;
  lanes: LaneSpec[];
  ab: AbPlan;
  a: Variant;
  b: Variant;
  margin: number;
  strict: boolean;
}

/**
 * From bench:ab's arguments to its run, or an exit code: 2 when a user's module does not load, 0
 * when two commits leave nothing to measure. Bad input throws FlagError (one line, exit 2).
 */
export async function planAb(argv: readonly string[], log: (line: string) => void): Promise<AbRun | number> {
  const { a: rawA, b: rawB, margin, strict, rest } = splitAbFlags(argv);
  const a = parseVariant('a', rawA, typedPath);
  const b = parseVariant('b', rawB, typedPath);
  checkPair(a, b);
  if (rest.some((arg) => arg === '--server-host' || arg.startsWith('--server-host=')))
    throw new FlagError('--server-host: bench:ab runs its servers on this host');
  // A file: pair names one scenario: A's module is the one the harness plans and checks from.
  let args = rest;
  let moduleScenario: string | undefined;
  if (a.kind === 'file' && b.kind === 'file') {
    const [nameA, nameB] = [await moduleName('a', a), await moduleName('b', b)];
    if (nameA !== nameB) throw new FlagError(`--a ${a.raw} and --b ${b.raw}: the modules must share their name ("${nameA}", "${nameB}")`);
    if (!flagGiven(rest, 'scenarios')) args = [...rest, '--scenarios', nameA];
    moduleScenario = nameA;
  }
  // Two commits: only the cells their difference can reach (a ref pointing at one commit twice is an A/A, measured as asked).
  let scope: RefScope | undefined;
  if (a.kind === 'ref' && b.kind === 'ref' && a.commit !== b.commit && !flagGiven(rest, 'scenarios') && !flagGiven(rest, 'sweep')) {
    scope = refScope(changedFiles(a.commit, b.commit), scenarioNames());
    const words = scopeWords(scope, `${a.commit.slice(0, 10)} and ${b.commit.slice(0, 10)}`);
    console.error(`bench:ab: ${words}`);
    if (scope.scenarios?.length === 0) return 0;
    if (scope.scenarios !== undefined) args = [...args, '--scenarios', scope.scenarios.join(',')];
  }
  // --quick's 2 runs give no paired interval: an A/B needs 3 rounds to say anything.
  if (args.includes('--quick') && !args.some((arg) => arg === '--runs' || arg.startsWith('--runs='))) args = [...args, '--runs', '3'];
  const fileA = a.kind === 'file' ? [a.path] : [];
  const files = await loadUserScenarios([...userScenarioFiles(args, typedPath), ...fileA], 'bench:ab');
  if (files === undefined) return 2;
  const plan = abSchedule(parsePlan(args), args);
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
  const lanes = await sideLanes(a, b, plan.runtimes, log);
  const ab = abPlan(a, b, plan.runtimes, margin, moduleScenario);
  if (scope?.scenarios !== undefined) ab.scopedBy = scope.serverFiles;
  return { plan, lanes, ab, a, b, margin, strict };
}

/** A and B on each runtime, in that order. A ref: side is a worktree of its own with its own install, made (once) before anything starts. */
async function sideLanes(a: Variant, b: Variant, runtimes: readonly RuntimeName[], log: (line: string) => void): Promise<LaneSpec[]> {
  const checkouts = new Map<Variant, RefCheckout>();
  for (const v of [a, b]) if (v.kind === 'ref' && !checkouts.has(v)) checkouts.set(v, checkoutRef(v.ref, v.commit, log));
  // A flag either ref predates is left off both sides, so both set up and serve alike.
  const dropFlags = [...new Set((await Promise.all([...checkouts.values()].map(unknownServerFlags))).flat())];
  if (dropFlags.length > 0) log(`server flags left off both sides (a ref predates them): ${dropFlags.map((f) => `--${f}`).join(' ')}`);
  const laneFor = async (v: Variant, runtime: RuntimeName, side: Side): Promise<LaneSpec> => {
    const checkout = checkouts.get(v);
    return checkout === undefined
      ? sideLane(v, runtime, side, log)
      : { spec: { ...(await refSpec(checkout, runtime, dropFlags)), label: laneLabel(runtime, side) }, role: sideRole(side) };
  };
  const lanes: LaneSpec[] = [];
  for (const runtime of runtimes) lanes.push(await laneFor(a, runtime, 'A'), await laneFor(b, runtime, 'B'));
  return lanes;
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
