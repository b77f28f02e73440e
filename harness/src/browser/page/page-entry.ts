/// <reference lib="dom" />
/**
 * Runs in the browser page: the app's fib workload (bundled from packages/app, not copied) as
 * sync, async and awaited-worker calls, with the page's own probe beside it: a 10 ms timer
 * chain whose lateness is the main thread's answer delay, and requestAnimationFrame gaps.
 */
import { fibAsync, fibSync, type FibJob } from '../../../../packages/app/src/workloads/fib.ts';
import type { PageCase, PageResult } from './shared.ts';

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve(value: number): void; reject(error: Error): void }>();

/** The source said a Web Worker cannot be awaited; a promise keyed by message id can. */
function inWorker(job: FibJob): Promise<number> {
  if (worker === undefined) {
    worker = new Worker('./worker.js');
    worker.onmessage = (event: MessageEvent<{ id: number; value?: number; error?: string }>) => {
      const waiter = pending.get(event.data.id);
      pending.delete(event.data.id);
      if (event.data.error !== undefined) waiter?.reject(new Error(event.data.error));
      else waiter?.resolve(event.data.value as number);
    };
    worker.onerror = (event) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`worker error: ${event.message}`));
      pending.clear();
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker?.postMessage({ id, job });
  });
}

function call(mode: PageCase['mode'], job: FibJob): number | Promise<number> {
  if (mode === 'sync') return fibSync(job);
  if (mode === 'async') return fibAsync(job);
  return inWorker(job);
}

const TICK_MS = 10;

function startProbe() {
  const late: number[] = [];
  const frames: number[] = [];
  let stopped = false;
  let due = performance.now() + TICK_MS;
  const tick = () => {
    if (stopped) return;
    const now = performance.now();
    late.push(Math.max(0, now - due));
    due = now + TICK_MS;
    setTimeout(tick, TICK_MS);
  };
  setTimeout(tick, TICK_MS);
  const frame = (time: number) => {
    if (stopped) return;
    frames.push(time);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return () => {
    stopped = true;
    return { late, frames };
  };
}

const pick = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runCase(spec: PageCase): Promise<PageResult> {
  const job: FibJob = { n: spec.n, variant: spec.variant, busyExponent: spec.busyExponent, asyncDepth: spec.asyncDepth };
  // Warm-up: let the JIT settle and find how many calls make a sample of >= 20 ms.
  let value = await call(spec.mode, job);
  let callsPerSample = 1;
  const warmEnd = performance.now() + spec.warmupMs;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < callsPerSample; i++) value = await call(spec.mode, job);
    const took = performance.now() - t0;
    if (took < 20) callsPerSample = Math.min(1 << 20, callsPerSample * 2);
    else if (performance.now() >= warmEnd) break;
    if (performance.now() >= warmEnd + 5 * spec.warmupMs) break;
  }
  await pause(50);
  const stop = startProbe();
  const start = performance.now();
  const perCallMs: number[] = [];
  for (let s = 0; s < spec.samples; s++) {
    const t0 = performance.now();
    for (let i = 0; i < callsPerSample; i++) value = await call(spec.mode, job);
    perCallMs.push((performance.now() - t0) / callsPerSample);
    // A breath between samples, so a timer blocked by the sample fires and reports its lateness.
    await pause(TICK_MS * 2);
  }
  const elapsedMs = performance.now() - start;
  const { late, frames } = stop();
  const sorted = [...late].sort((a, b) => a - b);
  let maxGapMs = 0;
  for (let i = 1; i < frames.length; i++) maxGapMs = Math.max(maxGapMs, (frames[i] ?? 0) - (frames[i - 1] ?? 0));
  const expected = Math.round(elapsedMs / (1000 / 60));
  return {
    value,
    callsPerSample,
    perCallMs,
    timerLateMs: { p50: pick(sorted, 0.5), p99: pick(sorted, 0.99), max: sorted.at(-1) ?? 0, ticks: late.length },
    raf: { frames: frames.length, expected, missed: Math.max(0, expected - frames.length), maxGapMs },
    elapsedMs,
  };
}

(globalThis as unknown as { runCase: typeof runCase }).runCase = runCase;
document.title = 'fib-ready';
