// wrk's text output, captured from wrk 4.1.0 (Debian) against this repository's servers, and the
// few things runWrk must do with a real wrk: fail clearly, and leave nothing behind on abort.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWrk, missingWrkReason, parseWrkOutput, parseWrkTimeMs, runWrk, wrkArgs, wrkDurationSec } from '../src/load/wrk.ts';
import { processesMentioning } from './integration/helpers.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures/wrk', name), 'utf8');

describe('parseWrkOutput', () => {
  it('reads rate, count, duration and the --latency distribution (us and ms)', () => {
    expect(parseWrkOutput(fixture('raw-hello-latency.txt'))).toEqual({
      requestsPerSec: 34666.43,
      requests: 70003,
      durationSec: 2.02,
      latencyMs: { p50: 1.09, p90: 3.33, p99: 158.15 },
      socketErrors: { connect: 0, read: 0, write: 0, timeout: 0 },
      non2xx: 0,
    });
  });

  it('converts microseconds to milliseconds', () => {
    const r = parseWrkOutput(fixture('raw-not-found.txt'));
    expect(r.latencyMs?.p50).toBeCloseTo(0.246, 9);
    expect(r.latencyMs?.p90).toBeCloseTo(1.22, 9);
  });

  it('counts non-2xx/3xx answers', () => {
    const r = parseWrkOutput(fixture('raw-not-found.txt'));
    expect(r.non2xx).toBe(29799);
    expect(r.requests).toBe(29799);
  });

  it('reads socket errors and latencies in seconds (trailing blanks after "1.00s")', () => {
    const r = parseWrkOutput(fixture('sleep-timeouts.txt'));
    expect(r.socketErrors).toEqual({ connect: 0, read: 0, write: 0, timeout: 2 });
    expect(r.latencyMs).toEqual({ p50: 1000, p90: 1000, p99: 1000 });
    expect(r.requestsPerSec).toBe(1);
    expect(r.durationSec).toBeCloseTo(3.01, 9);
  });

  it('keeps a run with no latency samples (wrk prints 0.00us and -nan%)', () => {
    const r = parseWrkOutput(fixture('no-latency-samples.txt'));
    expect(r).toMatchObject({ requestsPerSec: 0.9, requests: 1, latencyMs: { p50: 0, p90: 0, p99: 0 } });
    expect(r.socketErrors.timeout).toBe(1);
  });

  it('has no latencyMs without --latency', () => {
    const r = parseWrkOutput(fixture('raw-hello-no-latency-flag.txt'));
    expect(r).toMatchObject({ requestsPerSec: 9350.56, requests: 9945, durationSec: 1.06 });
    expect(r.latencyMs).toBeUndefined();
  });

  it('throws on output without a summary, naming its first line', () => {
    expect(() => parseWrkOutput(fixture('connection-refused.txt'))).toThrow(/no summary.*unable to connect/);
    expect(() => parseWrkOutput('')).toThrow(/\(empty\)/);
  });
});

describe('wrk times and arguments', () => {
  it('parses every unit wrk prints', () => {
    expect(parseWrkTimeMs('262.00us')).toBeCloseTo(0.262, 9);
    expect(parseWrkTimeMs('2.30ms')).toBe(2.3);
    expect(parseWrkTimeMs('1.50s')).toBe(1500);
    expect(parseWrkTimeMs('2.00m')).toBe(120_000);
    expect(() => parseWrkTimeMs('-nan%')).toThrow(/not a wrk time/);
  });

  it('rounds durations up to whole seconds, at least 1', () => {
    expect([0.1, 0.5, 1, 1.2, 2, 2.5].map(wrkDurationSec)).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it('builds -t -c -d --timeout --latency url', () => {
    expect(wrkArgs({ url: 'http://127.0.0.1:1/hello', connections: 50, threads: 2, durationSec: 0.5, timeoutSec: 10 })).toEqual([
      '-t',
      '2',
      '-c',
      '50',
      '-d',
      '1s',
      '--timeout',
      '10s',
      '--latency',
      'http://127.0.0.1:1/hello',
    ]);
  });

  it('refuses fewer connections than threads, as wrk itself does', () => {
    expect(() => wrkArgs({ url: 'http://x', connections: 1, threads: 2, durationSec: 1 })).toThrow(/>= threads/);
    expect(() => wrkArgs({ url: 'http://x', connections: 1, threads: 0, durationSec: 1 })).toThrow(/positive integer/);
  });
});

describe('findWrk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
    writeFileSync(join(dir, 'wrk'), '#!/bin/sh\n');
    chmodSync(join(dir, 'wrk'), 0o755);
    writeFileSync(join(dir, 'not-executable'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('looks along PATH', () => {
    expect(findWrk({ PATH: `/nonexistent:${dir}` })).toBe(join(dir, 'wrk'));
    expect(findWrk({ PATH: '/nonexistent' })).toBeUndefined();
  });

  it('prefers BENCH_WRK_BIN, and does not fall back to PATH when it is broken', () => {
    expect(findWrk({ PATH: '', BENCH_WRK_BIN: join(dir, 'wrk') })).toBe(join(dir, 'wrk'));
    const env = { PATH: dir, BENCH_WRK_BIN: join(dir, 'not-executable') };
    expect(findWrk(env)).toBeUndefined();
    expect(missingWrkReason(env)).toMatch(/BENCH_WRK_BIN=.*not-executable is not an executable file/);
  });
});

// In CI wrk is installed: a missing wrk there fails these tests instead of skipping them.
const wrkBinary = findWrk();
const skipWrk = wrkBinary === undefined && process.env.CI === undefined;
if (skipWrk) console.warn(`wrk.test.ts: skipping runWrk tests: ${missingWrkReason()}`);
const requireWrk = (): string => {
  if (wrkBinary === undefined) throw new Error(`wrk is required when CI is set: ${missingWrkReason()}`);
  return wrkBinary;
};

describe.skipIf(skipWrk)('runWrk with the real wrk', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('hi'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/runwrk-test`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('measures a server', async () => {
    const r = await runWrk({ binary: requireWrk(), url, connections: 2, threads: 1, durationSec: 1 });
    expect(r.requestsPerSec).toBeGreaterThan(0);
    expect(r.latencyMs?.p99).toBeGreaterThan(0);
  });

  it("rejects with wrk's own message when it cannot connect", async () => {
    // Port 1 on loopback: nothing listens there.
    await expect(runWrk({ binary: requireWrk(), url: 'http://127.0.0.1:1/', connections: 1, threads: 1, durationSec: 1 })).rejects.toThrow(
      /wrk failed: unable to connect/,
    );
  });

  it('kills wrk on abort and rejects with the reason', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = runWrk({ binary: requireWrk(), url, connections: 2, threads: 1, durationSec: 30, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 300);
    await expect(run).rejects.toThrow('stop now');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(processesMentioning(url)).toEqual([]);
  });
});
