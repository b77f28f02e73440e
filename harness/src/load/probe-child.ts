// The probe: a separate, light, open-loop client. It sends GET /hello at a fixed rate whatever
// happens to earlier requests, and times each from when it was due, so a request stuck behind a
// blocked event loop counts its whole wait (no coordinated omission). It runs in its own
// process so the load generator's busy loop never delays it.
import { Agent, request } from 'node:http';
import { latencyHistogram, percentilesMs, recordMs } from '../stats/latency-histogram.ts';
import type { ProbeCommand, ProbeReport } from './probe.ts';

let session: { stop: () => Promise<ProbeReport> } | undefined;

class ProbeTimeout extends Error {}

function start(url: string, ratePerSec: number, timeoutMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const histogram = latencyHistogram();
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  const periodMs = 1000 / ratePerSec;
  const t0 = performance.now();

  const fire = (dueAt: number) => {
    sent++;
    const done = new Promise<void>((resolve) => {
      const req = request(`${url}/hello`, { agent, timeout: timeoutMs }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) recordMs(histogram, performance.now() - dueAt);
          else errors++;
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new ProbeTimeout()));
      req.on('error', (error) => {
        // A probe that waited past the timeout waited at least that long: it goes into the
        // histogram at the timeout (a lower bound), so an overloaded server's probe p99 cannot
        // look good by leaving out the callers it failed.
        if (error instanceof ProbeTimeout) {
          timeouts++;
          recordMs(histogram, timeoutMs);
        } else {
          errors++;
        }
        resolve();
      });
      req.end();
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  // Each tick fires every request that has come due, timed from its due time, so a late tick
  // (this process is idle, but the machine may not be) does not shorten the measured waits.
  let next = 0;
  const timer = setInterval(
    () => {
      const now = performance.now();
      while (t0 + next * periodMs <= now) fire(t0 + next++ * periodMs);
    },
    Math.max(1, Math.floor(periodMs / 4)),
  );

  return {
    async stop(): Promise<ProbeReport> {
      clearInterval(timer);
      // The requests still waiting are the ones that waited longest: let them finish.
      await Promise.all(inFlight);
      agent.destroy();
      const { p50, p99, max } = percentilesMs(histogram);
      return { sent, count: histogram.totalCount - timeouts, errors, timeouts, p50, p99, max };
    },
  };
}

process.on('message', (command: ProbeCommand) => {
  if (command.type === 'start') {
    session = start(command.url, command.ratePerSec, command.timeoutMs);
    process.send?.({ type: 'started' });
  } else if (command.type === 'stop') {
    const current = session;
    session = undefined;
    void (current?.stop() ?? Promise.resolve(undefined)).then((report) => process.send?.({ type: 'report', report }));
  }
});
process.on('disconnect', () => process.exit(0));
// Ctrl-C reaches the whole foreground process group: the harness decides when the probe stops
// (it still has to report the run in progress), and ends it by disconnecting.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.send?.({ type: 'ready' });
