// `pnpm bench:all|bench:node|bench:bun|bench:deno [flags]`: the plan, the run, the report.
import { resolve } from 'node:path';
import { exitCode, planSpecs, runBench } from './run/bench.ts';
import type { RuntimeSpec } from './run/runtimes.ts';
import { abortOnSignals, FlagError, writableDir } from './cli-flags.ts';
import { fdWarning } from './system/fd-limit.ts';
import { parsePlan, type Plan } from './run/plan.ts';
import { createProgress } from './run/progress.ts';
import { renderConsoleSummary } from './report/render/console.ts';

async function main(): Promise<number> {
  let plan: Plan;
  let specs: RuntimeSpec[];
  try {
    plan = parsePlan(process.argv.slice(2));
    // pnpm runs scripts from the package folder: paths are relative to where the user typed them.
    const cwd = process.env.INIT_CWD ?? process.cwd();
    if (plan.outDir !== undefined) plan.outDir = writableDir('out', resolve(cwd, plan.outDir));
    if (plan.dataDir !== undefined) plan.dataDir = resolve(cwd, plan.dataDir);
    // Named versions are resolved (and fetched once) before anything starts: an unknown one exits 2.
    specs = planSpecs(plan, (line) => console.error(`bench: ${line}`));
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    console.error(`bench: ${error.message}`);
    return 2;
  }

  const controller = new AbortController();
  const signalExit = abortOnSignals('bench', controller);
  const progress = createProgress();
  progress.log(
    `bench: ${specs.map((s) => s.label ?? s.name).join(', ')} x ${plan.scenarios.length} scenarios, ${plan.connectionsList?.join(',') ?? plan.connections} connections, ${plan.runs} runs of ${plan.durationSec} s after ${plan.warmupSec} s warm-up, ${plan.schedule}`,
  );
  const fd = fdWarning(Math.max(...(plan.connectionsList ?? [plan.connections])));
  if (fd !== undefined) progress.log(`bench: ${fd}`);
  const { report, runDir } = await runBench(plan, { progress, signal: controller.signal, specs });
  console.log(renderConsoleSummary(report));
  console.log(`\nreport: ${resolve(runDir, 'report.html')}\n        ${resolve(runDir, 'report.md')}\n        ${resolve(runDir, 'report.json')}`);
  return signalExit() ?? exitCode(report, plan.strict);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
