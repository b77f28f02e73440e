/**
 * bench:ab's own flags (--a, --b, --margin), taken out before the rest is parsed as a bench plan;
 * the shape of its runs (abSchedule); and its exit code.
 */
import type { Plan } from '../bench/plan.ts';
import { FlagError, numberFlag } from '../cli/flags.ts';
import { DEFAULT_MARGIN } from '../compare/gate.ts';
import type { Report } from '../model/report.ts';

export interface AbFlags {
  a: string;
  b: string;
  /** The practical margin of a heavy cell, as a share. */
  margin: number;
  /** --strict: a cell left inconclusive fails the gate too. */
  strict: boolean;
  /** Every other argument: bench flags. */
  rest: string[];
}

const OWN = ['a', 'b', 'margin'] as const;

/** Whether the command line names `--flag`, as `--flag value` or `--flag=value`. */
export const flagGiven = (argv: readonly string[], flag: string): boolean =>
  argv.some((arg) => arg === `--${flag}` || arg.startsWith(`--${flag}=`));

export function splitAbFlags(argv: readonly string[]): AbFlags {
  const own: Partial<Record<(typeof OWN)[number], string>> = {};
  const rest: string[] = [];
  let strict = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--strict') {
      strict = true;
      continue;
    }
    const name = OWN.find((n) => arg === `--${n}` || arg.startsWith(`--${n}=`));
    if (name === undefined) {
      rest.push(arg);
      continue;
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new FlagError(`--${name} needs a value`);
    if (own[name] !== undefined) throw new FlagError(`--${name} given twice`);
    own[name] = value;
  }
  if (own.a === undefined || own.b === undefined)
    throw new FlagError('needs --a VARIANT and --b VARIANT (file:<module>, env:KEY=VALUE, runtime:<name@version>, ref:<git ref>)');
  const percent = numberFlag('margin', own.margin, 0.1, 50, false);
  return { a: own.a, b: own.b, margin: percent === undefined ? DEFAULT_MARGIN : percent / 100, strict, rest };
}

/**
 * 1 when any cell regressed, B failed where A measured (a change that breaks a cell must not pass
 * as "inconclusive"), nothing was measured, or with `strict` a cell could neither find nor rule
 * out a change of its margin; else 0. Bad input never gets this far (2).
 */
export function abExitCode(report: Report, strict = false): number {
  if (!report.results.some((r) => r.status !== 'failed')) return 1;
  if (report.ab?.cells.some((c) => c.bFailed === true)) return 1;
  if (strict && (report.ab?.counts.inconclusive ?? 0) > 0) return 1;
  return (report.ab?.counts.regressed ?? 0) > 0 ? 1 : 0;
}

/**
 * bench:ab's runs: a new pair of server processes every AB_PLAN.roundsPerProcess rounds (A B | B A
 * on each pair, so each pair is balanced and is one unit of the interval), at least minProcessPairs of
 * them, then one more at a time while a cell's interval is wider than a change of the margin
 * needs (ab-rounds.ts abProcessPairNeed), up to maxProcessPairs and within the budget. The minimum is what a
 * width to stop on needs: from 3 process pairs (2 degrees of freedom) the spread reads narrow by chance
 * often enough that a run stops early on an interval that misses a change of the margin. Up to
 * 50 process pairs: a cell whose round scatters by 10 % (fib's work on a shared VM) needs about 30 to see
 * a 5 % change 9 times in 10, and the flag's floor (ab-verdict.ts FLAG_SHARE) keeps the narrow
 * intervals of many process pairs from flagging A/A pairs (test/ab-rule.test.ts). The budget is a
 * ceiling, not a length: each cell stops once it can see its margin, so a quiet cell's run ends in
 * minutes, and a noisy one (the file cell on three runtimes of 2 vCPUs took 6-46 process pairs) gets the
 * process pairs that let it see 5 %, where 300 s left it inconclusive; a cell past 50 still ends
 * inconclusive. A gate that must finish sooner gives --budget and accepts that.
 */
export const AB_PLAN = { roundsPerProcess: 2, minProcessPairs: 6, maxProcessPairs: 50, budgetSec: 1800 } as const;

/** The plan with bench:ab's shape of runs, keeping what the user gave (--runs, --max-runs, --budget: rounded to whole process pairs). --quick keeps bench's. */
export function abSchedule(given: Plan, argv: readonly string[]): Plan {
  const plan = { ...given };
  const named = (flag: string): boolean => flagGiven(argv, flag);
  if (named('server-processes'))
    throw new FlagError(
      `--server-processes is not for bench:ab: it starts a new pair of server processes every ${AB_PLAN.roundsPerProcess} rounds itself`,
    );
  if (argv.includes('--quick')) return plan;
  const per = AB_PLAN.roundsPerProcess;
  const whole = (rounds: number): number => Math.ceil(rounds / per) * per;
  plan.roundsPerProcess = per;
  delete plan.serverProcesses;
  plan.runs = named('runs') ? whole(plan.runs) : AB_PLAN.minProcessPairs * per;
  plan.maxRuns = named('max-runs') ? Math.max(plan.runs, whole(plan.maxRuns)) : Math.max(plan.runs, AB_PLAN.maxProcessPairs * per);
  if (!named('budget')) plan.budgetSec = AB_PLAN.budgetSec;
  return plan;
}
