// The harness measures a group of serving processes only when every one it asked for answers
// for itself: a server whose /health names fewer processes, fewer pids, or pids outside the
// process group that was started is refused, and nothing of it is left running. A tiny fake
// server (plain node:http) plays each lie, since a real one is built never to tell it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers } from '../../src/servers/server.ts';
import { processesMentioning } from './helpers.ts';

let dir: string;
let script: string;

// $1: which lie. The readiness line and /health name this process's pid, as a real server's do.
const FAKE = `
import { createServer } from 'node:http';
const lie = process.argv[2];
const health = () => {
  const pids = lie === 'stranger' ? [process.pid, 1] : [process.pid];
  const processes = lie === 'says-one' ? 1 : 2;
  return { runtime: 'node', version: process.versions.node, pid: process.pid, server: 'hono', processes, pids };
};
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(req.url === '/health' ? health() : { hello: 'world' }));
});
server.listen(0, '127.0.0.1', () => {
  console.log('ready http://127.0.0.1:' + server.address().port + ' runtime=node server=hono pid=' + process.pid);
});
process.on('SIGTERM', () => process.exit(0));
`;

const fake = (lie: string): RuntimeSpec => ({
  name: 'node',
  binary: process.execPath,
  args: () => [script, lie],
  versionArgs: ['--version'],
  parseVersion: (out) => out.trim().replace(/^v/, ''),
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bench-procs-'));
  script = join(dir, 'fake-group.mjs');
  writeFileSync(script, FAKE);
});

afterAll(async () => {
  await stopAllServers();
  expect(processesMentioning(dir)).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

describe('a group of serving processes that does not answer as asked is refused', () => {
  it('one pid where two processes were asked for: refused once the start-up deadline passes, nothing left', async () => {
    await expect(startServer(fake('one-missing'), { raw: false, serverArgs: [], processes: 2, readyTimeoutMs: 1_500 })).rejects.toThrow(
      /only 1 of 2 processes answer: refusing to measure it/,
    );
    expect(processesMentioning(dir)).toEqual([]);
  });

  it('a server that says it runs one process where two were asked for', async () => {
    await expect(startServer(fake('says-one'), { raw: false, serverArgs: [], processes: 2, readyTimeoutMs: 5_000 })).rejects.toThrow(
      /1 processes answer where 2 were asked for: refusing to measure it/,
    );
    expect(processesMentioning(dir)).toEqual([]);
  });

  it('a pid outside the process group that was started (pid 1)', async () => {
    await expect(startServer(fake('stranger'), { raw: false, serverArgs: [], processes: 2, readyTimeoutMs: 5_000 })).rejects.toThrow(
      /processes 1 named by \/health are not in the group started: refusing to measure them/,
    );
    expect(processesMentioning(dir)).toEqual([]);
  });
});
