// The load generator's run length against a server whose pace is known: one answer every 50 ms
// on one connection, so a 0.2 s run can hold at most 4 answers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../src/load/autocannon.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => setTimeout(() => res.end('ok'), 50));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('runLoad with a minimum of requests', () => {
  it('goes on past the duration until the minimum has come back', async () => {
    const result = await runLoad({ url, connections: 1, durationSec: 0.2, timeoutSec: 5, minRequests: 12, maxDurationSec: 3 }).done;
    expect(result.completed).toBeGreaterThanOrEqual(12);
    // 12 answers at 50 ms each: about 0.6 s, far from the 3 s cap.
    expect(result.elapsedSec).toBeGreaterThan(0.55);
    expect(result.elapsedSec).toBeLessThan(1.5);
  });

  it('stops at the duration when the minimum is already met', async () => {
    const result = await runLoad({ url, connections: 1, durationSec: 0.5, timeoutSec: 5, minRequests: 2, maxDurationSec: 3 }).done;
    expect(result.elapsedSec).toBeLessThan(0.9);
  });

  it('stops at the cap when the minimum cannot be met', async () => {
    const result = await runLoad({ url, connections: 1, durationSec: 0.2, timeoutSec: 5, minRequests: 1000, maxDurationSec: 1 }).done;
    expect(result.completed).toBeLessThan(1000);
    expect(result.elapsedSec).toBeGreaterThan(0.9);
    expect(result.elapsedSec).toBeLessThan(1.6);
  });
});

describe('runLoad latency percentiles', () => {
  /** True when some figure has a fraction of a millisecond: the µs were kept. */
  const finerThanMs = (figures: number[]) => figures.some((x) => Math.round(x) !== x);

  it('come from its own per-answer times, to the microsecond', async () => {
    const result = await runLoad({ url, connections: 2, durationSec: 0.3, timeoutSec: 5 }).done;
    // Every answer waits the server's 50 ms timer.
    expect(result.latencyMs.p50).toBeGreaterThanOrEqual(45);
    expect(result.latencyMs.max).toBeGreaterThanOrEqual(result.latencyMs.p99);
    expect(finerThanMs([result.latencyMs.p50, result.latencyMs.max, result.meanLatencyMs ?? 0])).toBe(true);
  });

  it('come from every worker thread when autocannon runs in threads', async () => {
    const result = await runLoad({ url, connections: 2, durationSec: 0.3, timeoutSec: 5, workers: 2 }).done;
    expect(result.completed).toBeGreaterThan(0);
    expect(result.latencyMs.p50).toBeGreaterThanOrEqual(45);
    expect(finerThanMs([result.latencyMs.p50, result.latencyMs.max, result.meanLatencyMs ?? 0])).toBe(true);
  });
});
