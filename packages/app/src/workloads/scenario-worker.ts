// Runs inside each thread of the scenario pool: loads every scenario module, runs its setup(),
// says so, then runs one sync() at a time, each answer posted back with its id.
import { parentPort, workerData } from 'node:worker_threads';
import type { ScenarioModule } from '../scenario-contract.ts';
import type { PoolRequest, PoolResponse, WorkerSetup } from './scenario-pool.ts';

if (parentPort === null) throw new Error('scenario-worker.ts must run as a worker thread');
const port = parentPort;
const { modules, settings } = workerData as WorkerSetup;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function load(): Promise<Map<string, ScenarioModule>> {
  const byName = new Map<string, ScenarioModule>();
  for (const url of modules) {
    const mod = (await import(url)) as ScenarioModule;
    try {
      await mod.setup?.(settings);
    } catch (error) {
      throw new Error(`${url}: setup() threw in a worker thread: ${message(error)}`);
    }
    byName.set(mod.name, mod);
  }
  return byName;
}

const loaded = load();
loaded.then(
  () => port.postMessage({ ready: true } satisfies PoolResponse),
  (error: unknown) => port.postMessage({ failed: message(error) } satisfies PoolResponse),
);

port.on('message', async (request: PoolRequest) => {
  try {
    const mod = (await loaded).get(request.scenario);
    if (mod === undefined) throw new Error(`no scenario ${request.scenario} in this worker`);
    port.postMessage({ id: request.id, value: mod.sync(request.input) } satisfies PoolResponse);
  } catch (error) {
    // Also an answer that cannot be copied to the main thread (a function, a promise).
    port.postMessage({ id: request.id, error: message(error) } satisfies PoolResponse);
  }
});
