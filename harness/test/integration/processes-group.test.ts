// --processes 2 on every runtime: N processes on one port, /stats and /reset for the whole
// group, SIGTERM stopping them all. Nothing here is a rate or a time, so it runs in the shared
// group; the bench run with --processes (its rates, a lost process) is processes.test.ts.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { RUNTIME_NAMES, runtimeSpec } from '../../src/servers/runtimes.ts';
import { groupAlive, startServer, stopAllServers } from '../../src/servers/server.ts';
import { isAlive, SEEDS_ONLY } from './helpers.ts';

let tmp: string;
let dataDir: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-processes-group-'));
  dataDir = join(tmp, 'data');
  generateDataFiles(dataDir, 2, 4096);
});
afterEach(async () => {
  await stopAllServers();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** GET on a connection of its own (no keep-alive pool), so each request may land on another process. */
function getFresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => (body += c))
        .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

interface Stats {
  pid: number;
  routes: Record<string, { count: number }>;
  processes: { pid: number; requests: number }[];
}

describe.each(RUNTIME_NAMES)('%s --processes 2', (name) => {
  const spec = runtimeSpec(name);

  it('serves one port from 2 processes; /stats sums both, /reset clears both; SIGTERM stops them all', async () => {
    const server = await startServer(spec, {
      raw: false,
      serverArgs: ['--data-dir', dataDir, '--processes', '2', ...SEEDS_ONLY],
      processes: 2,
    });
    expect(server.health).toMatchObject({ runtime: name, pid: server.pid, processes: 2 });
    expect(server.servingPids).toHaveLength(2);
    expect(server.servingPids).not.toContain(server.pid);

    const seen = new Set<number>();
    for (let i = 0; i < 24; i++) seen.add((JSON.parse((await getFresh(`${server.url}/health`)).body) as { servedBy: number }).servedBy);
    expect([...seen].sort()).toEqual([...server.servingPids].sort());

    for (let i = 0; i < 24; i++) expect((await getFresh(`${server.url}/sleep/async?ms=1`)).status).toBe(200);
    const stats = JSON.parse((await getFresh(`${server.url}/stats`)).body) as Stats;
    expect(stats.pid).toBe(server.pid);
    expect(stats.routes['/sleep/async']?.count).toBe(24);
    expect(stats.processes.map((p) => p.pid).sort()).toEqual([...server.servingPids].sort());
    expect(stats.processes.reduce((s, p) => s + p.requests, 0)).toBe(24);
    // Over 24 connections each process served some (reusePort hashing or cluster round-robin).
    expect(stats.processes.every((p) => p.requests > 0)).toBe(true);

    expect((await fetch(`${server.url}/reset`, { method: 'POST' })).status).toBe(200);
    const after = JSON.parse((await getFresh(`${server.url}/stats`)).body) as Stats;
    expect(after.routes).toEqual({});
    expect(after.processes.map((p) => p.requests)).toEqual([0, 0]);

    await server.stop();
    expect(groupAlive(server.pid)).toBe(false);
    expect(server.servingPids.filter(isAlive)).toEqual([]);
  });
});
