import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checksum32,
  createApp,
  generateDataFiles,
  HASH_SECRET,
  HELLO_TEXT,
  type AppConfig,
  type BenchApp,
  type Manifest,
} from '../src/index.ts';
import { testAppConfig } from './test-config.ts';

let dataDir: string;
let manifest: Manifest;
let app: BenchApp;

const config = (overrides: Partial<AppConfig> = {}): AppConfig => testAppConfig(dataDir, overrides);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'app-test-'));
  manifest = generateDataFiles(dataDir, 4, 10_003);
  app = await createApp(config());
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function json(path: string, init?: RequestInit) {
  const res = await app.request(path, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, res };
}

const FIB = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765];

describe('routes', () => {
  it('serves a built-in the runtime cannot run as 503 naming why, and the rest as usual', async () => {
    // node:sqlite arrived in Node 22.5: on an older Node the sqlite module cannot set up.
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const res = await app.request('/sqlite/sync');
    if (major > 22 || (major === 22 && minor >= 5)) {
      expect(res.status).toBe(200);
    } else {
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/sqlite is not available on this server: .*node:sqlite/);
    }
    expect((await app.request('/hello')).status).toBe(200);
  });

  it('GET /hello answers the fixed text', async () => {
    const res = await app.request('/hello');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(HELLO_TEXT);
  });

  it('GET /health names the runtime, version, pid and server kind', async () => {
    expect((await json('/health')).body).toEqual({ runtime: 'node', version: '20.0.0-test', pid: 4242, server: 'hono' });
  });

  it.each(['/hash/sync', '/hash/async'])('GET %s answers a bcrypt hash of the secret at the configured cost', async (path) => {
    const { status, body } = await json(path);
    expect(status).toBe(200);
    expect(body.cost).toBe(4);
    expect(body.hash).toMatch(/^\$2b\$04\$/);
    expect(await bcrypt.compare(HASH_SECRET, body.hash as string)).toBe(true);
    expect(await bcrypt.compare('wrong', body.hash as string)).toBe(false);
  });

  it.each(['/file/sync', '/file/async'])('GET %s reads a whole generated file and answers its size and checksum', async (path) => {
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { status, body } = await json(path);
      expect(status).toBe(200);
      const entry = manifest.files.find((f) => f.name === body.file)!;
      expect(entry).toBeDefined();
      expect(body.bytes).toBe(10_003);
      expect(body.checksum).toBe(checksum32(readFileSync(join(dataDir, entry.name))));
      expect(body.checksum).toBe(entry.checksum);
      seen.add(body.file as string);
    }
    // Picked at random: 30 draws from 4 files see more than one.
    expect(seen.size).toBeGreaterThan(1);
  });

  it.each(['sync', 'async', 'worker'])('GET /fib/%s computes fib(n) for every variant', async (mode) => {
    for (const variant of ['plain', 'busy', 'memo']) {
      for (const n of [0, 1, 2, 10, 20]) {
        const { status, body } = await json(`/fib/${mode}?n=${n}&variant=${variant}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ n, variant, mode, value: FIB[n] });
      }
    }
    expect((await json(`/fib/${mode}?n=78&variant=memo`)).body.value).toBe(8944394323791464);
    expect((await json(`/fib/${mode}`)).body).toMatchObject({ n: 20, variant: 'plain', value: 6765 });
  });

  it('GET /sleep/sync blocks the loop and /sleep/async does not', async () => {
    await json('/reset', { method: 'POST' });
    const t0 = performance.now();
    const { body } = await json('/sleep/sync?ms=60');
    expect(body).toEqual({ ms: 60, mode: 'sync' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(59);
    // The lag sampler's next tick came at least ~50 ms late.
    await new Promise((r) => setTimeout(r, 30));
    expect(((await json('/stats')).body.eventLoopLagMs as { max: number }).max).toBeGreaterThanOrEqual(45);

    // Ten async sleeps of 60 ms overlap: together they take far less than 600 ms.
    const t1 = performance.now();
    const all = await Promise.all(Array.from({ length: 10 }, () => json('/sleep/async?ms=60')));
    expect(all.every((r) => r.body.mode === 'async' && r.body.ms === 60)).toBe(true);
    expect(performance.now() - t1).toBeLessThan(400);
  });

  it('POST /reset?late-ms=N records the intervals the loop was late past N ms, served at /stats/late; a plain reset stops it', async () => {
    expect((await json('/stats/late')).body).toMatchObject({ thresholdMs: null, intervals: [] });
    expect((await json('/reset?late-ms=0', { method: 'POST' })).status).toBe(400);
    await json('/reset?late-ms=10', { method: 'POST' });
    const before = performance.now();
    await app.request('/sleep/sync?ms=60');
    await new Promise((r) => setTimeout(r, 30));
    const { body } = await json('/stats/late');
    const intervals = body.intervals as [number, number][];
    expect(body.thresholdMs).toBe(10);
    // The same clock as this process's performance.now(): the 60 ms block lies in the test's own window.
    const block = intervals.find(([from, to]) => to - from >= 40);
    expect(block, JSON.stringify(body)).toBeDefined();
    expect(block?.[0]).toBeGreaterThanOrEqual(before - 1);
    expect(block?.[1]).toBeLessThanOrEqual(body.nowMs as number);
    expect(((await json('/stats')).body.routes as Record<string, unknown>)['/stats/late']).toBeUndefined();

    await json('/reset', { method: 'POST' });
    await app.request('/sleep/sync?ms=30');
    await new Promise((r) => setTimeout(r, 20));
    expect((await json('/stats/late')).body).toMatchObject({ thresholdMs: null, intervals: [] });
  });

  it('GET /stats counts the requests still being handled', async () => {
    const pending = app.request('/sleep/async?ms=200');
    const pending2 = app.request('/sleep/async?ms=200');
    await new Promise((r) => setTimeout(r, 50));
    expect((await json('/stats')).body.inFlight).toBe(2);
    await Promise.all([pending, pending2]);
    expect((await json('/stats')).body.inFlight).toBe(0);
  });

  it('GET /stats counts requests per route and POST /reset clears them', async () => {
    await json('/reset', { method: 'POST' });
    await app.request('/hello');
    await app.request('/hello');
    await app.request('/sleep/sync?ms=10');
    await app.request('/fib/sync?n=abc'); // rejected requests are not counted
    const { body } = await json('/stats');
    expect(body).toMatchObject({ runtime: 'node', pid: 4242 });
    const routes = body.routes as Record<string, { count: number; avgMs: number }>;
    expect(Object.keys(routes).sort()).toEqual(['/hello', '/sleep/sync']);
    expect(routes['/hello']!.count).toBe(2);
    expect(routes['/sleep/sync']!.avgMs).toBeGreaterThanOrEqual(9.5);
    expect(body.rssBytes).toBeGreaterThan(0);
    expect((body.cpuMs as { user: number }).user).toBeGreaterThan(0);
    expect(Object.keys(body.eventLoopLagMs as object).sort()).toEqual(['max', 'p50', 'p99', 'samples']);
    expect(body.inFlight).toBe(0);

    const reset = await json('/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    expect((await json('/stats')).body.routes).toEqual({});
  });
});

describe('seed replay options', () => {
  it.each(['/file/sync?body=bytes', '/file/async?body=bytes'])('GET %s sends the bytes of one generated file', async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const data = new Uint8Array(await res.arrayBuffer());
    const entry = manifest.files.find((f) => f.name === res.headers.get('x-file'))!;
    expect(data.byteLength).toBe(10_003);
    expect(checksum32(data)).toBe(entry.checksum);
  });

  it.each(['sync', 'async', 'worker'])(
    "GET /fib/%s?variant=memo-late (seed 002's memo as written) computes fib(n), bounded like plain",
    async (mode) => {
      for (const n of [0, 1, 2, 15, 20]) expect((await json(`/fib/${mode}?n=${n}&variant=memo-late`)).body.value).toBe(FIB[n]);
      expect((await json(`/fib/${mode}?n=33&variant=memo-late`)).status).toBe(400);
    },
  );

  it('GET /fib/async?depth=&exp= takes both per request and echoes them', async () => {
    const { status, body } = await json('/fib/async?n=12&variant=busy&depth=32&exp=3');
    expect(status).toBe(200);
    expect(body).toMatchObject({ n: 12, value: FIB[12] ?? 144, asyncDepth: 32, busyExponent: 3, mode: 'async' });
    // Left out, they stay the server's settings.
    expect((await json('/fib/async?n=5')).body).toMatchObject({ asyncDepth: 4, busyExponent: 2 });
  });
});

describe('bad input', () => {
  const cases: Array<[string, RegExp]> = [
    ['/fib/sync?n=33', /n must be from 0 to 32, got 33/],
    ['/fib/async?n=-1', /n must be from 0 to 32/],
    ['/fib/worker?n=abc', /n must be an integer/],
    ['/fib/sync?n=2.5', /n must be an integer/],
    ['/fib/sync?n=1e3', /n must be an integer/],
    ['/fib/sync?n=NaN', /n must be an integer/],
    ['/fib/sync?n=', /n must be an integer/],
    ['/fib/sync?n=99999999999999999999', /n must be an integer/],
    ['/fib/sync?n=1&n=2', /n given 2 times/],
    ['/fib/sync?variant=nope', /variant must be one of plain, busy, memo/],
    ['/fib/sync?variant=memo&n=79', /n must be from 0 to 78/],
    ['/fib/sync?variant=..%2F..%2Fetc%2Fpasswd', /variant must be one of/],
    ['/fib/async?depth=33', /depth must be from 0 to 32, got 33/],
    ['/fib/async?exp=7', /exp must be from 0 to 6, got 7/],
    ['/fib/sync?exp=x', /exp must be an integer/],
    // The queries that held a server for 5 to 25 s before the joint bounds, refused for every mode.
    [
      '/fib/async?variant=memo-late&n=32',
      /n=32 with variant=memo-late makes 7049155 async calls, over the bound of 250000 async calls: with these, n may be at most 25/,
    ],
    ['/fib/sync?n=32&depth=32', /n=32 with depth=32 makes 7049155 async calls/],
    [
      '/fib/worker?variant=busy&exp=6&n=32',
      /variant=busy with n=32 and exp=6 spins 1073741824 times \(n \*\* exp\), over the bound of 100000000/,
    ],
    ['/file/sync?body=raw', /body must be one of summary, bytes/],
    ['/file/async?body=bytes&body=bytes', /body given 2 times/],
    ['/sleep/sync?ms=1001', /ms must be from 0 to 1000/],
    ['/sleep/async?ms=-5', /ms must be from 0 to 1000/],
    ['/sleep/async?ms=ten', /ms must be an integer/],
  ];
  it.each(cases)('GET %s is a 400 with a JSON error', async (path, message) => {
    const { status, body, res } = await json(path);
    expect(status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(body.error).toMatch(message);
  });

  it('a URL over 2048 characters is a 414 JSON', async () => {
    const { status, body } = await json(`/fib/sync?n=5&pad=${'a'.repeat(2100)}`);
    expect(status).toBe(414);
    expect(body.error).toMatch(/the limit is 2048/);
  });

  it('the file routes take no path from the query', async () => {
    const { status, body } = await json('/file/sync?file=../../etc/passwd&name=%2e%2e%2fetc');
    expect(status).toBe(200);
    expect(manifest.files.map((f) => f.name)).toContain(body.file);
  });

  it('unknown routes are a 404 JSON, known routes with the wrong method a 405', async () => {
    const missing = await json('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('no route GET /nope');
    const wrong = await json('/hash/sync', { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.res.headers.get('allow')).toBe('GET');
    expect((await json('/reset')).status).toBe(405);
  });

  it('keeps serving correct answers after bad input', async () => {
    await json('/fib/sync?n=-1');
    expect((await json('/fib/sync?n=10')).body.value).toBe(55);
  });
});

describe('createApp', () => {
  it('serves the file scenario as 503 without its data files, naming the command that makes them', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'app-empty-'));
    try {
      // Beside one scenario that can run: the catalogue's setup would only add to the start-up.
      const bare = await createApp(config({ dataDir: empty, scenarios: ['file', 'sleep'] }));
      const res = await bare.request('/file/sync');
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(
        /file is not available on this server: setup\(\) threw: data files missing.*pnpm data/,
      );
      expect((await bare.request('/sleep/sync?ms=0')).status).toBe(200);
      await bare.close();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('sets up only the scenarios named, serving the others as unknown routes', async () => {
    const some = await createApp(config({ scenarios: ['sleep'] }));
    try {
      expect(some.scenarios.map((s) => s.module.name)).toEqual(['sleep']);
      expect((await some.request('/sleep/sync?ms=0')).status).toBe(200);
      expect((await some.request('/hello')).status).toBe(200);
      expect((await some.request('/hash/sync')).status).toBe(404);
    } finally {
      await some.close();
    }
    const none = await createApp(config({ scenarios: [] }));
    expect(none.scenarios).toEqual([]);
    await none.close();
    await expect(createApp(config({ scenarios: ['sleep', 'nope'] }))).rejects.toThrow(
      /--scenarios: no scenario named nope \(there are .*sleep/,
    );
  });

  it('refuses out-of-range configuration', async () => {
    await expect(createApp(config({ hashCost: 3 }))).rejects.toThrow(/hash cost must be an integer from 4 to 13/);
    await expect(createApp(config({ workerPoolSize: 0 }))).rejects.toThrow(/worker pool size/);
  });
});
