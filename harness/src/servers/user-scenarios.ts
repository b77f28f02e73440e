// --scenario-file on the command lines (bench, curve): the user's own modules loaded and checked
// here, under the harness, before anything starts. A module that does not load, breaks the
// contract or throws in setup() is one line naming the file and the rule, and exit 2.
import { ScenarioError } from '@bench/app';
import { DEFAULT_DATA_DIR, ensureDataFiles } from '../system/data-files.ts';
import { registerScenarioFiles, scenarioSettings, setupUserScenarios as runSetups, userScenariosReadDataFiles } from './scenarios.ts';

/**
 * The --scenario-file values before the plan is parsed (their modules are loaded first, so
 * --scenarios can name them), each as `--scenario-file PATH` or `--scenario-file=PATH`, resolved
 * from where the user typed the command.
 */
export function userScenarioFiles(argv: readonly string[], resolvePath: (path: string) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--scenario-file' && argv[i + 1] !== undefined) out.push(argv[++i] ?? '');
    else if (arg.startsWith('--scenario-file=')) out.push(arg.slice('--scenario-file='.length));
  }
  return out.map(resolvePath);
}

/** Loads and checks the files; their paths, or undefined after printing the one line (exit 2). */
export async function loadUserScenarios(files: readonly string[], command: string): Promise<string[] | undefined> {
  try {
    await registerScenarioFiles(files);
    return [...files];
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    console.error(`${command}: ${error.message}`);
    return undefined;
  }
}

/**
 * Runs the user's modules' setup() here with the servers' settings; false after printing the one
 * line. A module that reads the generated input files (readsDataFiles) gets them first, as the
 * file scenario does: its setup() may read their manifest.
 */
export async function setupUserScenarios(
  plan: { dataDir: string | undefined; hashCost: number; fibN: number; sleepMs: number; fileCount?: number; fileSizeBytes?: number },
  command: string,
): Promise<boolean> {
  try {
    if (userScenariosReadDataFiles())
      ensureDataFiles(plan.dataDir, plan.fileCount, plan.fileSizeBytes, (line) => console.error(`${command}: ${line}`));
    await runSetups(scenarioSettings({ ...plan, dataDir: plan.dataDir ?? DEFAULT_DATA_DIR }));
    return true;
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    console.error(`${command}: ${error.message}`);
    return false;
  }
}
