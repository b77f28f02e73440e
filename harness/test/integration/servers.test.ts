// Every runtime's real entrypoint, Hono and raw: started as the harness starts it, asked every
// route once, stopped, and checked gone.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { probeRuntime, RUNTIME_NAMES, runtimeSpec } from '../../src/servers/runtimes.ts';
import { groupAlive, startServer, stopAllServers, type RunningServer } from '../../src/servers/server.ts';
import { checkAnswer } from '../../src/servers/validate.ts';
import { scenarioSettings } from '../../src/servers/scenarios.ts';
import { allocatorEnv } from '../../src/system/allocator.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
/** util-linux setpriv with --pdeathsig: without it a server outlives a harness killed outright (servers/server.ts). */
const SETPRIV = spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
if (!SETPRIV) console.warn('servers.test: no setpriv --pdeathsig here (util-linux): the parent-death case is skipped');

const LOAD_ROUTES = [
  '/hello',
  '/hash/sync',
  '/hash/async',
  '/file/sync',
  '/file/async',
  '/fib/sync?n=20',
  '/fib/async?n=20',
  '/fib/worker?n=20',
  '/fib/worker?n=12&variant=busy',
  '/fib/async?n=40&variant=memo',
  '/sleep/sync?ms=5',
  '/sleep/async?ms=5',
];

let dataDir: string;
/** route -> runtime -> sorted keys of the JSON answer, to prove the shapes match everywhere. */
const shapes = new Map<string, Map<string, string>>();

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  generateDataFiles(dataDir, 3, 64 * 1024);
});

afterAll(async () => {
  await stopAllServers();
  rmSync(dataDir, { recursive: true, force: true });
});

