// `pnpm bench:all|bench:node|bench:bun|bench:deno [flags]`: the plan, the run, the report.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { exitCode, runBench } from './bench.ts';
import { parsePlan, PlanError, type Plan } from './plan.ts';
import { createProgress } from './progress.ts';
import { renderConsoleSummary } from './render-console.ts';
import { fdWarning } from './fd-limit.ts';

const EXIT_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

async function main(): Promise<number> {
  let plan: Plan;
  try {
    plan = parsePlan(process.argv.slice(2));
    // pnpm runs scripts from the package folder: --out is relative to where the user typed it.
    if (plan.outDir !== undefined) plan.outDir = resolve(process.env.INIT_CWD ?? process.cwd(), plan.outDir);
    if (plan.dataDir !== undefined) plan.dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), plan.dataDir);
    if (plan.outDir !== undefined) checkWritable(plan.outDir);
  } catch (error) {
    if (!(error instanceof PlanError)) throw error;
    console.error(`bench: ${error.message}`);
    return 2;
  }

  const controller = new AbortController();
  let caught: keyof typeof EXIT_SIGNAL | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (caught !== undefined) return;
      caught = signal;
      console.error(`\nbench: ${signal}: stopping the load and the servers, writing what was measured`);
      controller.abort();
    });
  }

  const progress = createProgress();
  const cells = plan.scenarios.length;
  progress.log(
    `bench: ${plan.runtimes.join(', ')} x ${cells} scenarios, ${plan.connections} connections, ${plan.runs} runs of ${plan.durationSec} s after ${plan.warmupSec} s warm-up`,
  );
  const fd = fdWarning(plan.connections);
  if (fd !== undefined) progress.log(`bench: ${fd}`);
  const { report, runDir } = await runBench(plan, { progress, signal: controller.signal });
  console.log(renderConsoleSummary(report));
  console.log(`\nreport: ${resolve(runDir, 'report.html')}\n        ${resolve(runDir, 'report.md')}\n        ${resolve(runDir, 'report.json')}`);
  if (caught !== undefined) return EXIT_SIGNAL[caught];
  return exitCode(report, plan.strict);
}

function checkWritable(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new PlanError(`--out ${dir} is not a writable folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
