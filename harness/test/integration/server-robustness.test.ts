// The servers under abuse, on every runtime: bad input, 1000 connections, requests queued behind
// blocking work, where they listen, Deno's permissions, memory over repeated runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { denoArgs, denoBinary } from '@bench/runtime-deno/command';
import { runLoad } from '../../src/load/autocannon.ts';
import { parsePlan } from '../../src/bench/plan.ts';
import { RUNTIME_NAMES, runtimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers, type RunningServer } from '../../src/servers/server.ts';
import { checkAnswer } from '../../src/servers/validate.ts';
import { scenarioSettings } from '../../src/servers/scenarios.ts';
import { recordingProgress } from './helpers.ts';
import { benchRun } from './bench-run.ts';

type Runtime = (typeof RUNTIME_NAMES)[number];
let dataDir: string;
/** Each runtime's one server, shared by its tests below and the queue behind blocking work. */
const servers = new Map<Runtime, Promise<RunningServer>>();
const serverOf = (runtime: Runtime) => {
  if (!servers.has(runtime)) servers.set(runtime, start(runtime, false, `${SEEDS},regex`));
  return servers.get(runtime)!;
};
/** Each runtime's queue behind blocking work (its statuses, or why it could not run), once started. */
const queued = new Map<Runtime, Promise<number[] | Error>>();
const queue = (runtime: Runtime) => {
  if (!queued.has(runtime))
    queued.set(
      runtime,
      serverOf(runtime)
        .then(queueBehindBlockingWork)
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
    );
  return queued.get(runtime)!;
};
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-robust-'));
  generateDataFiles(dataDir, 4, 64 * 1024);
  // Checked by its own test below: its waits take wall time and no CPU, so they run beside the
  // tests before it instead of adding 11 s. The first runtime's tests run first, so its queue
  // waits until they are done (its describe's afterAll); the others' queues hold their servers
  // meanwhile, and are done before those servers' own tests.
  for (const runtime of RUNTIME_NAMES.slice(1)) void queue(runtime);
});
afterAll(async () => {
  await stopAllServers();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Small workloads: these tests are about the servers' behaviour, not the work's cost. A 1 ms
 * sleep still blocks the loop (a thousand connections queue behind /sleep/sync), and the
 * thousand left queued after a load drain in about a second instead of five.
 */
const serverArgs = () => ['--data-dir', dataDir, '--hash-cost', '4', '--fib-n', '15', '--sleep-ms', '1'];
/**
 * A server with the seeds' scenarios (every route these tests ask for) and the catalogue modules
 * named, as the bench starts its servers with the scenarios it plans: every module's setup() runs
 * before /health answers, and sqlite's alone (a table of 10^5 rows and more, in the process and in
 * each worker) is most of a start.
 */
const SEEDS = 'hash,file,fib,sleep';
const start = (runtime: (typeof RUNTIME_NAMES)[number], raw = false, scenarios = SEEDS) =>
  startServer(runtimeSpec(runtime), { raw, serverArgs: [...serverArgs(), '--scenarios', scenarios] });

/** One request on its own connection, with full control of method, path and headers. */
function raw(server: RunningServer, method: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(server.url);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolvePromise, reject) => {
    const req = httpRequest(
      { hostname, port, method, path, agent: false, headers: { connection: 'close', ...headers }, timeout: 30_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** Eleven 1 s blocking waits on eleven connections: the last waits about 11 s. */
async function queueBehindBlockingWork(server: RunningServer): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: 11 }, () => raw(server, 'GET', '/sleep/sync?ms=1000')));
  return answers.map((a) => a.status);
}

const BAD_INPUT: Array<[method: string, path: string, headers?: Record<string, string>]> = [
  ['GET', '/fib/sync?n=33'],
  ['GET', '/fib/async?n=-1'],
  ['GET', '/fib/worker?n=NaN'],
  ['GET', '/fib/sync?n=2.5'],
  ['GET', '/fib/sync?n=1e2'],
  ['GET', '/fib/sync?n=99999999999999999999999'],
  ['GET', '/fib/sync?n='],
  ['GET', '/fib/sync?n=1&n=2'],
  ['GET', '/fib/worker?variant=quantum'],
  ['GET', '/fib/sync?variant=memo&n=79'],
  ['GET', '/fib/sync?n=..'],
  ['GET', '/fib/sync?n=%2e%2e%2f%2e%2e'],
  ['GET', '/fib/sync?variant=/etc/passwd'],
  ['GET', '/sleep/sync?ms=1001'],
  ['GET', '/sleep/async?ms=-1'],
  ['GET', '/sleep/sync?ms=0x10'],
  ['GET', '/sleep/async?ms=5&ms=6'],
  ['GET', '/sleep/sync?ms=%00'],
  ['GET', '/../../etc/passwd'],
  ['GET', '/file/%2e%2e/%2e%2e/etc/passwd'],
  ['GET', '/files/sync'],
  ['GET', `/hello?${'x'.repeat(3000)}`],
  ['GET', `/fib/sync?n=5&pad=${'y'.repeat(100_000)}`],
  ['GET', '/hello', { 'x-huge': 'z'.repeat(100_000) }],
  ['POST', '/hash/sync'],
  ['DELETE', '/stats'],
  ['PUT', '/reset'],
  ['GET', '/reset'],
];

describe.each(RUNTIME_NAMES)('%s', (runtime) => {
  // One server for the tests below, each of which ends by checking it still serves correctly (bad
  // input, a hostile regex, a thousand connections, where it listens), and for the queue behind
  // blocking work (before them, or after them for the first runtime): a start costs 1-4 s of CPU.
  let server: RunningServer;
  beforeAll(async () => {
    server = await serverOf(runtime);
    // A queue started before these tests has finished with the server first.
    await queued.get(runtime);
  });
  afterAll(() => {
    // Stopped once its queue is done (it is started here if it was not yet), while the next
    // runtime's tests run.
    void queue(runtime).finally(() => server.stop());
  });

  it('answers every bad input with a 4xx, JSON whenever the app sees it, and stays correct', async () => {
    for (const [method, path, headers] of BAD_INPUT) {
      const what = `${runtime} ${method} ${path.slice(0, 60)}`;
      const oversized = path.length + JSON.stringify(headers ?? {}).length > 64 * 1024;
      let res: Awaited<ReturnType<typeof raw>>;
      try {
        res = await raw(server, method, path, headers);
      } catch (error) {
        // A runtime may answer an oversized head and close before reading all of it: the client
        // then sees a reset instead of the answer. Refused either way; anything else is a bug.
        expect(oversized, `${what}: ${(error as Error).message}`).toBe(true);
        continue;
      }
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      // 431 (Node, Bun) and Deno's bare 400 come from the runtime's HTTP parser: the request
      // head was too large to reach the app at all.
      const fromParser = res.status === 431 || (res.status === 400 && res.headers['content-type'] === undefined);
      if (!fromParser) {
        expect(res.headers['content-type'], what).toMatch(/application\/json/);
        expect(JSON.parse(res.body).error, what).toEqual(expect.any(String));
      }
      if (res.status === 405) expect(res.headers.allow, what).toBeDefined();
    }
    expect(server.alive).toBe(true);
    const res = await fetch(`${server.url}/fib/sync?n=20`);
    expect(await checkAnswer('/fib/sync?n=20', res)).toBeUndefined();
  }, 60_000);

  it("ends a hostile regex in the worker pool at the module's timeout with a 504 naming it, and keeps serving", async () => {
    const hostile = await raw(server, 'GET', '/regex/worker?n=26');
    expect(hostile.status).toBe(504);
    expect(JSON.parse(hostile.body).error).toMatch(/regex: the worker call was ended after 250 ms \(the module's timeoutMs\)/);
    for (const path of ['/regex/worker?n=5', '/regex/sync?n=5']) {
      const res = await raw(server, 'GET', path);
      expect([res.status, JSON.parse(res.body)], path).toEqual([200, { n: 5, length: 6, matched: false }]);
    }
    expect(server.alive).toBe(true);
  }, 60_000);

  it('survives 1000 concurrent connections on every endpoint, overload showing as latency or errors', async () => {
    const paths = [
      '/hello',
      '/health',
      '/stats',
      '/hash/sync',
      '/hash/async',
      '/file/sync',
      '/file/async',
      '/fib/sync',
      '/fib/async',
      '/fib/worker',
      '/sleep/sync',
      '/sleep/async',
    ];
    for (const path of paths) {
      // A quarter second: every connection sends its first request as it opens, so a thousand
      // are in flight at once however short the load; a longer one only repeats that overload.
      const result = await runLoad({ url: server.url + path, connections: 1000, durationSec: 0.25, timeoutSec: 20 }).done;
      expect(result.sent, `${runtime} ${path}: no load was applied`).toBeGreaterThanOrEqual(1000);
      expect(server.alive, `${runtime} ${path}: server died`).toBe(true);
      const after = await fetch(server.url + (path === '/health' || path === '/stats' ? '/hello' : path), {
        signal: AbortSignal.timeout(60_000),
      });
      expect(
        await checkAnswer(path === '/health' || path === '/stats' ? '/hello' : path, after, {
          settings: scenarioSettings({ dataDir, hashCost: 4, fibN: 15, sleepMs: 1 }),
        }),
        `${runtime} ${path} after`,
      ).toBeUndefined();
    }
  }, 180_000);

  it('listens on 127.0.0.1 only, unless told otherwise', async () => {
    const rawServer = await start(runtime, true);
    for (const listening of [server, rawServer]) {
      expect(new URL(listening.url).hostname).toBe('127.0.0.1');
      const port = new URL(listening.url).port;
      await expect(fetch(`http://[::1]:${port}/hello`)).rejects.toThrow();
      expect((await fetch(`${listening.url}/hello`)).status).toBe(200);
    }
    await rawServer.stop();
  });
});

describe('every runtime alike', () => {
  it('answers a request queued 11 s behind blocking work on all three (Bun would drop it at 10 s by default)', async () => {
    for (const runtime of RUNTIME_NAMES) {
      const statuses = await queue(runtime);
      if (statuses instanceof Error) throw statuses;
      expect(statuses, runtime).toEqual(Array(11).fill(200));
    }
  }, 60_000);

  it('keeps memory bounded: RSS after 10 runs of a cell stays within 1.5x + 32 MB of RSS after the first', async () => {
    // One server process for all 10 runs (--server-processes 1): the default splits a cell's runs
    // between two processes, restarting it midway, so the last run would be a fresh process's.
    const plan = parsePlan([
      ...['--scenarios', 'file', '--modes', 'async', '--runs', '10', '--duration', '0.3', '--warmup', '0.2', '--server-processes', '1'],
      ...['--data-dir', dataDir, '--file-count', '4', '--file-size', String(64 * 1024), '--out', join(dataDir, 'memory')],
    ]);
    const { report } = await benchRun(plan, { progress: recordingProgress() });
    for (const cell of report.results) {
      const rss = cell.runDetails.map((r) => r.server.rssMB);
      // 10 runs, or one more where a run taken while the machine was slow was repeated.
      expect(rss.length, cell.runtime).toBeGreaterThanOrEqual(10);
      expect(rss.at(-1)!, `${cell.runtime}: ${rss.map((x) => x.toFixed(0)).join(', ')} MB`).toBeLessThanOrEqual(rss[0]! * 1.5 + 32);
    }
  }, 120_000);
});

describe('deno permissions', () => {
  it('the flags the server runs with deny everything but its data, its source, bcrypt and its bind address', () => {
    const args = denoArgs(['--port', '0', '--data-dir', dataDir]);
    const server = args.findIndex((a) => a.endsWith('/server.ts'));
    args[server] = resolve(import.meta.dirname, '../../../runtimes/deno/test/permission-probe.ts');
    expect(args).not.toContain('-A');
    expect(args).not.toContain('--allow-all');
    const res = spawnSync(denoBinary(), args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
    expect(res.stderr).toBe('');
    const verdicts = Object.fromEntries(
      res.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(': ') as [string, string]),
    );
    expect(verdicts).toEqual({
      'read data dir': 'allowed',
      'read /etc/passwd': 'denied',
      'write data dir': 'denied',
      'run a subprocess': 'denied',
      'listen on 127.0.0.1': 'allowed',
      'connect to 127.0.0.2': 'denied',
      'load a system library': 'denied',
      'read env': 'allowed',
    });
  });
});
