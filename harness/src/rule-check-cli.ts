// `pnpm --filter @bench/harness rule-check [flags]`: how sure the capacity search's step verdicts
// really are. The step rule (the generator's own tally and decision) replayed over many seeded
// Poisson schedules of a single-server queue with a fixed service time (M/D/1, Lindley's
// recursion), where the true share over the target is known, with requests counted by their
// design effect (`bench:curve --design-effect`) and as independent (the default); and the same on
// misses that are independent (the binomial's own assumption). Prints, per rate as a multiple of the
// M/D/1 capacity, how often a step passes, fails or stays undecided. Simulation only: no server.
import { numberFlag, parseFlags } from './cli/flags.ts';
import { runCommand } from './cli/command.ts';
import { md1CapacityPerSec } from './curve/ladder.ts';
import { independentModel, queueModel, ruleOutcomes, type OutcomeShares, type StepRule } from './curve/rule-check.ts';

const FACTORS = [0.6, 0.85, 1, 1.1, 1.25, 1.5];
const FLAGS = ['service-ms', 'slo-ms', 'percentile', 'confidence', 'min-sec', 'cap-sec', 'trials', 'seed'] as const;

function main(): number {
  const values = parseFlags(process.argv.slice(2), FLAGS);
  const str = (k: string) => values[k] as string | undefined;
  const serviceMs = numberFlag('service-ms', str('service-ms'), 0.01, 60_000, false) ?? 20.5;
  const trials = numberFlag('trials', str('trials'), 10, 100_000, true) ?? 400;
  const seed = numberFlag('seed', str('seed'), 0, 2 ** 32 - 1, true) ?? 1;
  const step: StepRule = {
    targetMs: numberFlag('slo-ms', str('slo-ms'), 0.1, 600_000, false) ?? 100,
    rule: {
      percentile: numberFlag('percentile', str('percentile'), 50.01, 99.99, false) ?? 99,
      confidence: numberFlag('confidence', str('confidence'), 0.5001, 0.9999, false) ?? 0.95,
    },
    minSec: numberFlag('min-sec', str('min-sec'), 0.1, 600, false) ?? 1,
    capSec: numberFlag('cap-sec', str('cap-sec'), 0.1, 3600, false) ?? 15,
    checkEveryMs: 500,
  };
  const allowed = 1 - step.rule.percentile / 100;
  const capacity = md1CapacityPerSec(serviceMs, step.targetMs, step.rule.percentile);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const row = (label: string, rule: string, rate: number, o: OutcomeShares) =>
    `| ${label} | ${rule} | ${rate.toFixed(1)} | ${pct(o.pass)} | ${pct(o.fail)} | ${pct(o.undecided)} | ${o.overDispersion.toFixed(1)} |`;
  const clustered = { ...step, designEffect: true };
  console.log(
    `Step rule: p${step.rule.percentile} ≤ ${step.targetMs} ms at ${step.rule.confidence * 100} % (a pass claims at most ${pct(1 - step.rule.confidence)} false passes), steps of ${step.minSec}-${step.capSec} s, looks every ${step.checkEveryMs} ms; ${trials} Poisson schedules per rate (seed ${seed}).`,
  );
  console.log(
    `M/D/1 at ${serviceMs} ms of service: capacity ${capacity.toFixed(2)} req/s (share over the target ${pct(allowed)} there).\n`,
  );
  console.log('| latencies | requests counted | rate req/s | pass | fail | undecided | over-count variance / binomial |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  const queue = queueModel(serviceMs);
  for (const f of FACTORS)
    console.log(
      row(`M/D/1, ${f} x capacity`, 'by design effect', capacity * f, ruleOutcomes(queue, capacity * f, clustered, trials, seed)),
    );
  for (const f of FACTORS)
    console.log(row(`M/D/1, ${f} x capacity`, 'as independent', capacity * f, ruleOutcomes(queue, capacity * f, step, trials, seed)));
  for (const f of FACTORS)
    console.log(
      row(
        `independent, share ${f} x ${pct(allowed)}`,
        'as independent',
        capacity * f,
        ruleOutcomes(independentModel(allowed * f, step.targetMs), capacity * f, step, trials, seed),
      ),
    );
  for (const f of FACTORS)
    console.log(
      row(
        `independent, share ${f} x ${pct(allowed)}`,
        'by design effect',
        capacity * f,
        ruleOutcomes(independentModel(allowed * f, step.targetMs), capacity * f, clustered, trials, seed),
      ),
    );
  return 0;
}

runCommand('rule-check', main);
