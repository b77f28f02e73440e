import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exit, RunningServer } from '../src/servers/server.ts';
import { getStats, post } from '../src/servers/server-control.ts';
import { waitQuiet } from '../src/servers/quiet.ts';

/**
 * A stand-in answering /stats from figures the test sets, counting the /stats it answered: the
 * quiet-wait's cost is the answers it asks for and the gaps between them. Its pid is this
 * process's, which keeps moving, so the liveness watch sees a working server.
 */
interface Fake {
  server: RunningServer;
  figures: { inFlight: number; count: number };
  asked: number[];
  close(): Promise<void>;
}

let open: Fake[] = [];

afterEach(async () => {
  await Promise.all(open.map((fake) => fake.close()));
  open = [];
});

async function fake(): Promise<Fake> {
  const figures = { inFlight: 0, count: 7 };
  const asked: number[] = [];
  const http: Server = createServer((req, res) => {
    if (req.url === '/stats') asked.push(performance.now());
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        inFlight: figures.inFlight,
        routes: { '/work': { count: figures.count } },
        eventLoopLagMs: { p99: 0, max: 0 },
        cpuMs: { user: 0, system: 0 },
        rssBytes: 0,
      }),
    );
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const server = {
    runtime: 'node',
    kind: 'hono',
    pid: process.pid,
    servingPids: [process.pid],
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    health: { runtime: 'node', version: process.versions.node, pid: process.pid, server: 'hono' },
    exited: new Promise<Exit>(() => {}),
    alive: true,
    stderrTail: () => '',
    stop: async () => ({ code: 0, signal: null }),
  } as RunningServer;
  const close = () => new Promise<void>((resolve) => http.close(() => resolve()));
  const made = { server, figures, asked, close };
  open.push(made);
  return made;
}

const plan = { drainCapSec: 5, timeoutSec: 5 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('waitQuiet', () => {
  it('with no earlier answer, asks twice, at least the gap apart', async () => {
    const { server, asked } = await fake();
    await waitQuiet({ server, plan }, 2_000, 'busy');
    expect(asked).toHaveLength(2);
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(19);
  });

  it("takes the server's last answer, old enough and with nothing in hand, as the first of the two", async () => {
    const { server, asked } = await fake();
    await getStats({ server, plan }, 2_000);
    // Another lane's run comes between two runs on one server.
    await sleep(50);
    const started = performance.now();
    await waitQuiet({ server, plan }, 2_000, 'busy');
    expect(asked).toHaveLength(2);
    // No gap waited: the earlier answer is already older than it.
    expect(performance.now() - started).toBeLessThan(19);
  });

  it('waits out only what is left of the gap after a recent answer', async () => {
    const { server, asked } = await fake();
    await getStats({ server, plan }, 2_000);
    await waitQuiet({ server, plan }, 2_000, 'busy');
    expect(asked).toHaveLength(2);
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(19);
  });

  it('does not take an earlier answer with a request in hand, or one whose count has moved since', async () => {
    const { server, figures, asked } = await fake();
    figures.inFlight = 1;
    await getStats({ server, plan }, 2_000);
    figures.inFlight = 0;
    await sleep(30);
    await waitQuiet({ server, plan }, 2_000, 'busy');
    // The one in hand, then two quiet answers the gap apart.
    expect(asked).toHaveLength(3);

    await sleep(30);
    figures.count++;
    await waitQuiet({ server, plan }, 2_000, 'busy');
    expect(asked).toHaveLength(5);
  });

  it('does not take an answer from before a /reset, whose counts started over', async () => {
    const { server, figures, asked } = await fake();
    await getStats({ server, plan }, 2_000);
    await post({ server, plan }, '/reset');
    // The counts the reset started over happen to come back to the same figure.
    figures.count = 7;
    await sleep(30);
    await waitQuiet({ server, plan }, 2_000, 'busy');
    expect(asked).toHaveLength(3);
  });
});