async function getJson(server: RunningServer, path: string, init?: RequestInit) {
  const res = await fetch(server.url + path, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.each(RUNTIME_NAMES)('%s', (name) => {
  const spec = runtimeSpec(name);
  const serverArgs = () => ['--data-dir', dataDir, '--hash-cost', '4', '--workers', '2'];

  it('hono server answers every route with the contract shapes, counts them, and stops cleanly', async () => {
    const probe = probeRuntime(spec);
    expect(probe).toMatchObject({ ok: true });
    const server = await startServer(spec, { raw: false, serverArgs: serverArgs() });
    expect(server.health).toMatchObject({ runtime: name, version: probe.ok ? probe.version : '', pid: server.pid, server: 'hono' });
    // One process: no group fields; the pools named with where their sizes came from.
    expect(server.health.processes).toBeUndefined();
    expect(server.health.pools?.workers).toMatchObject({ size: 2, source: 'flag' });
    expect(server.health.pools?.threadpool.source).toBe(name === 'deno' ? 'cannot be set' : 'default');

    expect((await getJson(server, '/reset', { method: 'POST' })).status).toBe(200);
    for (const path of LOAD_ROUTES) {
      const res = await fetch(server.url + path);
      const clone = res.clone();
      expect(
        await checkAnswer(path, res, { settings: scenarioSettings({ dataDir, hashCost: 4, fibN: 28, sleepMs: 20 }) }),
        path,
      ).toBeUndefined();
      if (path !== '/hello') {
        const keys = Object.keys((await clone.json()) as object)
          .sort()
          .join(',');
        const route = path.split('?')[0]!;
        if (!shapes.has(route)) shapes.set(route, new Map());
        shapes.get(route)!.set(name, keys);
      }
    }

    const bad = await getJson(server, '/fib/sync?n=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/n must be/);
    expect((await getJson(server, '/nope')).status).toBe(404);

    const stats = await getJson(server, '/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ runtime: name, pid: server.pid });
    const routes = stats.body.routes as Record<string, { count: number; avgMs: number }>;
    const expected: Record<string, number> = {};
    for (const path of LOAD_ROUTES) {
      const route = path.split('?')[0]!;
      expected[route] = (expected[route] ?? 0) + 1;
    }
    expect(Object.fromEntries(Object.entries(routes).map(([r, c]) => [r, c.count]))).toEqual(expected);
    expect(routes['/sleep/sync']!.avgMs).toBeGreaterThanOrEqual(4.5);
    const lag = stats.body.eventLoopLagMs as Record<string, number>;
    expect(lag.max).toBeGreaterThan(0);
    expect(stats.body.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect((stats.body.cpuMs as { user: number }).user).toBeGreaterThan(0);

    await getJson(server, '/reset', { method: 'POST' });
    const cleared = await getJson(server, '/stats');
    expect(cleared.body.routes).toEqual({});
    expect(Date.parse(cleared.body.since as string)).toBeGreaterThan(Date.parse(stats.body.since as string));

    const exit = await server.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(groupAlive(server.pid)).toBe(false);
  });

  it('raw server answers /hello and /health only, and stops cleanly', async () => {
    const server = await startServer(spec, { raw: true, serverArgs: serverArgs() });
    expect(server.health).toMatchObject({ runtime: name, pid: server.pid, server: 'raw' });
    expect(await checkAnswer('/hello', await fetch(`${server.url}/hello`))).toBeUndefined();
    expect((await fetch(`${server.url}/hash/sync`)).status).toBe(404);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(groupAlive(server.pid)).toBe(false);
  });

  it('BENCH_WORKERS sizes the worker pool when --workers is not given (how an env: variant sets it)', async () => {
    const server = await startServer(spec, { raw: true, serverArgs: ['--data-dir', dataDir], env: { BENCH_WORKERS: '3' } });
    try {
      expect(server.health.pools?.workers).toMatchObject({ size: 3, source: 'env' });
    } finally {
      await server.stop();
    }
  });

  it('--allocator: the allocator settings reach the server process itself, and no other setting changes', async () => {
    const env = allocatorEnv('fresh') ?? {};
    const server = await startServer(spec, { raw: true, serverArgs: serverArgs(), env });
    try {
      const environ = new Set(readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0'));
      for (const [key, value] of Object.entries(env)) expect(environ.has(`${key}=${value}`)).toBe(true);
      expect(environ.has('NO_COLOR=1')).toBe(true);
      expect(await checkAnswer('/hello', await fetch(`${server.url}/hello`))).toBeUndefined();
    } finally {
      await server.stop();
    }
    expect(groupAlive(server.pid)).toBe(false);
  });

  it.skipIf(!SETPRIV)('dies with the process that started it, when that one is killed outright', async () => {
    // A harness of its own: starts a server, says its pid, and waits to be killed.
    const script = join(dataDir, `parent-${name}.mts`);
    writeFileSync(
      script,
      `import { runtimeSpec } from ${JSON.stringify(join(SRC, 'servers/runtimes.ts'))};\n` +
        `import { startServer } from ${JSON.stringify(join(SRC, 'servers/server.ts'))};\n` +
        `const server = await startServer(runtimeSpec(${JSON.stringify(name)}), { raw: true, serverArgs: [] });\n` +
        "console.log('pid', server.pid, 'parent', process.pid);\nsetInterval(() => {}, 1000);\n",
    );
    const parent = spawn(TSX, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let pid: number | undefined;
    try {
      // tsx runs the script in a child process of its own: that one is the server's parent.
      const [server, starter] = await new Promise<[number, number]>((resolve, reject) => {
        let out = '';
        parent.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /^pid (\d+) parent (\d+)$/m.exec(out);
          if (match) resolve([Number(match[1]), Number(match[2])]);
        });
        parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before its server was up`)));
      });
      pid = server;
      expect(groupAlive(pid)).toBe(true);
      process.kill(starter, 'SIGKILL');
      const until = Date.now() + 5_000;
      while (groupAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(groupAlive(pid)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
      if (pid !== undefined && groupAlive(pid)) process.kill(-pid, 'SIGKILL');
    }
  });
});

describe('across runtimes', () => {
  it('every route answers the same JSON shape on node, bun and deno', () => {
    expect(shapes.size).toBe(new Set(LOAD_ROUTES.filter((p) => p !== '/hello').map((p) => p.split('?')[0])).size);
    for (const [route, byRuntime] of shapes) {
      expect([...byRuntime.keys()].sort(), route).toEqual(['bun', 'deno', 'node']);
      expect(new Set(byRuntime.values()).size, `${route}: ${JSON.stringify([...byRuntime])}`).toBe(1);
    }
  });
});

describe('groupAlive', () => {
  it('a group whose one member has exited but is not yet reaped holds nothing alive', async () => {
    // sh puts a child in a group of its own (setsid) that exits shortly, then becomes sleep,
    // which never reaps it: a zombie, as a Node server's esbuild services are while a slow
    // PID 1 has not reaped them, and stop() need not wait for that. The child outlives the exec
    // by 0.2 s: one that exited before it could be reaped by sh, leaving no zombie to look at.
    const parent = spawn('sh', ['-c', 'setsid sh -c "sleep 0.2; exit 0" & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = await new Promise<number>((resolve) => {
        parent.stdout.setEncoding('utf8').once('data', (chunk: string) => resolve(Number(chunk.trim())));
      });
      const state = () => /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
      const until = Date.now() + 5_000;
      while (state() !== 'Z' && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(state()).toBe('Z');
      // The kernel still counts the zombie as its group's member.
      expect(() => process.kill(-pid, 0)).not.toThrow();
      expect(groupAlive(pid)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
