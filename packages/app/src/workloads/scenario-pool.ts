import { Worker } from 'node:worker_threads';
import type { ScenarioSettings } from '../scenario-contract.ts';

/** What each thread is started with: the modules to load and the settings their setup() takes. */
export interface WorkerSetup {
  modules: string[];
  settings: ScenarioSettings;
}
export interface PoolRequest {
  id: number;
  scenario: string;
  input: unknown;
}
export type PoolResponse = { id: number; value: unknown } | { id: number; error: string } | { ready: true } | { failed: string };

interface Pending {
  request: PoolRequest;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | undefined;
}

/**
 * A fixed pool of worker threads started once with the app, each loading every scenario module
 * and running its setup(): jobs queue here and each idle thread takes the next.
 * node:worker_threads is the one worker API Node, Bun and Deno share. A thread that dies fails
 * its job and is replaced, so one bad job cannot shrink the pool.
 */
export class ScenarioPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private readonly workerUrl: URL;
  private readonly setup: WorkerSetup;
  /** Settles once every first thread has loaded the modules and run their setup(). */
  readonly ready: Promise<void>;

  constructor(size: number, setup: WorkerSetup, workerUrl: URL = new URL('./scenario-worker.ts', import.meta.url)) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`worker pool size must be a positive integer, got ${size}`);
    this.workerUrl = workerUrl;
    this.setup = setup;
    const readies: Promise<void>[] = [];
    for (let i = 0; i < size; i++) {
      const { slot, ready } = this.spawn();
      this.slots.push(slot);
      readies.push(ready);
    }
    this.ready = Promise.all(readies).then(() => undefined);
    // A failure surfaces through `ready` to whoever awaits it; no unhandled rejection meanwhile.
    this.ready.catch(() => {});
  }

  get size(): number {
    return this.slots.length;
  }

  run(scenario: string, input: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, scenario, input }, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('worker pool closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): { slot: Slot; ready: Promise<void> } {
    const slot: Slot = { worker: new Worker(this.workerUrl, { workerData: this.setup }), busy: undefined };
    let settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
    const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    slot.worker.on('message', (response: PoolResponse) => {
      if ('ready' in response) return settle?.resolve();
      if ('failed' in response) return settle?.reject(new Error(response.failed));
      const pending = slot.busy;
      slot.busy = undefined;
      if (pending !== undefined && pending.request.id === response.id) {
        if ('error' in response) pending.reject(new Error(response.error));
        else pending.resolve(response.value);
      }
      this.dispatch();
    });
    slot.worker.on('error', (error: Error) => {
      settle?.reject(error);
      this.replace(slot, error);
    });
    slot.worker.on('exit', (code: number) => {
      const error = new Error(`scenario worker exited with code ${code}`);
      settle?.reject(error);
      if (!this.closed) this.replace(slot, error);
    });
    return { slot, ready };
  }

  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    slot.busy?.reject(error);
    slot.busy = undefined;
    if (this.closed) return;
    void slot.worker.terminate();
    // The new thread takes jobs at once: it handles them only after its own setup (scenario-worker.ts).
    this.slots[index] = this.spawn().slot;
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy !== undefined) continue;
      const next = this.queue.shift();
      if (next === undefined) return;
      slot.busy = next;
      slot.worker.postMessage(next.request);
    }
  }
}
