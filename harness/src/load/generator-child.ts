// The open-loop generator's own process: it sends each request at its scheduled time whatever
// happened to earlier ones, over a pool of raw keep-alive connections (http-pool.ts: one request
// in flight on each, as many as the in-flight cap) so a slow answer never holds up the next send,
// and times every request from when it was DUE (so the
// queueing a slow server causes is charged to the server: no coordinated omission). Its own
// process keeps the harness's work (IPC, /stats, rendering) off its event loop.
import { arrivalOffsets } from './arrivals.ts';
import { ConnectionPool, preopenCount, type PoolHandlers } from './http-pool.ts';
import { PreciseWake } from './precise-wake.ts';
import { AsleepShare, pace, WAKE_EARLY_MS } from './send-pacing.ts';
import { shouldStopStep, StepTally } from '../stats/step-decision.ts';
import { latencyHistogram as histogram, percentileMs, percentilesMs, recordMs } from '../stats/latency-histogram.ts';
import type { GeneratorCommand, GeneratorMessage, StepMeasurement, StepOptions } from './generator-types.ts';

/**
 * The connections, kept from step to step while the URL stays the same: a curve's search and a
 * calibration's ladder send to one server step after step, and each step opening hundreds of
 * connections anew was connection churn the servers answered with listen-queue overflows.
 */
let kept: ConnectionPool | undefined;
/** Idle connections older than this are closed before a step (Node closes them after 5 s). */
const KEEP_IDLE_MS = 1000;

function poolFor(url: string, maxInFlight: number, handlers: PoolHandlers): ConnectionPool {
  if (kept !== undefined && kept.url === url) {
    kept.maxInFlight = maxInFlight;
    kept.handlers = handlers;
    kept.closeIdleFor(KEEP_IDLE_MS);
    return kept;
  }
  kept?.destroy();
  kept = new ConnectionPool(url, maxInFlight, handlers);
  return kept;
}

/** Naps (send-pacing.ts) wait on this, which nothing ever notifies: a sleep with a precise timeout. */
const NAP = new Int32Array(new SharedArrayBuffer(4));

/** The main loop's wake-ups: one worker thread for the process's life; each step sets its tick. */
let onWake: () => void = () => {};
const wake = new PreciseWake(() => onWake());

