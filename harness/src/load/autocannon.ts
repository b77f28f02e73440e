import autocannon from 'autocannon';

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
}

export interface LoadResult {
  requestsPerSec: number;
  /** Responses received. */
  completed: number;
  /** Requests written, answered or not. */
  sent: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  /** Failed requests other than timeouts (connection errors and the like). */
  errors: number;
  /** Requests that waited past the timeout: the client gave up on them. */
  timeouts: number;
  non2xx: number;
  elapsedSec: number;
  /** This process's CPU while the load ran, 100 = one full core. */
  clientCpuPercent: number;
  /**
   * Mean latency of the answered requests, ms, at full precision (autocannon's histogram keeps
   * whole milliseconds, too coarse for a sub-millisecond hello; used only with worker threads).
   */
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

function trackClient(client: ClientEvents, inFlight: InFlight[], answeredMs: number[]): void {
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
    if (typeof duration === 'number') answeredMs.push(duration);
  });
  client.on('timeout', () => state.settled++);
  client.on('connError', () => state.settled++);
}

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
  // Connection by connection, in-process only (worker threads take setupClient as a file path).
  const inFlight: InFlight[] = [];
  const answeredMs: number[] = [];
  const done = new Promise<LoadResult>((resolve, reject) => {
    rejectDone = reject;
    instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        // Stretched runs are given the cap, and stopped once --duration and the minimum are both met.
        duration: stretch ? maxDurationSec : options.durationSec,
        timeout: options.timeoutSec,
        // 100 ms samples let sub-second runs end on time (the default 1 s rounds them up).
        sampleInt: 100,
        ...(workers > 0 ? { workers } : { setupClient: (client: ClientEvents) => trackClient(client, inFlight, answeredMs) }),
      },
      (error, result) => {
        clearTimeout(timer);
        if (error !== null && error !== undefined) return reject(error);
        // autocannon destroys its clients just before this callback: now is the run's end.
        const endAt = performance.now();
        const unansweredAges = unansweredAt(inFlight, endAt);
        const cpu = process.cpuUsage(cpuBefore);
        const wallMs = performance.now() - wallBefore;
        // result.duration is measured to 10 ms; start/finish are whole seconds once serialized.
        const elapsedSec = result.duration > 0 ? result.duration : wallMs / 1000;
        const latency = result.latency as unknown as Record<string, number>;
        resolve({
          requestsPerSec: result.requests.total / elapsedSec,
          completed: result.requests.total,
          sent: result.requests.sent,
          latencyMs: {
            p50: latency.p50 ?? 0,
            p90: latency.p90 ?? 0,
            p99: latency.p99 ?? 0,
            p999: latency.p99_9 ?? 0,
            max: latency.max ?? 0,
          },
          // autocannon counts every timeout as an error too; here errors are the other failures.
          errors: Math.max(0, result.errors - result.timeouts),
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          elapsedSec,
          clientCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
          ...(workers > 0
            ? // Worker threads: the count only, from what was written and what came of it.
              {
                meanLatencyMs: latency.mean ?? 0,
                unanswered: { count: Math.max(0, result.requests.sent - result.requests.total - result.errors) },
              }
            : {
                meanLatencyMs: answeredMs.length === 0 ? 0 : answeredMs.reduce((a, b) => a + b, 0) / answeredMs.length,
                answeredMs,
                unanswered: { count: unansweredAges.length, agesMs: unansweredAges },
              }),
        });
      },
    );
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
      if (workers > 0) rejectDone(new Error('load stopped'));
    },
  };
}
