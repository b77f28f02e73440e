// --processes on every runtime: N processes on one port, /stats and /reset for the
// whole group, a lost process failing the cell with nothing left behind, and the one result
// queueing theory fixes in advance: sleep/sync (one request at a time per process, no CPU)
// serves N times 1/sleep requests/s.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { parsePlan } from '../../src/bench/plan.ts';
import { RUNTIME_NAMES, runtimeSpec } from '../../src/servers/runtimes.ts';
import { groupAlive, startServer, stopAllServers } from '../../src/servers/server.ts';
import { isAlive, processesMentioning, recordingProgress, SEEDS_ONLY } from './helpers.ts';
import { benchRun } from './bench-run.ts';

let tmp: string;
let dataDir: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-processes-'));
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

  it('sleep/sync: 2 processes serve about twice the requests/s of one; killing a serving process fails its cell and leaves nothing', async () => {
    const out = join(tmp, `out-${name}`);
    const plan = parsePlan([
      '--runtimes',
      name,
      '--scenarios',
      'sleep',
      '--processes',
      '1,2',
      '--sleep-ms',
      '20',
      '--runs',
      '1',
      '--duration',
      '0.5',
      '--warmup',
      '0.2',
      '--warmup-max',
      '0.2',
      '--min-requests',
      '0',
      '--cross-check',
      'none',
      '--data-dir',
      dataDir,
      '--out',
      out,
    ]);
    let killed: number | undefined;
    const { report } = await benchRun(plan, {
      progress: recordingProgress(),
      onRunStarted: (server, cell) => {
        // The async cell of the 2-process lane loses one serving process mid-run.
        if (cell.mode === 'async' && server.servingPids.length === 2 && killed === undefined) {
          killed = server.servingPids[1];
          setTimeout(() => process.kill(killed!, 'SIGKILL'), 200);
        }
      },
    });
    const cell = (mode: string, processes: number) => report.results.find((c) => c.mode === mode && c.processes === processes);
    const one = cell('sync', 1);
    const two = cell('sync', 2);
    expect(one?.status).toBe('ok');
    expect(two?.status).toBe('ok');
    // One request at a time per process, 20 ms each: 50 req/s per process.
    expect(one!.requestsPerSec.median).toBeGreaterThan(50 * 0.8);
    const ratio = two!.requestsPerSec.median / one!.requestsPerSec.median;
    expect(ratio).toBeGreaterThan(2 * 0.8);
    expect(ratio).toBeLessThan(2 * 1.2);
    // Total RSS of both serving processes and the supervisor, not one process's.
    expect(two!.server.rssMB).toBeGreaterThan(one!.server.rssMB * 1.5);

    expect(killed).toBeDefined();
    const lost = cell('async', 2);
    expect(lost?.status).toBe('failed');
    expect(lost?.reason).toMatch(/server died|serving process|hung/);
    expect(cell('async', 1)?.status).toBe('ok');
    await stopAllServers();
    expect(processesMentioning(dataDir)).toEqual([]);
  });
});
