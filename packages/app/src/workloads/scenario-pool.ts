import { Piscina } from 'piscina';
import type { ScenarioSettings } from '../scenario-contract.ts';

/** What each thread is started with: the modules to load and the settings their setup() takes. */
export interface WorkerSetup {
  modules: string[];
  settings: ScenarioSettings;
}
/** One call of a scenario's sync() in a thread. */
export interface PoolTask {
  scenario: string;
  input: unknown;
}
/** What a thread says once it has loaded the modules and run their setup(), or why it could not. */
export type SetupMessage = { scenarioWorkerReady: true } | { scenarioWorkerFailed: string };

/**
 * The worker pool behind every /<name>/worker: piscina (it runs unchanged on Node, Bun and Deno,
 * with Deno's narrow permissions), a fixed number of threads started with the app. Each thread
 * loads every scenario module and runs its setup() before it takes a task, and says so, so the
 * app can wait for all of them before it answers /health. A thread that dies is replaced by
 * piscina; its task fails.
 */
export class ScenarioPool {
  private readonly pool: Piscina<PoolTask, unknown>;
  private closed = false;
  /** Settles once every thread has loaded the modules and run their setup(). */
  readonly ready: Promise<void>;
  readonly size: number;

  constructor(size: number, setup: WorkerSetup, workerUrl: URL = new URL('./scenario-worker.ts', import.meta.url)) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`worker pool size must be a positive integer, got ${size}`);
    this.size = size;
    this.pool = new Piscina<PoolTask, unknown>({
      filename: workerUrl.href,
      minThreads: size,
      maxThreads: size,
      // Threads live as long as the server: a thread started under load would be measured starting.
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: 1,
      workerData: setup,
    });
    this.ready = new Promise<void>((resolve, reject) => {
      let ready = 0;
      const onMessage = (message: SetupMessage) => {
        if ('scenarioWorkerFailed' in message) reject(new Error(message.scenarioWorkerFailed));
        else if ('scenarioWorkerReady' in message && ++ready === size) resolve();
        else return;
        if (ready === size || 'scenarioWorkerFailed' in message) this.pool.off('message', onMessage);
      };
      this.pool.on('message', onMessage);
      this.pool.once('error', reject);
    });
    // A failure surfaces through `ready` to whoever awaits it; no unhandled rejection meanwhile.
    this.ready.catch(() => {});
  }

  /**
   * One call of a module's sync() in a thread. With `timeoutMs`, a call not answered that long
   * after it was handed over (queued or running) is ended: piscina terminates a running thread
   * and starts another (which loads the modules again), and the call rejects with an AbortError.
   */
  run(scenario: string, input: unknown, timeoutMs?: number): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return this.pool.run({ scenario, input }, timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.destroy();
  }
}
