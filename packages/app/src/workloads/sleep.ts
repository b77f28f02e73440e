const cell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the whole thread for `ms`, like a synchronous I/O call: nothing else runs meanwhile. */
export function sleepSync(ms: number): void {
  // Nobody ever notifies `cell`, so this always waits out the timeout.
  Atomics.wait(cell, 0, 0, ms);
}

/** Waits `ms` on a timer: the loop serves other requests meanwhile, like non-blocking I/O. */
export function sleepAsync(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
