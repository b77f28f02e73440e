// `pnpm bench:ab --a VARIANT --b VARIANT [bench flags]`: A and B measured in one session as lanes
// whose runs alternate round by round, each cell judged on B over A. Exit 1 on a regression,
// 0 otherwise, 2 on bad input (before any server starts).
import { resolve } from 'node:path';
import { abExitCode } from './ab/ab-flags.ts';
import { type AbRun, planAb } from './ab/ab-plan.ts';
import { abProcessPairNeed, abRounds } from './ab/ab-rounds.ts';
import { abConsole, abFeatures } from './ab/ab-section.ts';
import { type Planned, runBenchCommand } from './bench-entry.ts';

runBenchCommand<Planned & { ab: AbRun }>({
  name: 'bench:ab',
  features: abFeatures,
  async plan(argv) {
    const ab = await planAb(argv, (line) => console.error(`bench:ab: ${line}`));
    if (typeof ab === 'number') return ab;
    const { plan, lanes, a, b, margin } = ab;
    return {
      plan,
      lanes,
      ab,
      sides: { a: a.raw, b: b.raw },
      banner: [
        `bench:ab: A ${a.raw} against B ${b.raw} on ${plan.runtimes.join(', ')} x ${plan.scenarios.join(', ')}, rounds alternating A B | B A`,
      ],
      run: {
        parameters: { ab: ab.ab },
        policy: abRounds(abProcessPairNeed(margin, plan.maxRuns / (plan.roundsPerProcess ?? 1))),
      },
    };
  },
  report(report, runDir, { ab: { strict } }) {
    if (report.ab !== undefined) console.log(abConsole(report));
    console.log(`\nreport: ${resolve(runDir, 'report.md')}\n        ${resolve(runDir, 'report.json')}`);
    const inconclusive = report.ab?.counts.inconclusive ?? 0;
    if (strict && inconclusive > 0)
      console.log(
        `--strict: ${inconclusive} inconclusive cell${inconclusive === 1 ? '' : 's'} fail the gate: a change of the margin neither found nor ruled out`,
      );
    return abExitCode(report, strict);
  },
});
