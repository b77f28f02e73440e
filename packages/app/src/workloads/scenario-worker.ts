// Each thread of the scenario pool (piscina) loads this module once: it imports every scenario
// module and runs its setup(), tells the app it is ready (or why not), then runs sync() for each
// task piscina hands its default export.
import { parentPort, workerData } from 'node:worker_threads';
import type { ScenarioModule } from '../scenario-contract.ts';
import type { PoolTask, SetupMessage, WorkerSetup } from './scenario-pool.ts';

const { modules, settings } = workerData as WorkerSetup;
const byName = new Map<string, ScenarioModule>();

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function load(): Promise<void> {
  for (const url of modules) {
    const mod = (await import(url)) as ScenarioModule;
    try {
      await mod.setup?.(settings);
    } catch (error) {
      throw new Error(`${url}: setup() threw in a worker thread: ${message(error)}`);
    }
    byName.set(mod.name, mod);
  }
}

// Awaited here, so piscina hands this thread no task before every module is set up. A failure is
// reported, not thrown: the app refuses to start with it, rather than piscina restarting threads.
try {
  await load();
  parentPort?.postMessage({ scenarioWorkerReady: true } satisfies SetupMessage);
} catch (error) {
  parentPort?.postMessage({ scenarioWorkerFailed: message(error) } satisfies SetupMessage);
}

export default function run({ scenario, input }: PoolTask): unknown {
  const mod = byName.get(scenario);
  if (mod === undefined) throw new Error(`no scenario ${scenario} in this worker`);
  return mod.sync(input);
}
