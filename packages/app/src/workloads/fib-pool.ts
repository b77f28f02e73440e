import { Worker } from 'node:worker_threads';
import type { FibJob } from './fib.ts';

export interface PoolRequest {
  id: number;
  job: FibJob;
}
export type PoolResponse = { id: number; value: number } | { id: number; error: string };

interface Pending {
  request: PoolRequest;
  resolve: (value: number) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | undefined;
}

/**
 * A fixed pool of worker threads started once with the app: jobs queue here and each idle
 * thread takes the next. node:worker_threads is the one worker API Node, Bun and Deno share.
 * A thread that dies fails its job and is replaced, so one bad job cannot shrink the pool.
 */
export class FibPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private readonly workerUrl: URL;

  constructor(size: number, workerUrl: URL = new URL('./fib-worker.ts', import.meta.url)) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`worker pool size must be a positive integer, got ${size}`);
    this.workerUrl = workerUrl;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.slots.length;
  }

  run(job: FibJob): Promise<number> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, job }, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('worker pool closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.workerUrl), busy: undefined };
    slot.worker.on('message', (response: PoolResponse) => {
      const pending = slot.busy;
      slot.busy = undefined;
      if (pending !== undefined && pending.request.id === response.id) {
        if ('error' in response) pending.reject(new Error(response.error));
        else pending.resolve(response.value);
      }
      this.dispatch();
    });
    slot.worker.on('error', (error: Error) => this.replace(slot, error));
    slot.worker.on('exit', (code: number) => {
      if (!this.closed) this.replace(slot, new Error(`fib worker exited with code ${code}`));
    });
    return slot;
  }

  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    slot.busy?.reject(error);
    slot.busy = undefined;
    if (this.closed) return;
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
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