function runStep(options: StepOptions): Promise<StepMeasurement> {
  const latency = histogram();
  const lateness = histogram();
  const due = arrivalOffsets(options.ratePerSec, options.durationSec, options.arrivals, options.seed);
  // With a decision rule: the running count over the target (a request counted once its fate is known).
  const rule = options.decide;
  const tally = rule === undefined ? undefined : new StepTally(due, rule.targetMs, rule.designEffect === true);
  let stoppedAtMs: number | undefined;
  let sent = 0;
  let dropped = 0;
  let completed = 0;
  let errors = 0;
  let timeouts = 0;
  let firstAnswer = Number.POSITIVE_INFINITY;
  let lastAnswer = 0;
  let lastSettled = 0;
  let spinMs = 0;
  let settledCount = 0;

  return new Promise((resolveStep) => {
    // Set when sending starts, once the connections the step will need are open (below).
    let t0 = Number.POSITIVE_INFINITY;
    let cpu0 = process.cpuUsage();
    let windowCpuMs = 0;
    let windowSpinMs = 0;
    let lastTick = 0;
    let lastTickFired = true;
    let spinning = false;
    let napMs = 0;
    let woken = false;
    const asleep = new AsleepShare();
    let settledAtLastTick = 0;
    let next = 0;
    let sending = true;
    let finished = false;

    const settle = () => {
      settledCount++;
      lastSettled = performance.now();
      if (!sending && pool.inFlight === 0) finish();
    };
    const pool = poolFor(options.url, options.maxInFlight, {
      answered(dueAt, status, at, index) {
        // The check node:http made before: a 2xx answer counts, any other status is an error.
        // (A request not settled in the tally counts as over the target: failures need no call.)
        if (status >= 200 && status < 300) {
          completed++;
          recordMs(latency, at - dueAt);
          if (rule !== undefined) tally?.settle(index, at - dueAt <= rule.targetMs, at - dueAt);
          if (at < firstAnswer) firstAnswer = at;
          lastAnswer = at;
        } else {
          errors++;
        }
        settle();
      },
      failed() {
        errors++;
        settle();
      },
    });
    // Timeouts are swept, not timed one by one: a timer per request would cost more than the send.
    const sweepMs = Math.min(100, Math.max(5, options.timeoutMs / 20));
    const sweeper = setInterval(() => {
      for (const _ of pool.expire(performance.now())) {
        timeouts++;
        recordMs(latency, options.timeoutMs);
        settle();
      }
    }, sweepMs);

    const fire = (index: number, dueAt: number, now: number) => {
      if (!pool.send(dueAt, now + options.timeoutMs, index)) {
        dropped++;
        tally?.settle(index, false);
        return;
      }
      sent++;
      recordMs(lateness, now - dueAt);
    };

    const tick = () => {
      const now = performance.now();
      // Waiting for the worker's wake-up is sleep too.
      if (woken) asleep.slept(now - lastTick, now);
      else asleep.tick(now);
      woken = false;
      let fired = false;
      while (next < due.length && t0 + (due[next] ?? 0) <= now) {
        fire(next, t0 + (due[next] ?? 0), now);
        next++;
        fired = true;
      }
      // Pure waiting since the last turn: nothing was sent then and nothing answered since.
      // (A nap is sleep, not CPU: only the rest of the turn was spent spinning.)
      if (spinning && !fired && !lastTickFired && settledCount === settledAtLastTick) spinMs += Math.max(0, now - lastTick - napMs);
      lastTick = now;
      lastTickFired = fired;
      settledAtLastTick = settledCount;
      if (next >= due.length) {
        sending = false;
        const cpu = process.cpuUsage(cpu0);
        windowCpuMs = (cpu.user + cpu.system) / 1000;
        windowSpinMs = spinMs;
        if (pool.inFlight === 0) finish();
        return;
      }
      const how = pace(t0 + (due[next] ?? 0), performance.now(), asleep.share);
      spinning = how.kind !== 'wake';
      if (how.kind === 'wake') {
        woken = true;
        return wake.at(how.atMs);
      }
      napMs = 0;
      if (how.kind === 'nap') {
        const before = performance.now();
        Atomics.wait(NAP, 0, 0, how.ms);
        const after = performance.now();
        napMs = after - before;
        asleep.slept(napMs, after);
      }
      setImmediate(tick);
    };
    onWake = tick;

    // Every checkEveryMs: stop sending once the counts decide (step-decision.ts shouldStopStep).
    let check: ReturnType<typeof setInterval> | undefined;
    const startChecking = () =>
      rule === undefined || tally === undefined
        ? undefined
        : setInterval(() => {
            const elapsedMs = performance.now() - t0;
            tally.advance(elapsedMs, next);
            if (shouldStopStep(tally.verdict(rule), elapsedMs / 1000, rule.minSec)) {
              stoppedAtMs = elapsedMs;
              due.length = Math.min(due.length, next);
              clearInterval(check);
            }
          }, rule.checkEveryMs);

    // At the end every request sent is settled: the verdict is on all of them.
    const verdictAtEnd = () => {
      if (rule === undefined || tally === undefined) return {};
      tally.advance(Number.POSITIVE_INFINITY, next);
      return { verdict: tally.verdict(rule), stoppedAtSec: Math.round(stoppedAtMs ?? options.durationSec * 1000) / 1000 };
    };

    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(sweeper);
      if (check !== undefined) clearInterval(check);
      pool.abandonInFlight();
      const windowMs = Math.max(1, performance.now() - t0 - 0);
      const sendWindowMs = Math.max(1, (due.at(-1) ?? 0) + 1000 / options.ratePerSec);
      resolveStep({
        scheduled: due.length,
        sent,
        dropped,
        completed,
        errors,
        timeouts,
        achievedPerSec: completed >= 2 && lastAnswer > firstAnswer ? (completed - 1) / ((lastAnswer - firstAnswer) / 1000) : 0,
        elapsedSec: Math.round(Math.max(windowMs, lastSettled - t0)) / 1000,
        latencyMs: percentilesMs(latency),
        latenessMs: { p50: percentileMs(lateness, 50), p99: percentileMs(lateness, 99), max: percentilesMs(lateness).max },
        cpuPercent: round1((windowCpuMs / sendWindowMs) * 100),
        busyPercent: round1((Math.max(0, windowCpuMs - windowSpinMs) / sendWindowMs) * 100),
        ...verdictAtEnd(),
      });
    };

    pool.preopen(preopenCount(options.ratePerSec, options.maxInFlight)).then(() => {
      t0 = performance.now() + 5;
      cpu0 = process.cpuUsage();
      check = startChecking();
      wake.at(t0 - WAKE_EARLY_MS);
    });
  });
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const send = (message: GeneratorMessage) => process.send?.(message);

process.on('message', (command: GeneratorCommand) => {
  if (command.type !== 'step') return;
  runStep(command.options).then(
    (result) => send({ type: 'result', result }),
    (error: unknown) => send({ type: 'error', message: (error as Error).message }),
  );
});
process.on('disconnect', () => process.exit(0));
// Ctrl-C reaches the whole process group: the harness ends this process by disconnecting.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
send({ type: 'ready' });
