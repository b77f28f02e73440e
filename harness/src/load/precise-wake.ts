/**
 * A wake-up at a sub-millisecond time without spinning. Node's timers run on libuv's millisecond
 * clock and fire up to a millisecond or two late, so the generator used to wake 1.5 ms early and
 * spin; from about 700 requests/s on it then spun all the time: a whole core, and as a real-time
 * process it was throttled by the kernel (50 ms of every second) exactly there. Here a worker
 * thread sleeps in Atomics.wait (a futex with a nanosecond timeout: the kernel's high-resolution
 * timers) until the time asked, and posts a message, which wakes the main thread's event loop at
 * once (an eventfd in its epoll set). The worker inherits the process's scheduling (real-time when
 * the harness could set it).
 */
import { Worker } from 'node:worker_threads';

// Plain JavaScript, evaluated as is (no TypeScript loader in worker threads under every runtime).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const control = new Int32Array(workerData, 0, 1);
const wakeAt = new Float64Array(workerData, 8, 1);
const now = () => performance.timeOrigin + performance.now();
for (;;) {
  const generation = Atomics.load(control, 0);
  const at = wakeAt[0];
  if (at === 0) { Atomics.wait(control, 0, generation); continue; }
  const delay = at - now();
  if (delay > 0 && Atomics.wait(control, 0, generation, delay) !== 'timed-out') continue;
  if (Atomics.load(control, 0) !== generation) continue;
  wakeAt[0] = 0;
  parentPort.postMessage(0);
}
`;

export class PreciseWake {
  private readonly worker: Worker;
  private readonly control: Int32Array;
  private readonly wakeAt: Float64Array;

  /** `onWake` runs on this thread's event loop at (or just after) each time asked. */
  constructor(onWake: () => void) {
    const shared = new SharedArrayBuffer(16);
    this.control = new Int32Array(shared, 0, 1);
    this.wakeAt = new Float64Array(shared, 8, 1);
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: shared });
    this.worker.on('message', onWake);
    // Between steps nothing is asked; the worker must not keep the process alive on its own.
    this.worker.unref();
  }

  /** Wake at `performance.now()` time `at` (replacing any wake-up asked before). */
  at(at: number): void {
    this.wakeAt[0] = performance.timeOrigin + at;
    Atomics.add(this.control, 0, 1);
    Atomics.notify(this.control, 0);
  }

  /** Cancels the wake-up asked, if it has not fired yet. */
  cancel(): void {
    this.wakeAt[0] = 0;
    Atomics.add(this.control, 0, 1);
    Atomics.notify(this.control, 0);
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
