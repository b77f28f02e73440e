import { BroadcastChannel } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Histogram } from 'hdr-histogram-js';
import { addEncoded } from '../stats/encoded-histogram.ts';
import { type LatencyPercentilesMs, latencyHistogram, percentilesMs, recordMs } from '../stats/latency-histogram.ts';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSec: number;
  /** Per-request timeout in seconds. */
  timeoutSec: number;
  /**
   * autocannon worker threads (0 or absent: in-process, as the bench runs it). They share this
   * process, so its CPU still counts them; connections are split between them (floor, at least 1).
   */
  workers?: number;
  /**
   * In-process only: the run goes on past `durationSec` until this many responses have come
   * back, but never past `maxDurationSec`.
   */
  minRequests?: number;
  maxDurationSec?: number;
  /**
   * In-process only: asked every WATCH_MS with the responses so far and the seconds since the
   * load began; the run stops as soon as it answers true (a warm-up that has seen enough).
   */
  stopWhen?: (responses: number, elapsedSec: number) => boolean;
}

/** How often stopWhen is asked: a warm-up slice (0.2 s at least) ends within this of its time. */
const WATCH_MS = 20;

export interface LoadResult {
  requestsPerSec: number;
  /** Responses received. */
  completed: number;
  /** Requests written, answered or not. */
  sent: number;
  /**
   * The 2xx answers' latencies, ms to the µs, from this harness's own per-answer times (autocannon
   * times each from its write with the high-resolution clock) in an HDR histogram.
   */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  /** Failed requests other than timeouts (connection errors and the like). */
  errors: number;
  /** Requests that waited past the timeout: the client gave up on them. */
  timeouts: number;
  non2xx: number;
  elapsedSec: number;
  /** This process's CPU while the load ran, 100 = one full core. */
  clientCpuPercent: number;
  /** Mean latency of the 2xx answers, ms, to the µs. */
  meanLatencyMs?: number;
  /** Every answered request's latency, ms (in-process only): for percentiles with the unanswered in. */
  answeredMs?: number[];
  /**
   * Requests unanswered when the run stopped, and each one's age in ms (from its connection's last
   * send to the end; with worker threads the ages are not known, only the count).
   */
  unanswered: { count: number; agesMs?: number[] };
}

/**
 * What one connection has in flight, from autocannon's client events: every request
 * written emits 'request'; 'response', 'timeout' and 'connError' each settle one (autocannon
 * re-sends on a fresh socket after the last two). The newest send is the youngest request in
 * flight, so its age is a lower bound for whatever is still unanswered on that connection.
 */
export interface InFlight {
  sent: number;
  settled: number;
  lastSentAt: number;
}

interface ClientEvents {
  on(event: string, listener: (...args: unknown[]) => void): void;
}

function trackClient(client: ClientEvents, inFlight: InFlight[], answeredMs: number[], latency: Histogram): void {
  const state: InFlight = { sent: 0, settled: 0, lastSentAt: performance.now() };
  inFlight.push(state);
  client.on('request', () => {
    state.sent++;
    state.lastSentAt = performance.now();
  });
  client.on('response', (...args: unknown[]) => {
    state.settled++;
    // (statusCode, bytes, duration ms, rate): the duration is measured from the write, to the µs.
    const duration = args[2];
    if (typeof duration !== 'number') return;
    answeredMs.push(duration);
    // Only 2xx answers in the percentiles, as autocannon's own histogram: an error page is fast.
    if (isOk(args[0])) recordMs(latency, duration);
  });
  client.on('timeout', () => state.settled++);
  client.on('connError', () => state.settled++);
}

const isOk = (status: unknown) => {
  const code = Number(status);
  return code >= 200 && code < 300;
};

/** Unanswered requests at `endAt`: at most one per connection (autocannon sends one at a time). */
export function unansweredAt(inFlight: readonly InFlight[], endAt: number): number[] {
  return inFlight.filter((c) => c.sent > c.settled).map((c) => Math.max(0, endAt - c.lastSentAt));
}

export interface LoadRun {
  done: Promise<LoadResult>;
  /**
   * Ends the run early (interruption, or the server died); `done` still settles: with the
   * result in-process, rejected with workers (autocannon never calls back after stopping them).
   */
  stop(): void;
}

/**
 * One closed-loop autocannon run through its programmatic API, in this process, so its CPU
 * use is this process's. Requests/s is responses over the time actually run, not autocannon's
 * per-second average, which is coarse for runs of a second or two.
 */
