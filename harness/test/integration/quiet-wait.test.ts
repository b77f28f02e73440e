/**
 * The one quiet-wait (servers/quiet.ts waitQuiet) as the curve and the seeds call it: a
 * server that hangs while they wait is reported hung within the hang deadline, not after the
 * wait's own deadline (20 s for the curve, a minute for the seeds), and a busy one is busy.
 * The server is a stand-in: a tiny node process answering /stats, stopped with SIGSTOP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { waitQuiet as curveWaitQuiet } from '../../src/curve/server-figures.ts';
import { ServerBusy, ServerLost } from '../../src/servers/liveness.ts';
import type { Exit, RunningServer } from '../../src/servers/server.ts';
import { quiesce as seedsQuiesce } from '../../src/seeds/sources.ts';

// Answers /stats with a request always in hand (a server that never gets quiet), on a free port.
const FAKE = `
const http = require('node:http');
let count = 0;
const server = http.createServer((req, res) => {
  count++;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ inFlight: 1, routes: { '/stats': { count } }, eventLoopLagMs: { p99: 0, max: 0 }, cpuMs: { user: 0, system: 0 }, rssBytes: 0 }));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

/** `tracked`: killed after each test; a test that runs beside another (it.concurrent) kills its own instead. */
async function fakeServer(tracked = true): Promise<RunningServer> {
  const child = spawn(process.execPath, ['-e', FAKE], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (tracked) children.push(child);
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    runtime: 'node',
    kind: 'hono',
    pid: child.pid!,
    servingPids: [child.pid!],
    url: `http://127.0.0.1:${line.toString().trim()}`,
    health: { runtime: 'node', version: process.versions.node, pid: child.pid!, server: 'hono' },
    exited,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    stderrTail: () => '',
    stop: async () => {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      return exited;
    },
  } as RunningServer;
}

async function hungWithin(wait: (server: RunningServer) => Promise<void>): Promise<{ error: unknown; ms: number }> {
  const server = await fakeServer(false);
  try {
    const started = performance.now();
    setTimeout(() => process.kill(server.pid, 'SIGSTOP'), 300);
    const error = await wait(server).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error, ms: performance.now() - started };
  } finally {
    await server.stop();
  }
}

describe('curve and seeds wait for quiet with the bench quiet-wait', () => {
  // The two hang cases side by side: each is the hang deadline (5 s) of waiting on its own server.
  it.concurrent("the curve's wait before a step reports a hung server as hung, well before its 20 s deadline", async () => {
    const { error, ms } = await hungWithin((server) => curveWaitQuiet(server, 20_000));
    expect(error).toBeInstanceOf(ServerLost);
    expect((error as Error).message).toMatch(/server hung: stopped/);
    expect(ms).toBeLessThan(15_000);
  }, 30_000);

  it.concurrent("the seeds' wait before a load reports a hung server as hung, well before its 60 s deadline", async () => {
    const { error, ms } = await hungWithin((server) => seedsQuiesce(server, 60));
    expect(error).toBeInstanceOf(ServerLost);
    expect((error as Error).message).toMatch(/server hung: stopped/);
    expect(ms).toBeLessThan(15_000);
  }, 30_000);

  it('a server that keeps working past the deadline is busy, not hung', async () => {
    const server = await fakeServer();
    const error = await curveWaitQuiet(server, 500).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerBusy);
    expect((error as Error).message).toMatch(/still busy 0.5 s after the step/);
  }, 15_000);
});