export function runLoad(options: LoadOptions): LoadRun {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  let instance: autocannon.Instance | undefined;
  let rejectDone: (error: Error) => void = () => {};
  const workers = options.workers ?? 0;
  const minRequests = workers === 0 ? (options.minRequests ?? 0) : 0;
  const maxDurationSec = Math.max(options.durationSec, options.maxDurationSec ?? options.durationSec);
  const stretch = minRequests > 0 && maxDurationSec > options.durationSec;
  let timer: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  // Connection by connection, in-process only (worker threads take setupClient as a file path).
  const inFlight: InFlight[] = [];
  const answeredMs: number[] = [];
  const latency = latencyHistogram();
  // With worker threads each thread keeps its own histogram and sends it here at the end.
  const fromWorkers = workers > 0 ? collectWorkerLatency(workers) : undefined;
  const done = new Promise<LoadResult>((resolve, reject) => {
    rejectDone = reject;
    instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        // Stretched runs are given the cap, and stopped once --duration and the minimum are both met.
        duration: stretch ? maxDurationSec : options.durationSec,
        timeout: options.timeoutSec,
        // 100 ms samples let sub-second runs end on time (the default 1 s rounds them up); autocannon
        // ends a run only on a sample, so a watched load samples as often as it is looked at, or
        // each warm-up would run on for 50 ms on average after it was done.
        sampleInt: options.stopWhen !== undefined && workers === 0 ? WATCH_MS : 100,
        ...(fromWorkers !== undefined
          ? // autocannon's types know only the in-process function; its threads take a path.
            { workers, setupClient: WORKER_LATENCY as unknown as (client: autocannon.Client) => void, title: fromWorkers.channel }
          : { setupClient: (client: ClientEvents) => trackClient(client, inFlight, answeredMs, latency) }),
      },
      async (error, result) => {
        clearTimeout(timer);
        clearInterval(watch);
        if (error !== null && error !== undefined) {
          fromWorkers?.close();
          return reject(error);
        }
        // autocannon destroys its clients just before this callback: now is the run's end.
        const endAt = performance.now();
        const unansweredAges = unansweredAt(inFlight, endAt);
        const cpu = process.cpuUsage(cpuBefore);
        const wallMs = performance.now() - wallBefore;
        // result.duration is measured to 10 ms; start/finish are whole seconds once serialized.
        const elapsedSec = result.duration > 0 ? result.duration : wallMs / 1000;
        if (fromWorkers !== undefined) addEncoded(latency, await fromWorkers.collect());
        // A thread whose histogram never came leaves only autocannon's whole milliseconds.
        const figures = latency.totalCount > 0 || result.requests.total === 0 ? percentilesMs(latency) : wholeMs(result.latency);
        resolve({
          requestsPerSec: result.requests.total / elapsedSec,
          completed: result.requests.total,
          sent: result.requests.sent,
          latencyMs: { p50: figures.p50, p90: figures.p90, p99: figures.p99, p999: figures.p999, max: figures.max },
          meanLatencyMs: figures.mean,
          // autocannon counts every timeout as an error too; here errors are the other failures.
          errors: Math.max(0, result.errors - result.timeouts),
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          elapsedSec,
          clientCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
          ...(workers > 0
            ? // Worker threads: the count only, from what was written and what came of it.
              { unanswered: { count: Math.max(0, result.requests.sent - result.requests.total - result.errors) } }
            : {
                answeredMs,
                unanswered: { count: unansweredAges.length, agesMs: unansweredAges },
              }),
        });
      },
    );
    const stopWhen = workers === 0 ? options.stopWhen : undefined;
    if (stopWhen !== undefined) {
      let responses = 0;
      const startedAt = performance.now();
      instance.on('response', () => responses++);
      watch = setInterval(() => {
        if (!stopWhen(responses, (performance.now() - startedAt) / 1000)) return;
        clearInterval(watch);
        instance?.stop();
      }, WATCH_MS);
    }
    if (stretch) {
      let responses = 0;
      let durationPassed = false;
      const stopIfDone = () => {
        if (durationPassed && responses >= minRequests) instance?.stop();
      };
      instance.on('response', () => {
        responses++;
        stopIfDone();
      });
      timer = setTimeout(() => {
        durationPassed = true;
        stopIfDone();
      }, options.durationSec * 1000);
    }
  });
  return {
    done,
    stop: () => {
      instance?.stop();
      if (workers > 0) {
        fromWorkers?.close();
        rejectDone(new Error('load stopped'));
      }
    },
  };
}

function wholeMs(histogram: autocannon.Histogram): LatencyPercentilesMs {
  const h = histogram as unknown as Record<string, number>;
  return { p50: h.p50 ?? 0, p90: h.p90 ?? 0, p99: h.p99 ?? 0, p999: h.p99_9 ?? 0, max: h.max ?? 0, mean: h.mean ?? 0 };
}

const WORKER_LATENCY = resolve(dirname(fileURLToPath(import.meta.url)), 'autocannon-worker-latency.cjs');

/**
 * A worker thread cannot be handed a function: autocannon-worker-latency.cjs records in each one and
 * sends its histogram over a BroadcastChannel named for this run (autocannon passes the run's
 * title on to its threads). Messages on that channel and autocannon's own result travel apart, so
 * `collect` (called once autocannon has called back) waits for every thread's histogram, a few
 * seconds at most.
 */
function collectWorkerLatency(workers: number): { channel: string; collect(): Promise<string[]>; close(): void } {
  const channel = `latency-${randomUUID()}`;
  const listener = new BroadcastChannel(channel);
  const received: string[] = [];
  let allIn = () => {};
  listener.onmessage = (event: unknown) => {
    received.push(String((event as { data: unknown }).data));
    if (received.length === workers) allIn();
  };
  let timer: NodeJS.Timeout | undefined;
  const close = () => {
    clearTimeout(timer);
    listener.close();
  };
  const collect = () =>
    new Promise<string[]>((resolveAll) => {
      allIn = () => {
        close();
        resolveAll(received);
      };
      if (received.length === workers) allIn();
      else timer = setTimeout(allIn, WORKER_HISTOGRAM_WAIT_MS);
    });
  return { channel, collect, close };
}

/** How long the result waits for the worker threads' histograms after autocannon has called back. */
const WORKER_HISTOGRAM_WAIT_MS = 3000;
